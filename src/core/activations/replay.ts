/**
 * What autograd keeps for backward when a program runs in train mode at a batch size and a sequence length,
 * as PyTorch 1.13 does on the CPU: each operation's saved tensors (derivatives.yaml, saving only what the
 * inputs that need a gradient use), counted once per storage, parameters left out. Checked against PyTorch
 * itself by scripts/ground-truth/pytorch_sizing.py.
 */
import { BATCH, SEQUENCE, type Dim, type Dtype, type Op, type Operand, type Program } from './program';
import { broadcastShapes, normalize, sliceLength, splitSizes, Unfollowed } from './shapes';
import { Poly } from '../symbolic';
import { contiguousStrides, inOrder, isContiguous, numel, viewStrides } from './strides';

/** Saved memory: floating-point numbers (their bytes depend on the dtype) and bytes of masks, indices and Python numbers. */
export interface Saved {
  readonly floats: bigint;
  readonly bytes: bigint;
}

export interface LayerSaved {
  readonly path: string;
  readonly kind: string;
  /** How many times forward() called it (12 for the block of a 12-layer stack). */
  readonly calls: number;
  readonly saved: Saved;
}

export type Replayed = { readonly saved: Saved; readonly layers: readonly LayerSaved[] } | { readonly unknown: string };

interface Storage {
  readonly elements: bigint;
  /** 'scalar': a Python number autograd wrapped into a 0-dim tensor (float64 or int64: 8 bytes). */
  readonly dtype: Dtype | 'scalar';
  readonly param?: boolean;
}

interface Tensor {
  readonly shape: readonly bigint[];
  readonly strides: readonly bigint[];
  readonly storage: Storage;
  readonly grad: boolean;
  readonly dtype: Dtype;
}

const FIXED_BYTES = { long: 8n, bool: 1n, scalar: 8n } as const;

export function replay(program: Program, batch: number, sequence: number): Replayed {
  const sizes = new Map([[BATCH, BigInt(batch)], [SEQUENCE, BigInt(sequence)]]);
  try {
    return new Replay(program, sizes).run();
  } catch (e) {
    if (e instanceof Unfollowed) return { unknown: e.message };
    throw e;
  }
}

function fresh(shape: readonly bigint[], dtype: Dtype, grad: boolean): Tensor {
  return { shape, strides: contiguousStrides(shape), storage: { elements: numel(shape), dtype }, grad, dtype };
}

class Replay {
  private readonly tensors = new Map<number, Tensor>();
  /** Each storage kept, with the layer that first kept it. */
  private readonly saved = new Map<Storage, number>();
  private layer = -1;

  constructor(
    private readonly program: Program,
    private readonly sizes: ReadonlyMap<string, bigint>,
  ) {}

  run(): Replayed {
    for (const op of this.program.ops) {
      this.layer = op.layer;
      this.step(op);
    }
    const totals = this.program.layers.map(() => ({ floats: 0n, bytes: 0n }));
    const all = { floats: 0n, bytes: 0n };
    for (const [storage, layer] of this.saved) {
      const add = (s: { floats: bigint; bytes: bigint }) => {
        if (storage.dtype === 'float') s.floats += storage.elements;
        else if (storage.dtype !== 'unknown') s.bytes += storage.elements * FIXED_BYTES[storage.dtype];
      };
      add(all);
      if (layer >= 0) add(totals[layer]);
    }
    return { saved: all, layers: this.program.layers.map((l, i) => ({ ...l, saved: totals[i] })) };
  }

  private dim(d: Dim): bigint {
    const c = d?.substitute(this.sizes).constant;
    if (c === undefined) throw new Unfollowed('a size that depends on the sequence length in a way not followed');
    return c;
  }

  private get(id: number): Tensor {
    const t = this.tensors.get(id);
    if (!t) throw new Unfollowed('a tensor not followed');
    return t;
  }

  private set(id: number, t: Tensor): void {
    this.tensors.set(id, t);
  }

  private save(t: Tensor): void {
    if (t.storage.param) return;
    if (t.storage.dtype === 'unknown') throw new Unfollowed('autograd keeps a tensor made before forward() whose dtype is not followed');
    if (!this.saved.has(t.storage)) this.saved.set(t.storage, this.layer);
  }

