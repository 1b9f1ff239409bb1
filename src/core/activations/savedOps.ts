/**
 * Operations that compute, and what autograd keeps of each for backward in PyTorch 1.13 (derivatives.yaml,
 * keeping only what the inputs that need a gradient use): a product keeps each operand for the other's
 * gradient, GELU and SiLU their input, ReLU, tanh, sigmoid and softmax their output, LayerNorm its input and
 * row statistics, an embedding its indices, dropout its noise, masked_fill its mask, a mean over dimensions
 * its input. Results get storages of their own.
 */
import type { Dtype, Op, Operand } from './program';
import { fresh, freshLike, reshaped, type ReplayState, type Tensor } from './replayState';
import { broadcastShapes, normalize, Unfollowed } from './shapes';
import { isContiguous, numel, preservedStrides } from './strides';
import { groupDigits } from '../values/symbolic';

type ComputeOp = Extract<
  Op,
  {
    k:
      | 'pointwise'
      | 'softmax'
      | 'dropout'
      | 'matmul'
      | 'linear'
      | 'layerNorm'
      | 'embedding'
      | 'maskedFill'
      | 'cat'
      | 'reduce';
  }
>;

export function compute(s: ReplayState, op: ComputeOp): void {
  switch (op.k) {
    case 'pointwise':
      return pointwise(s, op);
    case 'softmax': {
      const t = s.get(op.in);
      const out = fresh(t.shape, t.dtype, t.grad);
      if (t.grad) s.save(out);
      return s.set(op.out, out);
    }
    case 'dropout':
      return dropout(s, op.in, op.out, op.p);
    case 'matmul':
      return matmul(s, op.a, op.b, op.out);
    case 'linear': {
      const t = s.float(op.in);
      if (t.shape.length < 2) throw new Unfollowed('a linear layer applied to a vector');
      // 2-d: addmm or mm on the input itself; more: the input folded into rows (a view, or a copy when none exists).
      if (op.grads.weight) s.save(t.shape.length === 2 ? t : folded(t));
      return s.set(
        op.out,
        fresh([...t.shape.slice(0, -1), s.dim(op.shape[0])], 'float', t.grad || !!op.grads.weight || !!op.grads.bias),
      );
    }
    case 'layerNorm': {
      const t = s.float(op.in);
      const grad = t.grad || !!op.grads.weight || !!op.grads.bias;
      if (grad) {
        // native_layer_norm keeps its input, and the mean and 1/std of each normalised row in the input's dtype.
        const rows = t.shape.slice(0, t.shape.length - op.normalized);
        s.save(t);
        s.save(fresh(rows, t.dtype, false));
        s.save(fresh(rows, t.dtype, false));
      }
      return s.set(op.out, fresh(t.shape, t.dtype, grad));
    }
    case 'embedding': {
      const t = s.get(op.in);
      if (t.dtype !== 'long') throw new Unfollowed('an embedding given something other than indices');
      const rows = s.dim(op.rows);
      if (t.upTo !== undefined && t.upTo > rows)
        throw new Unfollowed(
          `an embedding of ${groupDigits(rows)} rows indexed up to ${groupDigits(t.upTo - 1n)}, where PyTorch raises IndexError`,
        );
      if (op.grads.weight) s.save(t);
      return s.set(op.out, fresh([...t.shape, s.dim(op.dim)], 'float', !!op.grads.weight));
    }
    case 'maskedFill': {
      const t = s.get(op.in);
      const mask = s.get(op.mask);
      if (mask.dtype !== 'bool') throw new Unfollowed('masked_fill with a mask whose dtype is not followed');
      broadcastShapes([t.shape, mask.shape]);
      if (t.grad) s.save(mask);
      // A clone of its input (memory format preserved), filled in place.
      return s.set(op.out, freshLike(t.shape, preservedStrides(t.shape, t.strides), t.dtype, t.grad));
    }
    case 'reduce': {
      const t = s.get(op.in);
      if (!isContiguous(t.shape, t.strides))
        throw new Unfollowed('a sum or mean over a tensor not laid out contiguously');
      // mean over given dimensions keeps its whole input (its derivative reads self.sizes()); sum keeps nothing.
      if (op.fn === 'mean' && op.dims && t.grad) s.save(t);
      const dims = (op.dims ?? t.shape.map((_, i) => i)).map((d) => normalize(d, t.shape.length));
      const shape = op.keepdim
        ? t.shape.map((size, j) => (dims.includes(j) ? 1n : size))
        : t.shape.filter((_, j) => !dims.includes(j));
      return s.set(op.out, fresh(shape, t.dtype, t.grad));
    }
    case 'cat': {
      const ts = op.ins.map((id) => s.get(id));
      const d = normalize(op.dim, ts[0].shape.length);
      const shape = ts[0].shape.map((size, j) => (j === d ? ts.reduce((a, t) => a + t.shape[j], 0n) : size));
      return s.set(
        op.out,
        fresh(
          shape,
          ts[0].dtype,
          ts.some((t) => t.grad),
        ),
      );
    }
  }
}

