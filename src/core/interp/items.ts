/** Items of lists, tuples, strings, ranges, dicts and modules: `xs[i]`, `xs[a:b:c]`, `d["k"]`, `blocks[0]`. */
import { part, untracked } from '../shapes/tensors';
import { indexDims, sliceDims } from '../shapes/views';
import { MAYBE_MODULE, UNKNOWN, asPoly, isTainted, type Value } from '../values/value';
import { Poly } from '../values/symbolic';
import { itemsOf } from './builtins';

export function subscript(obj: Value, key: Value, member: (obj: Value, id: string) => Value): Value {
  if (obj.t === 'dims') {
    const bound = (v: Value) => (v.t === 'none' ? undefined : asPoly(v)?.constant);
    if (key.t === 'slice')
      return key.step.t === 'none' ? sliceDims(obj, numberOf(bound(key.lower)), numberOf(bound(key.upper))) : UNKNOWN;
    const i = asPoly(key)?.constant;
    return i === undefined ? UNKNOWN : indexDims(obj, Number(i));
  }
  // An item of what may be a module, or hold one (`create_csp_stem(**cfg)[0]` of a builder not followed), may be one.
  if (obj.t === 'unknown' && obj.module) return MAYBE_MODULE;
  if (key.t === 'slice') return sliced(obj, key);
  if (obj.t === 'dict' && key.t === 'str')
    return isTainted(obj)
      ? UNKNOWN
      : (obj.fields.get(key.v) ??
          (obj.origin ? { t: 'sym', name: `${obj.origin}[${JSON.stringify(key.v)}]` } : UNKNOWN));
  const items = obj.t === 'seq' || obj.t === 'range' ? itemsOf(obj) : undefined;
  if (items && key.t === 'int' && key.p.constant !== undefined) {
    const i = Number(key.p.constant);
    return items[i < 0 ? items.length + i : i] ?? UNKNOWN;
  }
  if (obj.t === 'repeat' && key.t === 'int') return obj.item;
  if (obj.t === 'module' && key.t === 'int' && key.p.constant !== undefined) return member(obj, String(key.p.constant));
  if (obj.t === 'module' && key.t === 'str') return member(obj, key.v);
  if (obj.t === 'sym' && key.t === 'str') return { t: 'sym', name: `${obj.name}[${JSON.stringify(key.v)}]` };
  if (obj.t === 'tensor') {
    // `qkv[0]` of a tensor reshaped to (3, B, heads, T, head size): the first slice of a fused projection.
    const i = key.t === 'int' ? key.p.constant : undefined;
    if (i !== undefined && i >= 0n && i < 64n && !obj.partial && obj.shape.length > 1)
      return part({ t: 'tensor', shape: obj.shape.slice(1), origin: obj.origin, trace: obj.trace }, Number(i));
    return untracked(obj);
  }
  return UNKNOWN;
}

function numberOf(n: bigint | undefined): number | undefined {
  return n === undefined ? undefined : Number(n);
}

/** `xs[a:b:c]` of a list, a tuple or a string with known bounds. */
function sliced(obj: Value, key: Extract<Value, { t: 'slice' }>): Value {
  if (obj.t === 'repeat') return slicedCopies(obj, key);
  const items = obj.t === 'seq' || obj.t === 'range' ? itemsOf(obj) : undefined;
  const text = obj.t === 'str' ? obj.v : undefined;
  const length = items?.length ?? text?.length;
  const bound = (v: Value) => (v.t === 'none' ? undefined : asPoly(v)?.constant);
  const step = bound(key.step) ?? 1n;
  const lo = bound(key.lower);
  const hi = bound(key.upper);
  if (
    length === undefined ||
    step === 0n ||
    (key.lower.t !== 'none' && lo === undefined) ||
    (key.upper.t !== 'none' && hi === undefined)
  )
    return obj.t === 'tensor' ? obj : UNKNOWN;
  const n = BigInt(length);
  const clamp = (x: bigint | undefined, fallback: bigint) => {
    if (x === undefined) return fallback;
    const y = x < 0n ? x + n : x;
    return y < 0n ? (step > 0n ? 0n : -1n) : y > n ? (step > 0n ? n : n - 1n) : y;
  };
  const start = clamp(lo, step > 0n ? 0n : n - 1n);
  const stop = clamp(hi, step > 0n ? n : -1n);
  const picked: number[] = [];
  for (let i = start; step > 0n ? i < stop : i > stop; i += step) picked.push(Number(i));
  if (text !== undefined) return { t: 'str', v: picked.map((i) => text[i]).join('') };
  return { t: 'seq', items: picked.map((i) => items![i]), tuple: obj.t === 'seq' ? obj.tuple : undefined };
}

/**
 * `blocks[i:j]` of a comprehension's copies (a known number of them): as many copies as the slice takes, each
 * its own; a slice with a step, or bounds not known, is not followed.
 */
function slicedCopies(obj: Extract<Value, { t: 'repeat' }>, key: Extract<Value, { t: 'slice' }>): Value {
  const n = obj.count.constant;
  const bound = (v: Value) => (v.t === 'none' ? undefined : asPoly(v)?.constant);
  const lo = bound(key.lower);
  const hi = bound(key.upper);
  if (
    n === undefined ||
    key.step.t !== 'none' ||
    (key.lower.t !== 'none' && lo === undefined) ||
    (key.upper.t !== 'none' && hi === undefined)
  )
    return UNKNOWN;
  const clamp = (x: bigint | undefined, fallback: bigint) => {
    if (x === undefined) return fallback;
    const y = x < 0n ? x + n : x;
    return y < 0n ? 0n : y > n ? n : y;
  };
  const count = clamp(hi, n) - clamp(lo, 0n);
  return count > 0n ? { t: 'repeat', item: obj.item, count: Poly.int(count) } : { t: 'seq', items: [] };
}