  private operand(o: Operand): Tensor {
    if (o.t === 'tensor') return this.get(o.id);
    if (o.t === 'scalar') return { shape: [], strides: [], storage: { elements: 1n, dtype: 'scalar' }, grad: false, dtype: 'float' };
    const shape = o.shape.map((d) => this.dim(d));
    return { shape, strides: contiguousStrides(shape), storage: { elements: numel(shape), dtype: 'float', param: true }, grad: o.grad, dtype: 'float' };
  }

  /** `reshape`: a view where the strides allow one, else a copy (which saves nothing itself). */
  private reshaped(t: Tensor, shape: readonly bigint[]): Tensor {
    const strides = viewStrides(t.shape, t.strides, shape);
    return strides ? { ...t, shape, strides } : fresh(shape, t.dtype, t.grad);
  }

  private step(op: Op): void {
    switch (op.k) {
      case 'input':
        return this.set(op.out, fresh(op.shape.map((d) => this.dim(d)), op.dtype, false));
      case 'constant':
        return this.set(op.out, fresh(op.shape.map((d) => this.dim(d)), op.dtype, false));
      case 'view': {
        const t = this.get(op.in);
        const shape = inferred(op.shape.map((d) => (d?.constant === -1n ? -1n : this.dim(d))), numel(t.shape));
        const strides = viewStrides(t.shape, t.strides, shape);
        if (!strides && !op.copies) throw new Unfollowed('a view PyTorch refuses on a tensor laid out this way');
        return this.set(op.out, strides ? { ...t, shape, strides } : fresh(shape, t.dtype, t.grad));
      }
      case 'transpose': {
        const t = this.get(op.in);
        const [a, b] = [normalize(op.a, t.shape.length), normalize(op.b, t.shape.length)];
        return this.set(op.out, { ...t, shape: swap(t.shape, a, b), strides: swap(t.strides, a, b) });
      }
      case 'permute': {
        const t = this.get(op.in);
        const order = op.dims.map((d) => normalize(d, t.shape.length));
        return this.set(op.out, { ...t, shape: order.map((d) => t.shape[d]), strides: order.map((d) => t.strides[d]) });
      }
      case 'unsqueeze': {
        const t = this.get(op.in);
        const d = normalize(op.dim, t.shape.length + 1);
        const stride = d < t.shape.length ? t.shape[d] * t.strides[d] : 1n;
        return this.set(op.out, { ...t, shape: [...t.shape.slice(0, d), 1n, ...t.shape.slice(d)], strides: [...t.strides.slice(0, d), stride, ...t.strides.slice(d)] });
      }
      case 'split': {
        const t = this.get(op.in);
        const d = normalize(op.dim, t.shape.length);
        const sections = splitSizes(t.shape[d], op.size === undefined ? undefined : this.dim(op.size), op.chunks);
        if (sections.length !== op.outs.length) throw new Unfollowed('a split into another number of parts at this size');
        return op.outs.forEach((id, i) => this.set(id, { ...t, shape: t.shape.map((s, j) => (j === d ? sections[i] : s)) }));
      }
      case 'unbind': {
        const t = this.get(op.in);
        const d = normalize(op.dim, t.shape.length);
        if (t.shape[d] !== BigInt(op.outs.length)) throw new Unfollowed('an unbind into another number of parts at this size');
        return op.outs.forEach((id) => this.set(id, { ...t, shape: t.shape.filter((_, j) => j !== d), strides: t.strides.filter((_, j) => j !== d) }));
      }
      case 'index':
        return this.index(op);
      case 'contiguous': {
        const t = this.get(op.in);
        return this.set(op.out, isContiguous(t.shape, t.strides) ? t : fresh(t.shape, t.dtype, t.grad));
      }
      case 'detach':
        return this.set(op.out, { ...this.get(op.in), grad: false });
      case 'pointwise':
        return this.pointwise(op);
      case 'softmax': {
        const t = this.get(op.in);
        const out = fresh(t.shape, t.dtype, t.grad);
        if (t.grad) this.save(out);
        return this.set(op.out, out);
      }
      case 'dropout':
        return this.dropout(op.in, op.out, op.p);
      case 'matmul':
        return this.matmul(op.a, op.b, op.out);
      case 'linear':
        return this.linear(op);
      case 'layerNorm': {
        const t = this.float(op.in);
        const grad = t.grad || !!op.grads.weight || !!op.grads.bias;
        if (grad) {
          // native_layer_norm keeps its input, and the mean and 1/std of each normalised row in the input's dtype.
          const rows = t.shape.slice(0, t.shape.length - op.normalized);
          this.save(t);
          this.save(fresh(rows, t.dtype, false));
          this.save(fresh(rows, t.dtype, false));
        }
        return this.set(op.out, fresh(t.shape, t.dtype, grad));
      }
      case 'embedding': {
        const t = this.get(op.in);
        if (t.dtype !== 'long') throw new Unfollowed('an embedding given something other than indices');
        if (op.grads.weight) this.save(t);
        return this.set(op.out, fresh([...t.shape, this.dim(op.dim)], 'float', !!op.grads.weight));
      }
      case 'maskedFill': {
        const t = this.get(op.in);
        const mask = this.get(op.mask);
        if (mask.dtype !== 'bool') throw new Unfollowed('masked_fill with a mask whose dtype is not followed');
        broadcastShapes([t.shape, mask.shape]);
        this.ordered(t);
        if (t.grad) this.save(mask);
        return this.set(op.out, fresh(t.shape, t.dtype, t.grad));
      }
      case 'cat': {
        const ts = op.ins.map((id) => this.get(id));
        const d = normalize(op.dim, ts[0].shape.length);
        const shape = ts[0].shape.map((s, j) => (j === d ? ts.reduce((a, t) => a + t.shape[j], 0n) : s));
        return this.set(op.out, fresh(shape, ts[0].dtype, ts.some((t) => t.grad)));
      }
    }
  }

