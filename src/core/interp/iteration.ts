/** What a `for` loop runs over: the items it lists, or a count of copies alike (`for block in self.blocks`). */
import type { Evaluator } from '../evaluate';
import { Poly } from '../symbolic';
import type { Value } from '../value';
import { LIMITS } from './budget';
import { countOf, itemsOf } from './builtins';

export interface Iteration {
  readonly values?: readonly Value[];
  readonly count?: Poly;
  readonly item?: Value;
}

export function iterationOf(ev: Evaluator, v: Value): Iteration {
  if (v.t === 'module' && !v.items) {
    const children = [...v.tree.children.values()];
    if (children.some((c) => c.repeat)) return children.length === 1 ? copies(ev, children[0].repeat!, ev.torch.asValue(children[0])) : {};
    return { values: children.map((c) => ev.torch.asValue(c)), count: Poly.int(children.length) };
  }
  if (v.t === 'module' && v.items) return { values: v.items, count: Poly.int(v.items.length) };
  if (v.t === 'repeat') return copies(ev, v.count, v.item);
  return { values: itemsOf(v), count: countOf(v) };
}

/** `count` copies of `item`: run once for them all, except while forward() is followed for its activations (each copy keeps its own). */
function copies(ev: Evaluator, count: Poly, item: Value): Iteration {
  const n = count.constant;
  const each = ev.tape && n !== undefined && n <= BigInt(LIMITS.loopPasses);
  return { values: each ? Array.from({ length: Number(n) }, () => item) : undefined, count, item };
}
