/** A layer as the framework would build it: its parameter tensors, facts for the hover, and findings. */
import type { Span } from '../ir/expr';
import type { FindingCode } from '../findings/codes';
import { Poly } from './symbolic';

export type Framework = 'pytorch' | 'tfjs' | 'js-pytorch';

export interface Tensor {
  /** The name the framework gives it (`in_proj_weight`, `self_attn.out_proj.bias`, `kernel`). */
  readonly name: string;
  readonly shape: readonly Poly[];
  /** Stacked copies (`layers.0..5` of a TransformerEncoder), so a symbolic layer count still has a formula. */
  readonly repeat?: Poly;
  /** Its part in attention written by hand (`W_Q`, `W_K, W_V stacked`), where the code shows it. */
  readonly role?: string;
}

export type Severity = 'error' | 'warning' | 'info';

export interface TextEdit {
  readonly span: Span;
  readonly text: string;
}

export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

export interface Related {
  readonly span: Span;
  readonly message: string;
}

export interface Finding {
  /** Stable code shown in the Problems panel and the CLI: `heads-divisibility`, `negative-size`, ... */
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly message: string;
  readonly span: Span;
  readonly fixes: readonly Fix[];
  /** Where the sizes involved were defined. */
  readonly related?: readonly Related[];
}

export interface AttentionShape {
  /** The query's feature size (E in PyTorch). */
  readonly embed: Poly;
  readonly heads: Poly;
  /** d_k when it divides exactly. */
  readonly headDim?: Poly;
  /** The key's and the value's input feature sizes. */
  readonly kdim: Poly;
  readonly vdim: Poly;
  /**
   * How the computation is laid out: PyTorch splits E into heads, Keras gives each head keyDim, and attention
   * written by hand (`module`) has projections of h · d_k (and kv heads · d_k for grouped-query attention).
   */
  readonly layout: 'pytorch' | 'keras' | 'js-pytorch' | 'module';
  /** Key/value heads, when fewer than the query heads (grouped-query and multi-query attention). */
  readonly kvHeads?: Poly;
  /** Keys and values from another input than the queries (written by hand, where the code shows it). */
  readonly cross?: boolean;
  /**
   * How many attentions of this shape the layer computes: a TransformerEncoder's num_layers, a decoder layer's
   * self- and cross-attention; 1 when left out. With `withCross`, some of them attend over another input.
   */
  readonly count?: Poly;
  readonly withCross?: boolean;
  /** Per-head value size when it differs from d_k (Keras valueDim). */
  readonly valueHeadDim?: Poly;
  /** The output's trailing dimensions (Keras outputShape; E otherwise). */
  readonly output?: readonly Poly[];
  readonly bias: boolean;
  readonly addBiasKv?: boolean;
  readonly batchFirst?: boolean;
  readonly dropout?: boolean;
  /** nn.MultiheadAttention's dropout probability, where it is a known number. */
  readonly dropoutRate?: number;
  /** The layer's settings as the panel lists them: [name, value as written or evaluated]. */
  readonly settings: readonly (readonly [string, string])[];
}

/** A quantised weight as a layer stores it once moved to a device: its bytes and its scales' (bitsandbytes). */
export interface StoredWeight {
  readonly format: string;
  readonly weightBytes: bigint;
  readonly scaleBytes: bigint;
}

export interface LayerInstance {
  readonly kind: string;
  readonly framework: Framework;
  readonly tensors: readonly Tensor[];
  /** Undefined when the framework decides the sizes later (LazyLinear) or a part is unknown. */
  readonly params?: Poly;
  /** The layer's generic formula (`4·E² + 4·E`), with the layer's own symbols. */
  readonly formula: string;
  /** The tail of the CodeLens: `8 heads × 64`, `512 → 512`. */
  readonly summary: string;
  /** Hover lines that teach what the numbers mean. */
  readonly notes: readonly string[];
  /** Set when the framework would raise building it: the error's message. */
  readonly rejected?: string;
  /** Why the count is not a number, when it is not. */
  readonly unknownReason?: string;
  readonly attention?: AttentionShape;
  /** An attention class built with different heads: each build, whose figures its own `attention` leaves out. */
  readonly builds?: readonly LayerInstance[];
  /** The feature size the layer produces, for layers fed by this one. */
  readonly outFeatures?: Poly;
  /** The feature size it reads from the last axis of its input. */
  readonly inFeatures?: Poly;
  /** The trailing dimensions it produces in place of the input's last one (TF.js outputShape [4, 8]). */
  readonly outTail?: readonly Poly[];
  /** Embeddings add a feature axis instead of replacing the last one. */
  readonly appendsAxis?: boolean;
  /** The input shape its config declares (TF.js `inputShape`), batch first. */
  readonly inputShape?: readonly (Poly | undefined)[];
  /** The shape it produces from a whole input shape, where the framework decides it from more than the last axis. */
  readonly output?: OutputRule;
  /**
   * Attributes PyTorch keeps as the constructor was given them (`self.out_channels` of a subclass of
   * nn.Conv2d, timm's ScaledStdConv2d sizing its gain by it), by name.
   */
  readonly attributes?: ReadonlyMap<string, Poly | number>;
  /** How a quantised layer stores its weight on a device, where its sizes are known. */
  readonly stored?: StoredWeight;
}

