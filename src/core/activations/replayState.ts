/**
 * The tensors of a replay as ATen lays them out (sizes, strides, the storage they view) and the storages
 * autograd keeps, each once, with the layer that first kept it.
 */
import { BATCH, SEQUENCE, type Dim, type Dtype, type Operand } from './program';
import { Unfollowed } from './shapes';
import { contiguousStrides, elementwiseStrides, numel, viewStrides } from './strides';

export interface Storage {
  readonly elements: bigint;
  /** 'scalar': a Python number autograd wrapped into a 0-dim tensor (float64 or int64: 8 bytes). */
  readonly dtype: Dtype | 'scalar';
  readonly param?: boolean;
}

export interface Tensor {
  readonly shape: readonly bigint[];
  readonly strides: readonly bigint[];
  readonly storage: Storage;
  readonly grad: boolean;
  readonly dtype: Dtype;
  /** Indices known to stay below this (`torch.arange(T)`, and the views of it). */
  readonly upTo?: bigint;
}

/** A new contiguous tensor with a storage of its own. */
export function fresh(shape: readonly bigint[], dtype: Dtype, grad: boolean): Tensor {
  return { shape, strides: contiguousStrides(shape), storage: { elements: numel(shape), dtype }, grad, dtype };
}

/** A new tensor laid out with `strides` over a storage of its own. */
export function freshLike(shape: readonly bigint[], strides: readonly bigint[], dtype: Dtype, grad: boolean): Tensor {
  return { shape, strides, storage: { elements: numel(shape), dtype }, grad, dtype };
}

/** `reshape`: a view where the strides allow one, else a copy (which saves nothing itself). */
export function reshaped(t: Tensor, shape: readonly bigint[]): Tensor {
  const strides = viewStrides(t.shape, t.strides, shape);
  return strides ? { ...t, shape, strides } : fresh(shape, t.dtype, t.grad);
}

export class ReplayState {
  private readonly tensors = new Map<number, Tensor>();
  /** Each storage kept, with the layer that first kept it. */
  readonly saved = new Map<Storage, number>();
  /** The layer the operation replayed now belongs to. */
  layer = -1;
  private readonly sizes: ReadonlyMap<string, bigint>;

  constructor(batch: number, sequence: number) {
    this.sizes = new Map([
      [BATCH, BigInt(batch)],
      [SEQUENCE, BigInt(sequence)],
    ]);
  }

  dim(d: Dim): bigint {
    const c = d?.substitute(this.sizes).constant;
    if (c === undefined) throw new Unfollowed('a size that depends on the sequence length in a way not followed');
    return c;
  }

  get(id: number): Tensor {
    const t = this.tensors.get(id);
    if (!t) throw new Unfollowed('a tensor not followed');
    return t;
  }

  set(id: number, t: Tensor): void {
    this.tensors.set(id, t);
  }

  /** Autograd keeps `t` for backward: its whole storage, unless it is a parameter's. */
  save(t: Tensor): void {
    if (t.storage.param) return;
    if (t.storage.dtype === 'unknown')
      throw new Unfollowed('autograd keeps a tensor made before forward() whose dtype is not followed');
    if (!this.saved.has(t.storage)) this.saved.set(t.storage, this.layer);
  }

  operand(o: Operand): Tensor {
    if (o.t === 'tensor') return this.get(o.id);
    if (o.t === 'scalar')
      return { shape: [], strides: [], storage: { elements: 1n, dtype: 'scalar' }, grad: false, dtype: 'float' };
    const shape = o.shape.map((d) => this.dim(d));
    return {
      shape,
      strides: contiguousStrides(shape),
      storage: { elements: numel(shape), dtype: 'float', param: true },
      grad: o.grad,
      dtype: 'float',
    };
  }

  float(id: number): Tensor {
    const t = this.get(id);
    if (t.dtype !== 'float') throw new Unfollowed('a layer given indices where it reads features');
    return t;
  }

  /** Where the result of an element-wise operation over these operands (Python numbers aside) lays its numbers. */
  elementwise(operands: readonly Tensor[], shape: readonly bigint[]): readonly bigint[] {
    return elementwiseStrides(
      operands.filter((t) => t.storage.dtype !== 'scalar'),
      shape,
    );
  }
}
