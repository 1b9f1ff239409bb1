/**
 * One forward() of a model as the interpreter followed it, in train mode, as plain data: the operations on
 * tensors in the order they ran, with sizes that may hold the batch size and the sequence length as names.
 * Replaying it for given sizes (replay.ts) says which tensors autograd keeps for backward.
 */
import type { Span } from '../ir/expr';
import { Poly } from '../values/symbolic';

/** The names the batch size and the sequence length take while forward() is followed (no Python name looks like these). */
export const BATCH = '⟨batch⟩';
export const SEQUENCE = '⟨sequence⟩';
export const BATCH_DIM = Poly.symbol(BATCH);
export const SEQUENCE_DIM = Poly.symbol(SEQUENCE);

/** A size: a number, or a polynomial in the batch size and the sequence length; undefined where it depends on them in a way no polynomial says (`min(1024, T)`). */
export type Dim = Poly | undefined;

/** What a tensor holds: floating point (the model's dtype), indices, a mask, or something made before forward() whose type is not followed. */
export type Dtype = 'float' | 'long' | 'bool' | 'unknown';

/** An item of `x[...]`: an index, a slice, `None`, or a list of indices (advanced indexing). */
export type IndexItem =
  | { readonly k: 'int'; readonly i: Poly }
  | { readonly k: 'slice'; readonly start?: Dim; readonly stop?: Dim; readonly step?: Poly }
  | { readonly k: 'none' }
  | { readonly k: 'list'; readonly length: number };

/** An operand of an element-wise operation or a matrix product. */
export type Operand =
  | { readonly t: 'tensor'; readonly id: number }
  /** A Python number: autograd keeps it as a 0-dim float64 or int64 tensor of 8 bytes where it needs it. */
  | { readonly t: 'scalar' }
  /** A parameter of the model: its storage is the model's weights, never an activation. */
  | { readonly t: 'param'; readonly shape: readonly Poly[]; readonly grad: boolean };

/** Element-wise operations; `mask` is `tril`/`triu`, which keep nothing. */
export type Pointwise =
  'add' | 'sub' | 'mul' | 'div' | 'neg' | 'gelu' | 'silu' | 'relu' | 'tanh' | 'sigmoid' | 'compare' | 'mask';

/** Parameters of a layer: whether each trains. */
export interface Weights {
  readonly weight?: boolean;
  readonly bias?: boolean;
}

export type Op = { readonly layer: number } & (
  | { readonly k: 'input'; readonly out: number; readonly shape: readonly Poly[]; readonly dtype: 'long' | 'float' }
  /** A tensor forward() did not compute from its input: a buffer, `torch.arange(T)` (whose values stay below `upTo`); nothing in it trains. */
  | {
      readonly k: 'constant';
      readonly out: number;
      readonly shape: readonly Dim[];
      readonly dtype: Dtype;
      readonly upTo?: Dim;
    }
  /** `view` raises where the strides do not allow it; `reshape` copies there. */
  | {
      readonly k: 'view';
      readonly in: number;
      readonly out: number;
      readonly shape: readonly Dim[];
      readonly copies: boolean;
    }
  | { readonly k: 'transpose'; readonly in: number; readonly out: number; readonly a: number; readonly b: number }
  | { readonly k: 'permute'; readonly in: number; readonly out: number; readonly dims: readonly number[] }
  | { readonly k: 'unsqueeze'; readonly in: number; readonly out: number; readonly dim: number }
  /** `split(size, dim)`, or `chunk(n, dim)` (its size then rounds up). */
  | {
      readonly k: 'split';
      readonly in: number;
      readonly outs: readonly number[];
      readonly dim: number;
      readonly size?: Dim;
      readonly chunks?: number;
    }
  | { readonly k: 'unbind'; readonly in: number; readonly outs: readonly number[]; readonly dim: number }
  | { readonly k: 'index'; readonly in: number; readonly out: number; readonly items: readonly IndexItem[] }
  | { readonly k: 'contiguous'; readonly in: number; readonly out: number }
  | { readonly k: 'detach'; readonly in: number; readonly out: number }
  | { readonly k: 'pointwise'; readonly fn: Pointwise; readonly args: readonly Operand[]; readonly out: number }
  | { readonly k: 'softmax'; readonly in: number; readonly out: number }
  | { readonly k: 'dropout'; readonly in: number; readonly out: number; readonly p: number }
  | { readonly k: 'matmul'; readonly a: Operand; readonly b: Operand; readonly out: number }
  | {
      readonly k: 'linear';
      readonly in: number;
      readonly out: number;
      readonly shape: readonly Poly[];
      readonly bias: boolean;
      readonly grads: Weights;
    }
  /** `normalized` trailing dimensions are normalised. */
  | {
      readonly k: 'layerNorm';
      readonly in: number;
      readonly out: number;
      readonly normalized: number;
      readonly grads: Weights;
    }
  | {
      readonly k: 'embedding';
      readonly in: number;
      readonly out: number;
      readonly rows: Poly;
      readonly dim: Poly;
      readonly grads: Weights;
    }
  | { readonly k: 'maskedFill'; readonly in: number; readonly mask: number; readonly out: number }
  | { readonly k: 'cat'; readonly ins: readonly number[]; readonly dim: number; readonly out: number }
  /**
   * A loop over `times` alike blocks, its body recorded once: before each pass, each `slot` the body reads
   * holds `from` (the first pass) or `to` as the pass before left it.
   */
  | {
      readonly k: 'repeat';
      readonly times: number;
      readonly body: readonly Op[];
      readonly carried: readonly { readonly slot: number; readonly from: number; readonly to: number }[];
    }
  /** `sum` or `mean` over the dimensions given (all of them when `dims` is undefined). */
  | {
      readonly k: 'reduce';
      readonly fn: 'sum' | 'mean';
      readonly in: number;
      readonly out: number;
      readonly dims?: readonly number[];
      readonly keepdim: boolean;
    }
);

/** A part of the model that forward() calls, which the figures are broken down by. */
export interface LayerRef {
  /** As `named_modules()` names it; `{i}` for the copies of a repeated block (`transformer.h.{i}`). */
  readonly path: string;
  readonly kind: string;
  /** How many times forward() called it: 12 for the block of a 12-layer stack. */
  readonly calls: number;
  /** Where it is written in the file analysed (the layer's call, the module's class name), for a link to it. */
  readonly at?: Span;
}

export interface Program {
  readonly ops: readonly Op[];
  readonly layers: readonly LayerRef[];
  /** What forward() was given: token indices (batch × sequence) or features (batch × sequence × width). */
  readonly input: { readonly kind: 'tokens' } | { readonly kind: 'features'; readonly width: bigint };
}

/** The program of a model's forward(), or why it could not be followed. */
export type Activations = { readonly program: Program } | { readonly unknown: string };
