/** Displays that build values: lists and tuples, dicts (`{**base, "k": v}`), f-strings and comprehensions (`[Block(c) for _ in range(n)]`). */
import { mentionsName, type Expr } from '../ir/expr';
import type { Language } from '../ir/source';
import { groupDigits, type Poly } from '../values/symbolic';
import { extendDims } from '../shapes/views';
import { SCALAR, UNKNOWN, truthy, isTainted, type Value } from '../values/value';
import { LIMITS } from '../limits/budget';
import { Frame } from './frame';
import type { Iteration } from './iteration';
import { BuiltinRaise } from './raises';
import { born } from '../values/births';
import { setOf } from './sets';

/** What displays and comprehensions need of the interpreter. */
export interface DisplayContext {
  readonly language: Language;
  /** Loop counts entered: a comprehension over `count` alike items appends `count` copies. */
  readonly repeats: Poly[];
  eval(e: Expr, frame: Frame): Value;
  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void;
  iteration(v: Value): Iteration;
}

export function dictDisplay(ev: DisplayContext, e: Extract<Expr, { k: 'dict' }>, frame: Frame): Value {
  const fields = born(new Map<string, Value>());
  for (const entry of e.entries) {
    if (entry.spread) {
      const v = ev.eval(entry.spread, frame);
      if (v.t !== 'dict' || isTainted(v)) return UNKNOWN;
      for (const [k, val] of v.fields) fields.set(k, val);
    } else if (entry.key) {
      const key =
        entry.key.k === 'name' && ev.language === 'typescript'
          ? ({ t: 'str', v: entry.key.id } as Value)
          : ev.eval(entry.key, frame);
      if (key.t !== 'str') return UNKNOWN;
      fields.set(key.v, ev.eval(entry.value, frame));
    }
  }
  return { t: 'dict', fields, mapping: ev.language === 'python' };
}

/**
 * `[Block(c) for _ in range(n)]` is n independent copies, even for a symbolic n; an element that reads
 * its loop variable, or a filtered one, is evaluated for each value, when they can be listed.
 */
export function comprehension(ev: DisplayContext, e: Extract<Expr, { k: 'comprehension' }>, frame: Frame): Value {
  if (!e.set) return listComprehension(ev, e, frame);
  const listed = listComprehension(ev, e, frame);
  return listed.t === 'seq' ? setOf(listed.items) : SCALAR;
}

function listComprehension(ev: DisplayContext, e: Extract<Expr, { k: 'comprehension' }>, frame: Frame): Value {
  const iterable = ev.eval(e.iterable, frame);
  const { values, count } = ev.iteration(iterable);
  // The comprehension's own scope: its variable does not leak, and the frame around it is not copied.
  const inner = new Frame(frame.fragment, frame.scope, frame);
  const readsTarget = e.variable === undefined || e.filters.length > 0 || mentionsName(e.element, e.variable);
  // `[shared for _ in range(n)]` reads one object n times: PyTorch counts a module it holds twice once.
  const reference = e.element.k === 'name' || e.element.k === 'attr' || e.element.k === 'index';
  if (!readsTarget && count && reference) {
    ev.assign(e.target, UNKNOWN, inner);
    const item = ev.eval(e.element, inner);
    if (item.t !== 'module' && item.t !== 'layer' && item.t !== 'param' && item.t !== 'tensor')
      return repeated(item, count);
    const n = count.constant;
    return n === undefined || n > BigInt(LIMITS.listItems)
      ? UNKNOWN
      : { t: 'seq', items: Array.from({ length: Number(n) }, () => item) };
  }
  if (!readsTarget && count) {
    ev.assign(e.target, UNKNOWN, inner);
    ev.repeats.push(count);
    let item: Value;
    try {
      item = ev.eval(e.element, inner);
    } finally {
      ev.repeats.pop();
    }
    // `[deepcopy(block_args) for _ in range(rep)]` (timm's EfficientNet builder): a few plain values, each
    // built again as Python does, are a list to index and extend.
    const n = count.constant;
    if (n === undefined || n > BigInt(PLAIN_COPIES) || !data(item, 0)) return repeated(item, count);
    const items = [item];
    while (items.length < Number(n)) items.push(ev.eval(e.element, inner));
    return { t: 'seq', items };
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

/** `[a, b]`, `(a, *rest)`, and `(*x.shape[:-1], -1, head_dim)`: the leading dimensions of a forward() argument, then the rest. */
export function listDisplay(ev: DisplayContext, e: Extract<Expr, { k: 'list' }>, frame: Frame): Value {
  const items: Value[] = [];
  for (const item of e.items) {
    if (item.k !== 'star') {
      items.push(ev.eval(item, frame));
      continue;
    }
    // `(*x.shape[:-1], -1, head_dim)`: the leading dimensions of a forward() argument, then the rest.
    const starred = ev.eval(item.value, frame);
    if (starred.t === 'dims' && items.length === 0) {
      const rest = e.items.slice(1);
      if (rest.some((r) => r.k === 'star')) return UNKNOWN;
      return extendDims(
        starred,
        rest.map((r) => ev.eval(r, frame)),
      );
    }
    // `(n, *(s + r for ...))`: the starred items, when they can be listed; else the length is not known.
    const spread = ev.iteration(starred).values;
    if (!spread || items.length + spread.length > LIMITS.listItems) return UNKNOWN;
    items.push(...spread);
  }
  return e.set ? setOf(items) : { t: 'seq', items, tuple: e.tuple };
}

/** `f"proj_{name}"`: the text, when every piece is known. */
export function fstring(ev: DisplayContext, e: Extract<Expr, { k: 'fstring' }>, frame: Frame): Value {
  let text = '';
  for (const part of e.parts) {
    const v = typeof part === 'string' ? ({ t: 'str', v: part } as Value) : ev.eval(part, frame);
    if (v.t === 'str') text += v.v;
    else if (v.t === 'int' && v.p.constant !== undefined) text += String(v.p.constant);
    else return SCALAR;
    if (text.length > LIMITS.stringLength) return SCALAR;
  }
  return { t: 'str', v: text };
}

/** How many copies of a plain value a comprehension builds one by one; past it, they stay one repeated item. */
const PLAIN_COPIES = 64;

/** A value holding no module, parameter or tensor: numbers, strings, classes, functions, and lists and dicts of them. */
function data(v: Value, depth: number): boolean {
  switch (v.t) {
    case 'int':
    case 'float':
    case 'bool':
    case 'str':
    case 'none':
    case 'class':
    case 'function':
    case 'lambda':
    case 'ref':
      return true;
    case 'unknown':
      return !!v.scalar;
    case 'seq':
      return depth < 4 && v.items.every((x) => data(x, depth + 1));
    case 'dict':
      return depth < 4 && !isTainted(v) && [...v.fields.values()].every((x) => data(x as Value, depth + 1));
    default:
      return false;
  }
}

/** `count` items of `item`, each its own copy; Python raises MemoryError where they fit in no memory. */
function repeated(item: Value, count: Poly): Value {
  let items = count.constant;
  for (let inner = item; items !== undefined && inner.t === 'repeat'; inner = inner.item) {
    const n = inner.count.constant;
    items = n === undefined ? undefined : items * n;
  }
  if (items !== undefined && items >= LIMITS.comprehensionItems)
    throw new BuiltinRaise(
      'MemoryError',
      `these comprehensions build ${groupDigits(items)} items, more than any machine holds`,
    );
  return { t: 'repeat', item, count };
}