  private float(id: number): Tensor {
    const t = this.get(id);
    if (t.dtype !== 'float') throw new Unfollowed('a layer given indices where it reads features');
    return t;
  }

  /** An element-wise result is laid out as its operands are; only the plain row-major order is followed. */
  private ordered(t: Tensor): void {
    if (!inOrder(t.shape, t.strides)) throw new Unfollowed('an element-wise operation on a transposed tensor');
  }

  /** `x[...]` item by item as ATen's applySlicing does: select, slice, unsqueeze; a list of indices copies. */
  private index(op: Extract<Op, { k: 'index' }>): void {
    const t = this.get(op.in);
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
        const i = this.dim(item.i);
        if (i < -shape[d] || i >= shape[d]) throw new Unfollowed('an index out of range');
        shape.splice(d, 1);
        strides.splice(d, 1);
      } else if (item.k === 'slice') {
        const step = this.dim(item.step ?? Poly.ONE);
        shape[d] = sliceLength(shape[d], item.start && this.dim(item.start), item.stop && this.dim(item.stop), step);
        strides[d] *= step;
        d++;
      } else {
        // Lists with integers or with other lists are advanced indexing laid out otherwise: not followed.
        if (list !== undefined || op.items.some((x) => x.k === 'int')) throw new Unfollowed('advanced indexing with more than one list');
        list = item.length;
        shape[d] = BigInt(item.length);
        d++;
      }
    }
    if (list === undefined) return this.set(op.out, { ...t, shape, strides });
    // Advanced indexing copies, and keeps the indices (an int64 tensor made from the list) for backward.
    if (t.grad) this.save(fresh([BigInt(list)], 'long', false));
    this.set(op.out, fresh(shape, t.dtype, t.grad));
  }

  private pointwise(op: Extract<Op, { k: 'pointwise' }>): void {
    const args = op.args.map((a) => this.operand(a));
    const shape = broadcastShapes(args.map((a) => a.shape));
    for (const a of args) if (a.shape.length) this.ordered(a);
    const grad = op.fn !== 'compare' && args.some((a) => a.grad);
    const tensors = args.filter((a) => a.shape.length || a.storage.dtype !== 'scalar');
    // Integer tensors with a Python number may become floats: not followed.
    const dtype: Dtype = op.fn === 'compare' ? 'bool' : tensors.some((a) => a.dtype === 'float') ? 'float' : tensors.length === args.length ? tensors[0].dtype : 'unknown';
    const out = fresh(shape, dtype, grad);
    const [a, b] = args;
    switch (op.fn) {
      case 'mul':
        if (a.grad) this.save(b);
        if (b.grad) this.save(a);
        break;
      case 'div':
        if (a.grad || b.grad) this.save(b);
        if (b.grad) this.save(a);
        break;
      case 'gelu':
      case 'silu':
        if (a.grad) this.save(a);
        break;
      case 'relu':
      case 'tanh':
      case 'sigmoid':
        if (a.grad) this.save(out);
        break;
      default:
        break;
    }
    this.set(op.out, out);
  }

  private dropout(id: number, out: number, p: number): void {
    const t = this.get(id);
    // p = 0 returns its input itself; in (0, 1) it multiplies by a noise tensor of the input's dtype (on the
    // CPU; CUDA keeps a 1-byte mask instead), kept for backward.
    if (p === 0) return this.set(out, t);
    if (!(p > 0 && p < 1)) throw new Unfollowed(`dropout with p = ${p}`);
    this.ordered(t);
    if (t.grad) this.save(fresh(t.shape, t.dtype, false));
    this.set(out, fresh(t.shape, t.dtype, t.grad));
  }

  private matmul(ao: Operand, bo: Operand, out: number): void {
    const a = this.operand(ao);
    const b = this.operand(bo);
    if (a.dtype !== 'float' || b.dtype !== 'float') throw new Unfollowed('a matrix product of tensors whose dtype is not followed');
    const [ra, rb] = [a.shape.length, b.shape.length];
    const grad = a.grad || b.grad;
    const keep = (x: Tensor, y: Tensor) => {
      if (y.grad) this.save(x);
      if (x.grad) this.save(y);
    };
    if (ra === 2 && rb === 2) {
      keep(a, b);
      return this.set(out, fresh([a.shape[0], b.shape[1]], 'float', grad));
    }
    if (ra >= 3 && rb === 2) {
      keep(this.folded(a), b);
      return this.set(out, fresh([...a.shape.slice(0, -1), b.shape[1]], 'float', grad));
    }
    if (ra >= 3 && rb >= 3) {
      const batch = broadcastShapes([a.shape.slice(0, -2), b.shape.slice(0, -2)]);
      const same = (x: Tensor) => x.shape.length - 2 === batch.length && batch.every((d, i) => x.shape[i] === d);
      if (!same(a) || !same(b)) throw new Unfollowed('a batched matrix product that broadcasts its batch');
      const n = numel(batch);
      keep(this.reshaped(a, [n, ...a.shape.slice(-2)]), this.reshaped(b, [n, ...b.shape.slice(-2)]));
      return this.set(out, fresh([...batch, a.shape[ra - 2], b.shape[rb - 1]], 'float', grad));
    }
    throw new Unfollowed('a matrix product of vectors, or of a matrix by a batch');
  }

  /** A batch of rows folded into one matrix, as matmul (and linear) do before a 2-d product. */
  private folded(t: Tensor): Tensor {
    // A 3-d tensor whose last two dimensions are swapped is multiplied batch by batch in some versions.
    if (t.shape.length === 3 && !isContiguous(t.shape, t.strides) && t.strides[2] !== 1n) throw new Unfollowed('a product of a transposed batch of matrices');
    const k = t.shape[t.shape.length - 1];
    return this.reshaped(t, [numel(t.shape) / (k === 0n ? 1n : k), k]);
  }

  private linear(op: Extract<Op, { k: 'linear' }>): void {
    const t = this.float(op.in);
    const [outFeatures] = op.shape.map((d) => this.dim(d));
    const grad = t.grad || !!op.grads.weight || !!op.grads.bias;
    if (t.shape.length < 2) throw new Unfollowed('a linear layer applied to a vector');
    // 2-d: addmm or mm on the input itself; more: the input folded into rows (a view, or a copy when none exists).
    const rows = t.shape.length === 2 ? t : this.folded(t);
    if (op.grads.weight) this.save(rows);
    this.set(op.out, fresh([...t.shape.slice(0, -1), outFeatures], 'float', grad));
  }
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
  if (free > 1 || (free === 1 && (known === 0n || total % known !== 0n)) || (free === 0 && known !== total)) throw new Unfollowed('a view whose sizes do not hold the tensor');
  return shape.map((d) => (d === -1n ? total / known : d));
}
