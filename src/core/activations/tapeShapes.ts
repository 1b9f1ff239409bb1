/**
 * Sizes of results while forward() is followed, where the batch size and the sequence length are names: what
 * the interpreter reads on (`B, T, C = x.size()`). A size that only the replay can work out (`x[:, :T]` of
 * a dimension of 1,024) is undefined here; the replay computes every size again from numbers.
 */
import { Poly } from '../values/symbolic';
import type { Dim, IndexItem } from './program';
import { normalize, Unfollowed } from './shapes';

export function same(a: Dim, b: Dim): boolean {
  return a !== undefined && b !== undefined && a.equals(b);
}

export function broadcast(shapes: readonly (readonly Dim[])[]): Dim[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  return Array.from({ length: rank }, (_, i) => {
    const dims = shapes.map((s) => s[s.length - rank + i] ?? Poly.ONE).filter((d) => d?.constant !== 1n);
    if (!dims.length) return Poly.ONE;
    const [first] = dims;
    if (dims.every((d) => same(d, first))) return first;
    const constants = new Set(dims.map((d) => d?.constant).filter((c) => c !== undefined));
    if (constants.size > 1) throw new Unfollowed('sizes that do not broadcast');
    return undefined;
  });
}

/** A view's sizes, its -1 worked out where the element count allows. */
export function viewed(from: readonly Dim[], to: readonly Dim[]): Dim[] {
  const free = to.findIndex((d) => d?.constant === -1n);
  if (free < 0) return [...to];
  const rest = [...from];
  let asked: Dim = Poly.ONE;
  // The dimensions both sides name alike cancel; what is left of the input is shared out over the rest.
  to.forEach((d, i) => {
    if (i === free) return;
    const at = rest.findIndex((r) => same(r, d));
    if (at >= 0) rest.splice(at, 1);
    else asked = asked && d ? asked.mul(d) : undefined;
  });
  const left = rest.reduce<Dim>((a, r) => (a && r ? a.mul(r) : undefined), Poly.ONE);
  const c = (asked as Dim)?.constant;
  const fill = c === 1n ? left : c && left ? left.divExact(c) : undefined;
  return to.map((x, j) => (j === free ? fill : x));
}

export function swapped(shape: readonly Dim[], a: number, b: number): Dim[] {
  const out = [...shape];
  const [i, j] = [normalize(a, shape.length), normalize(b, shape.length)];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** The number of parts `split(size)` / `chunk(chunks)` gives; it must not depend on the batch or the sequence. */
export function partCount(n: Dim, size: Dim, chunks: number | undefined): number {
  const total = n?.constant;
  const step =
    size?.constant ?? (chunks && total !== undefined ? (total + BigInt(chunks) - 1n) / BigInt(chunks) : undefined);
  if (total === undefined || step === undefined || step <= 0n)
    throw new Unfollowed('a split whose number of parts depends on the sizes');
  return Number((total + step - 1n) / step);
}

/** The sizes of `x[items]`. */
export function indexedShape(shape: readonly Dim[], items: readonly IndexItem[]): Dim[] {
  const out: Dim[] = [];
  let d = 0;
  for (const item of items) {
    if (item.k === 'none') {
      out.push(Poly.ONE);
      continue;
    }
    const size = shape[d++];
    if (item.k === 'list') out.push(Poly.int(item.length));
    else if (item.k === 'slice') out.push(slicedDim(size, item));
  }
  return [...out, ...shape.slice(d)];
}

function slicedDim(size: Dim, s: Extract<IndexItem, { k: 'slice' }>): Dim {
  const step = s.step?.constant ?? 1n;
  const start = s.start?.constant ?? (s.start === undefined ? 0n : undefined);
  if (step !== 1n || start !== 0n) return constantSlice(size, s);
  if (s.stop === undefined || same(s.stop, size)) return size;
  return constantSlice(size, s);
}

function constantSlice(size: Dim, s: Extract<IndexItem, { k: 'slice' }>): Dim {
  const n = size?.constant;
  const start = s.start === undefined ? 0n : s.start.constant;
  const stop = s.stop === undefined ? n : s.stop.constant;
  const step = s.step?.constant ?? 1n;
  if (n === undefined || start === undefined || stop === undefined || step <= 0n) return undefined;
  const clamp = (x: bigint) => (x < 0n ? (x + n < 0n ? 0n : x + n) : x > n ? n : x);
  const [lo, hi] = [clamp(start), clamp(stop)];
  return Poly.int(hi <= lo ? 0n : (hi - lo + step - 1n) / step);
}

/** `a @ b`. */
export function productShape(a: readonly Dim[], b: readonly Dim[]): Dim[] {
  if (a.length < 2 || b.length < 2) throw new Unfollowed('a matrix product of vectors');
  if (b.length === 2) return [...a.slice(0, -1), b[1]];
  if (a.length === 2) throw new Unfollowed('a matrix product of a matrix by a batch');
  return [...broadcast([a.slice(0, -2), b.slice(0, -2)]), a[a.length - 2], b[b.length - 1]];
}
