/** What a `for` loop runs over: the items it lists, or a count of copies alike (`for block in self.blocks`). */
import type { ModuleTree } from '../values/modules';
import { Poly } from '../values/symbolic';
import type { Value } from '../values/value';
import { countOf, itemsOf } from './builtins';
import { LIMITS } from '../limits/budget';

export interface Iteration {
  readonly values?: readonly Value[];
  readonly count?: Poly;
  readonly item?: Value;
}

/** What iterating needs of the interpreter: a module of the tree as a value. */
export interface ModuleValues {
  readonly torch: { asValue(tree: ModuleTree): Value };
}

export function iterationOf(ev: ModuleValues, v: Value): Iteration {
  if (v.t === 'module' && !v.items) {
    const children = [...v.tree.children.values()];
    if (children.some((c) => c.repeat))
      return children.length === 1 ? { count: children[0].repeat, item: ev.torch.asValue(children[0]) } : {};
    return { values: children.map((c) => ev.torch.asValue(c)), count: Poly.int(children.length) };
  }
  if (v.t === 'module' && v.items) return { values: v.items, count: Poly.int(v.items.length) };
  if (v.t === 'repeat') return { count: v.count, item: v.item };
  // `for x in torch.linspace(0, rate, depth)`: its rows, of a tensor made, not one a forward() traces.
  const rows = v.t === 'tensor' && !v.partial && !v.trace && v.shape.length ? v.shape[0]?.constant : undefined;
  if (v.t === 'tensor' && rows !== undefined && rows <= BigInt(LIMITS.listItems)) {
    const row: Value = { t: 'tensor', shape: v.shape.slice(1) };
    return { values: Array.from({ length: Number(rows) }, () => row), count: Poly.int(rows) };
  }
  return { values: itemsOf(v), count: countOf(v) };
}