type Dims = readonly (Poly | undefined)[];

/**
 * How a TF.js layer shapes its whole input (batch first), as data: shapes/outputRules.ts applies it.
 * `last`: the last axis becomes `sizes` (a dense layer's units, attention's output shape); `append`: an axis
 * is added (an embedding's); `windows`: windows slide over the spatial axes (convolution, pooling), the
 * channel axis becoming `channels` or, without it, staying; `global`: the spatial axes pooled away;
 * `reshape`: to `target` (one -1 inferred), unknown without one; `recurrent`: the last step or every step;
 * `bidirectional` and `perStep` wrap the rule of the layer they wrap.
 */
export type OutputRule =
  | { readonly k: 'same' | 'flatten' | 'dot' }
  | { readonly k: 'last'; readonly sizes: Dims }
  | { readonly k: 'append'; readonly size: Poly }
  | {
      readonly k: 'windows';
      readonly rank: number;
      readonly channelsFirst: boolean;
      readonly window: Dims;
      readonly strides: Dims;
      readonly dilation: Dims;
      readonly padding: string;
      readonly channels?: Poly;
    }
  | { readonly k: 'global'; readonly channelsFirst: boolean }
  | { readonly k: 'reshape'; readonly target?: Dims }
  | { readonly k: 'recurrent'; readonly units: Poly; readonly sequences: boolean }
  | { readonly k: 'bidirectional'; readonly inner?: OutputRule; readonly concat: boolean }
  | { readonly k: 'perStep'; readonly inner?: OutputRule };

export function tensorSize(t: Tensor): Poly {
  const one = t.shape.reduce((acc, d) => acc.mul(d), Poly.ONE);
  return t.repeat ? one.mul(t.repeat) : one;
}

export function totalParams(tensors: readonly Tensor[]): Poly {
  return tensors.reduce((acc, t) => acc.add(tensorSize(t)), Poly.ZERO);
}

/** Prefixes a child's tensors with its attribute name, as `named_parameters()` does. */
export function childTensors(prefix: string, tensors: readonly Tensor[], repeat?: Poly): Tensor[] {
  return tensors.map((t) => ({
    name: `${prefix}.${t.name}`,
    shape: t.shape,
    repeat: repeat ? (t.repeat ? t.repeat.mul(repeat) : repeat) : t.repeat,
  }));
}

/**
 * The torch.nn layer a library's layer computes as, which its shapes, activations and FLOPs follow: fairscale's
 * model-parallel linear layers and embeddings, as one process holds them. A torch.nn layer is itself.
 */
export function computesAs(kind: string): string {
  return COMPUTES_AS[kind] ?? kind;
}

const COMPUTES_AS: Readonly<Record<string, string>> = {
  ColumnParallelLinear: 'Linear',
  RowParallelLinear: 'Linear',
  ParallelEmbedding: 'Embedding',
  VocabParallelEmbedding: 'Embedding',
};

/**
 * The torch.nn layer whose output shape and products a library's layer has, though its backward keeps tensors
 * of its own (bitsandbytes' quantised linear layers, apex's fused norms, which may keep their output instead
 * of their input; Transformer Engine's norms): shapes and FLOPs follow it, activations do not.
 */
export function shapedAs(kind: string): string {
  return SHAPED_AS[kind] ?? computesAs(kind);
}

const SHAPED_AS: Readonly<Record<string, string>> = {
  Linear8bitLt: 'Linear',
  Linear4bit: 'Linear',
  LinearNF4: 'Linear',
  LinearFP4: 'Linear',
  'tensor_parallel.VocabParallelEmbedding': 'Embedding',
  FusedLayerNorm: 'LayerNorm',
  MixedFusedLayerNorm: 'LayerNorm',
  FusedRMSNorm: 'RMSNorm',
  MixedFusedRMSNorm: 'RMSNorm',
  'te.LayerNorm': 'LayerNorm',
  'te.RMSNorm': 'RMSNorm',
};
