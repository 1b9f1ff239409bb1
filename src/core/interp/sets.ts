/** Python's sets of plain values: built from a display, a comprehension or `set(xs)`, and asked what they hold. */
import { SCALAR, type Value } from '../values/value';
import { compare } from './arith';

/** `{a, b}` of `items`, duplicates dropped as Python drops them; not known where an item is not hashable or not told apart. */
export function setOf(items: readonly Value[]): Value {
  const kept: Value[] = [];
  for (const item of items) {
    if (!hashable(item, 0)) return SCALAR;
    let seen = false;
    for (const k of kept) {
      const eq = compare('==', item, k);
      if (eq.t !== 'bool') return SCALAR;
      if (eq.v) {
        seen = true;
        break;
      }
    }
    if (!seen) kept.push(item);
  }
  return { t: 'set', items: kept };
}

/** Values a set holds whose equality is certain: known numbers and strings, None, classes, functions, tuples of them. */
function hashable(v: Value, depth: number): boolean {
  switch (v.t) {
    case 'int':
      return v.p.isConstant;
    case 'float':
      return v.v !== undefined;
    case 'str':
    case 'bool':
    case 'none':
    case 'class':
    case 'ref':
    case 'function':
      return true;
    case 'seq':
      return !!v.tuple && depth < 4 && v.items.every((x) => hashable(x, depth + 1));
    default:
      return false;
  }
}
