/** Displays that build values: dicts (`{**base, "k": v}`) and comprehensions (`[Block(c) for _ in range(n)]`). */
import { mentionsName, type Expr } from '../expr';
import type { Evaluator } from '../evaluate';
import { UNKNOWN, truthy, type Value } from '../value';
import { LIMITS } from './budget';
import type { Frame } from './frame';

export function dictDisplay(ev: Evaluator, e: Extract<Expr, { k: 'dict' }>, frame: Frame): Value {
  const fields = new Map<string, Value>();
  for (const entry of e.entries) {
    if (entry.spread) {
      const v = ev.eval(entry.spread, frame);
      if (v.t !== 'dict' || ev.dicts.isTainted(v)) return UNKNOWN;
      for (const [k, val] of v.fields) fields.set(k, val);
    } else if (entry.key) {
      const key = entry.key.k === 'name' && ev.language === 'typescript' ? ({ t: 'str', v: entry.key.id } as Value) : ev.eval(entry.key, frame);
      if (key.t !== 'str') return UNKNOWN;
      fields.set(key.v, ev.eval(entry.value, frame));
    }
  }
  return { t: 'dict', fields };
}

/**
 * `[Block(c) for _ in range(n)]` is n independent copies, even for a symbolic n; an element that reads
 * its loop variable, or a filtered one, is evaluated for each value, when they can be listed.
 */
export function comprehension(ev: Evaluator, e: Extract<Expr, { k: 'comprehension' }>, frame: Frame): Value {
  const iterable = ev.eval(e.iterable, frame);
  const { values, count } = ev.iteration(iterable);
  const inner = frame.fork();
  const readsTarget = e.variable === undefined || e.filters.length > 0 || mentionsName(e.element, e.variable);
  if (!readsTarget && count) {
    ev.assign(e.target, UNKNOWN, inner);
    ev.repeats.push(count);
    try {
      return { t: 'repeat', item: ev.eval(e.element, inner), count };
    } finally {
      ev.repeats.pop();
    }
  }
  if (!values || values.length > LIMITS.listItems) return UNKNOWN;
  const items: Value[] = [];
  for (const v of values) {
    ev.assign(e.target, v, inner);
    let keep = true;
    for (const f of e.filters) {
      const t = truthy(ev.eval(f, inner));
      if (t === undefined) return UNKNOWN;
      keep &&= t;
    }
    if (keep) items.push(ev.eval(e.element, inner));
  }
  return { t: 'seq', items };
}
