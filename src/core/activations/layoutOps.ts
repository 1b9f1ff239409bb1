/**
 * Operations that only lay a tensor out anew, as ATen does: views share the storage with new sizes and
 * strides (`view` raises where none exists; `reshape` and `contiguous` copy there), and indexing with a list
 * copies and keeps its indices.
 */
import { Poly } from '../values/symbolic';
import type { Op } from './program';
import { fresh, type ReplayState, type Tensor } from './replayState';
import { normalize, sliceLength, splitSizes, Unfollowed } from './shapes';
import { isContiguous, numel, viewStrides } from './strides';

const KINDS = [
  'view',
  'transpose',
  'permute',
  'unsqueeze',
  'split',
  'unbind',
  'index',
  'contiguous',
  'detach',
] as const;
type LayoutOp = Extract<Op, { k: (typeof KINDS)[number] }>;

export function isLayout(op: Op): op is LayoutOp {
  return (KINDS as readonly string[]).includes(op.k);
}

export function layout(s: ReplayState, op: LayoutOp): void {
  switch (op.k) {
    case 'view': {
      const t = s.get(op.in);
      const shape = inferred(
        op.shape.map((d) => (d?.constant === -1n ? -1n : s.dim(d))),
        numel(t.shape),
      );
      const strides = viewStrides(t.shape, t.strides, shape);
      if (!strides && !op.copies) throw new Unfollowed('a view PyTorch refuses on a tensor laid out this way');
      return s.set(op.out, strides ? { ...t, shape, strides } : fresh(shape, t.dtype, t.grad));
    }
    case 'transpose': {
      const t = s.get(op.in);
      const [a, b] = [normalize(op.a, t.shape.length), normalize(op.b, t.shape.length)];
      return s.set(op.out, { ...t, shape: swap(t.shape, a, b), strides: swap(t.strides, a, b) });
    }
    case 'permute': {
      const t = s.get(op.in);
      const order = op.dims.map((d) => normalize(d, t.shape.length));
      return s.set(op.out, { ...t, shape: order.map((d) => t.shape[d]), strides: order.map((d) => t.strides[d]) });
    }
    case 'unsqueeze': {
      const t = s.get(op.in);
      const d = normalize(op.dim, t.shape.length + 1);
      const stride = d < t.shape.length ? t.shape[d] * t.strides[d] : 1n;
      return s.set(op.out, {
        ...t,
        shape: [...t.shape.slice(0, d), 1n, ...t.shape.slice(d)],
        strides: [...t.strides.slice(0, d), stride, ...t.strides.slice(d)],
      });
    }
    case 'split': {
      const t = s.get(op.in);
      const d = normalize(op.dim, t.shape.length);
      const sections = splitSizes(t.shape[d], op.size === undefined ? undefined : s.dim(op.size), op.chunks);
      if (sections.length !== op.outs.length) throw new Unfollowed('a split into another number of parts at this size');
      return op.outs.forEach((id, i) =>
        s.set(id, { ...t, shape: t.shape.map((size, j) => (j === d ? sections[i] : size)) }),
      );
    }
    case 'unbind': {
      const t = s.get(op.in);
      const d = normalize(op.dim, t.shape.length);
      if (t.shape[d] !== BigInt(op.outs.length))
        throw new Unfollowed('an unbind into another number of parts at this size');
      return op.outs.forEach((id) =>
        s.set(id, { ...t, shape: t.shape.filter((_, j) => j !== d), strides: t.strides.filter((_, j) => j !== d) }),
      );
    }
    case 'index':
      return index(s, op);
    case 'contiguous': {
      const t = s.get(op.in);
      return s.set(op.out, isContiguous(t.shape, t.strides) ? t : fresh(t.shape, t.dtype, t.grad));
    }
    case 'detach':
      return s.set(op.out, { ...s.get(op.in), grad: false });
  }
}

/** `x[...]` item by item as ATen's applySlicing does: select, slice, unsqueeze; a list of indices copies. */
function index(s: ReplayState, op: Extract<Op, { k: 'index' }>): void {
  const t: Tensor = s.get(op.in);
  const shape = [...t.shape];
  const strides = [...t.strides];
  let d = 0;
  let list: number | undefined;
  for (const item of op.items) {
    if (item.k === 'none') {
      strides.splice(d, 0, d < shape.length ? shape[d] * strides[d] : 1n);
      shape.splice(d, 0, 1n);
      d++;
      continue;
    }
    if (d >= shape.length) throw new Unfollowed('too many indices for the tensor');
    if (item.k === 'int') {
      const i = s.dim(item.i);
      if (i < -shape[d] || i >= shape[d]) throw new Unfollowed('an index out of range');
      shape.splice(d, 1);
      strides.splice(d, 1);
    } else if (item.k === 'slice') {
      const step = s.dim(item.step ?? Poly.ONE);
      shape[d] = sliceLength(shape[d], item.start && s.dim(item.start), item.stop && s.dim(item.stop), step);
      strides[d] *= step;
      d++;
    } else {
      // Lists with integers or with other lists are advanced indexing laid out otherwise: not followed.
      if (list !== undefined || op.items.some((x) => x.k === 'int'))
        throw new Unfollowed('advanced indexing with more than one list');
      list = item.length;
      shape[d] = BigInt(item.length);
      d++;
    }
  }
  if (list === undefined) return s.set(op.out, { ...t, shape, strides });
  // Advanced indexing copies, and keeps the indices (an int64 tensor made from the list) for backward.
  if (t.grad) s.save(fresh([BigInt(list)], 'long', false));
  s.set(op.out, fresh(shape, t.dtype, t.grad));
}

function swap<T>(xs: readonly T[], a: number, b: number): T[] {
  const out = [...xs];
  [out[a], out[b]] = [out[b], out[a]];
  return out;
}

/** A view's sizes with its -1 worked out from the element count. */
function inferred(shape: readonly bigint[], total: bigint): bigint[] {
  const known = shape.filter((d) => d !== -1n).reduce((a, d) => a * d, 1n);
  const free = shape.filter((d) => d === -1n).length;
  if (free > 1 || (free === 1 && (known === 0n || total % known !== 0n)) || (free === 0 && known !== total))
    throw new Unfollowed('a view whose sizes do not hold the tensor');
  return shape.map((d) => (d === -1n ? total / known : d));
}