function pointwise(s: ReplayState, op: Extract<Op, { k: 'pointwise' }>): void {
  const args = op.args.map((a) => s.operand(a));
  const shape = broadcastShapes(args.map((a) => a.shape));
  const strides = s.elementwise(args, shape);
  const grad = op.fn !== 'compare' && args.some((a) => a.grad);
  const tensors = args.filter((a) => a.shape.length || a.storage.dtype !== 'scalar');
  // Integer tensors with a Python number may become floats: not followed.
  const dtype: Dtype =
    op.fn === 'compare'
      ? 'bool'
      : tensors.some((a) => a.dtype === 'float')
        ? 'float'
        : tensors.length === args.length
          ? tensors[0].dtype
          : 'unknown';
  const out = freshLike(shape, strides, dtype, grad);
  const [a, b] = args;
  switch (op.fn) {
    case 'mul':
      if (a.grad) s.save(b);
      if (b.grad) s.save(a);
      break;
    case 'div':
      if (a.grad || b.grad) s.save(b);
      if (b.grad) s.save(a);
      break;
    case 'gelu':
    case 'silu':
      if (a.grad) s.save(a);
      break;
    case 'relu':
    case 'tanh':
    case 'sigmoid':
      if (a.grad) s.save(out);
      break;
    default:
      break;
  }
  s.set(op.out, out);
}

function dropout(s: ReplayState, id: number, out: number, p: number): void {
  const t = s.get(id);
  // p = 0 returns its input itself; in (0, 1) it multiplies by a noise tensor of the input's dtype (on the
  // CPU; CUDA keeps a 1-byte mask instead), kept for backward.
  if (p === 0) return s.set(out, t);
  if (!(p > 0 && p < 1)) throw new Unfollowed(`dropout with p = ${p}`);
  const noise = preservedStrides(t.shape, t.strides);
  const strides = s.elementwise([t, { ...t, strides: noise }], t.shape);
  if (t.grad) s.save(freshLike(t.shape, noise, t.dtype, false));
  s.set(out, freshLike(t.shape, strides, t.dtype, t.grad));
}

/** matmul as ATen's _matmul_impl: mm for matrices, a batch folded into rows by a matrix, bmm for batches. */
function matmul(s: ReplayState, ao: Operand, bo: Operand, out: number): void {
  const a = s.operand(ao);
  const b = s.operand(bo);
  if (a.dtype !== 'float' || b.dtype !== 'float')
    throw new Unfollowed('a matrix product of tensors whose dtype is not followed');
  const [ra, rb] = [a.shape.length, b.shape.length];
  const grad = a.grad || b.grad;
  const keep = (x: Tensor, y: Tensor) => {
    if (y.grad) s.save(x);
    if (x.grad) s.save(y);
  };
  if (ra === 2 && rb === 2) {
    keep(a, b);
    return s.set(out, fresh([a.shape[0], b.shape[1]], 'float', grad));
  }
  if (ra >= 3 && rb === 2) {
    keep(folded(a), b);
    return s.set(out, fresh([...a.shape.slice(0, -1), b.shape[1]], 'float', grad));
  }
  if (ra >= 3 && rb >= 3) {
    const batch = broadcastShapes([a.shape.slice(0, -2), b.shape.slice(0, -2)]);
    const same = (x: Tensor) => x.shape.length - 2 === batch.length && batch.every((d, i) => x.shape[i] === d);
    if (!same(a) || !same(b)) throw new Unfollowed('a batched matrix product that broadcasts its batch');
    const n = numel(batch);
    keep(reshaped(a, [n, ...a.shape.slice(-2)]), reshaped(b, [n, ...b.shape.slice(-2)]));
    return s.set(out, fresh([...batch, a.shape[ra - 2], b.shape[rb - 1]], 'float', grad));
  }
  throw new Unfollowed('a matrix product of vectors, or of a matrix by a batch');
}

/** A batch of rows folded into one matrix, as matmul (and linear) do before a 2-d product. */
function folded(t: Tensor): Tensor {
  // A 3-d tensor whose last two dimensions are swapped is multiplied batch by batch in some versions.
  if (t.shape.length === 3 && !isContiguous(t.shape, t.strides) && t.strides[2] !== 1n)
    throw new Unfollowed('a product of a transposed batch of matrices');
  const k = t.shape[t.shape.length - 1];
  return reshaped(t, [numel(t.shape) / (k === 0n ? 1n : k), k]);
}
