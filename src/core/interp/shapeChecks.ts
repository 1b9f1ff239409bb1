/**
 * What a layer does to the tensor it is applied to, and the shape errors PyTorch would raise there:
 * `feature-mismatch`, `attention-embed-mismatch`, `sequential-mismatch`, a residual sum that does not
 * broadcast. Each finding names both sizes and points at the definitions.
 */
import type { Span } from '../ir/expr';
import { shapedAs, type Finding } from '../values/layer';
import type { FindingCode } from '../findings/codes';
import { groupDigits, type Poly } from '../values/symbolic';
import { einopsShape, rearrangedHeads } from '../shapes/einops';
import { fusedCore, joined, product, softmaxed } from '../shapes/trace';
import { dimText } from '../catalog/spec';
import {
  OPAQUE,
  SHAPE_PRESERVING,
  concatenate,
  features,
  headSplit,
  matmul,
  tensorMethod,
  untracked,
  withFeatures,
  type Tensor,
} from '../shapes/tensors';
import { unpackDims, viewFull, viewOverLead, type ViewProblem } from '../shapes/views';
import { UNKNOWN, type Core, type Value } from '../values/value';
import type { LineName } from '../ir/source';
import { broadcastMismatch, sequentialMismatch, sizeMismatch, viewMismatch } from '../findings/messages';

/**
 * Attention kernels of libraries, taking (query, key, value) as scaled_dot_product_attention does: xformers'
 * (`[B, M, H, K]`) and flash-attn's (`[B, S, H, D]`).
 */
const FUSED_ATTENTION = new Set([
  'xformers.ops.memory_efficient_attention',
  'xformers.ops.fmha.memory_efficient_attention',
  'flash_attn.flash_attn_func',
  'flash_attn.flash_attn_interface.flash_attn_func',
]);

export type LayerValue = Extract<Value, { t: 'layer' }>;

/** Layers that read and write the last axis, so the feature size can be followed through them. */
export const LAST_AXIS_KINDS = new Set([
  'Linear',
  'LayerNorm',
  'RMSNorm',
  'MultiheadAttention',
  'TransformerEncoderLayer',
  'TransformerDecoderLayer',
  'TransformerEncoder',
  'TransformerDecoder',
  'Transformer',
  'RNN',
  'GRU',
  'LSTM',
  'MultiHeadSelfAttention',
  'Block',
  'FullyConnected',
  'Conv1D',
]);

const RECURRENT_KINDS = new Set(['RNN', 'GRU', 'LSTM']);

/** torch.nn layers without parameters: they add nothing to a model's count. */
export const WEIGHTLESS = new Set([
  'Dropout',
  'Dropout1d',
  'Dropout2d',
  'Dropout3d',
  'AlphaDropout',
  'Identity',
  'ReLU',
  'ReLU6',
  'GELU',
  'SiLU',
  'Mish',
  'Tanh',
  'Sigmoid',
  'Softmax',
  'LogSoftmax',
  'LeakyReLU',
  'ELU',
  'SELU',
  'CELU',
  'Hardswish',
  'Hardsigmoid',
  'Softplus',
  'GLU',
  'Flatten',
  'Unflatten',
  'MaxPool1d',
  'MaxPool2d',
  'MaxPool3d',
  'AvgPool1d',
  'AvgPool2d',
  'AvgPool3d',
  'AdaptiveAvgPool1d',
  'AdaptiveAvgPool2d',
  'AdaptiveAvgPool3d',
  'AdaptiveMaxPool1d',
  'AdaptiveMaxPool2d',
  'Upsample',
  'PixelShuffle',
  'PixelUnshuffle',
  'ZeroPad2d',
  'ConstantPad1d',
  'ConstantPad2d',
  'ReflectionPad2d',
  'CrossEntropyLoss',
  'MSELoss',
  'L1Loss',
  'BCELoss',
  'BCEWithLogitsLoss',
  'NLLLoss',
  'CosineSimilarity',
  'PairwiseDistance',
  'Softmax2d',
  'Tanhshrink',
]);

/**
 * `rearrange(q, "b n (h d) -> b h n d", h=heads)` of a projection: the shape is not followed, the head split is.
 * Of a tensor of known shape and no projection behind it (a constructor's), `rearrange` and `repeat` give the
 * shape einops gives.
 */
function einops(positional: readonly Value[], keywords: ReadonlyMap<string, Value>, repeat: boolean): Value {
  const [t, pattern] = positional;
  if (t?.t !== 'tensor') return UNKNOWN;
  const known = !t.trace && !t.partial && t.shape.every((d) => d !== undefined);
  if (known && pattern?.t === 'str') {
    const shape = einopsShape(pattern.v, t.shape as Poly[], keywords, repeat);
    return shape ? { t: 'tensor', shape } : UNKNOWN;
  }
  if (repeat) return UNKNOWN;
  const source = t.trace?.source;
  const split =
    pattern?.t === 'str' && source?.layer && !t.trace?.core
      ? rearrangedHeads(pattern.v, keywords, source.width ?? features(t))
      : undefined;
  const trace = split ? { source: { ...source!, ...split } } : t.trace;
  return trace ? { ...OPAQUE, trace } : UNKNOWN;
}

/** `nn.Linear (line 14)`: a layer as messages name it. */
export function layerLabel(v: LayerValue, lineName: LineName): string {
  return `${v.layer.framework === 'pytorch' ? 'nn.' : ''}${v.layer.kind} (${lineName(v.span.startLine)})`;
}

/** What the checks tell the evaluator of attention written by hand: its core, then the layer applied to it. */
export interface AttentionEvents {
  core(core: Core): void;
  output(core: Core, layer: LayerValue): void;
}

/** What each framework does when a layer reads the wrong number of features (js-pytorch's matmul throws). */
const FEATURE_FAILURE: Record<string, string> = {
  pytorch: 'PyTorch raises a shape error at this call',
  'js-pytorch': 'js-pytorch throws "Cannot perform Matrix Multiplication: cannot broadcast" at this call',
  tfjs: 'TensorFlow.js throws at this call',
};

export class ShapeChecks {
  /** How many leading dimensions each forward() argument was unpacked into (`B, T, C = x.size()`: 2); -1 when two unpackings disagree. */
  private readonly leads = new Map<string, number>();

  constructor(
    private readonly report: (f: Finding) => void,
    private readonly attention: AttentionEvents,
    private readonly lineName: LineName,
  ) {}

  /** `layer(x)`: the layer's own checks, and the tensor it returns. */
  applyLayer(
    callee: LayerValue,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    span: Span,
  ): Value {
    const layer = callee.layer;
    const origin = { label: layerLabel(callee, this.lineName), span: callee.span };
    if (layer.framework === 'pytorch' && layer.kind === 'MultiheadAttention' && layer.attention) {
      const query = keywords.get('query') ?? positional[0];
      const key = keywords.get('key') ?? positional[1];
      const value = keywords.get('value') ?? positional[2];
      const a = layer.attention;
      this.checkSize(
        query,
        a.embed,
        span,
        callee,
        'attention-embed-mismatch',
        'the query',
        'embed_dim',
        (got) => `PyTorch raises "was expecting embedding dimension of ${a.embed}, but got ${got}"`,
      );
      this.checkSize(
        key,
        a.kdim,
        span,
        callee,
        'attention-embed-mismatch',
        'the key',
        a.kdim.equals(a.embed) ? 'embed_dim (kdim is not set)' : 'kdim',
        () => 'PyTorch fails projecting the keys',
      );
      this.checkSize(
        value,
        a.vdim,
        span,
        callee,
        'attention-embed-mismatch',
        'the value',
        a.vdim.equals(a.embed) ? 'embed_dim (vdim is not set)' : 'vdim',
        () => 'PyTorch fails projecting the values',
      );
      return {
        t: 'seq',
        items: [
          query?.t === 'tensor' ? withFeatures(query, a.embed, origin) : { ...OPAQUE, shape: [a.embed], origin },
          UNKNOWN,
        ],
        tuple: true,
      };
    }
    const input = positional[0];
    this.checkSize(
      input,
      layer.inFeatures,
      span,
      callee,
      'feature-mismatch',
      'its input',
      'input features',
      () => FEATURE_FAILURE[layer.framework],
    );
    this.outputOf(callee, input);
    if (!LAST_AXIS_KINDS.has(shapedAs(layer.kind))) return UNKNOWN;
    const out = this.projected(callee, input);
    return RECURRENT_KINDS.has(layer.kind) ? { t: 'seq', items: [out, UNKNOWN], tuple: true } : out;
  }

  /** An attention core reaching a layer: the layer is its output projection. */
  private outputOf(callee: LayerValue, input: Value | undefined): void {
    if (input?.t === 'tensor' && input.trace?.core?.v) this.attention.output(input.trace.core, callee);
  }

  /** A TF.js layer's output `out` for `input`, traced to the layer as a projection; an attention core reaching it ends there. */
  traced(callee: LayerValue, input: Value | undefined, out: Tensor): Tensor {
    this.outputOf(callee, input);
    return {
      ...out,
      trace: {
        source: {
          layer: callee,
          width: callee.layer.outFeatures,
          input: input?.t === 'tensor' ? input.trace?.source?.input : undefined,
        },
      },
    };
  }

  /** What `callee` makes of `input`: its features after the input's leading dimensions, traced to it as a projection. */
  private projected(callee: LayerValue, input: Value | undefined): Tensor {
    const layer = callee.layer;
    const origin = { label: layerLabel(callee, this.lineName), span: callee.span };
    const shaped =
      input?.t === 'tensor'
        ? withFeatures(input, layer.outFeatures, origin)
        : { ...OPAQUE, shape: [layer.outFeatures], origin };
    return {
      ...shaped,
      trace: {
        source: {
          layer: callee,
          width: layer.outFeatures,
          input: input?.t === 'tensor' ? input.trace?.source?.input : undefined,
        },
      },
    };
  }

  /** A new following of forward(): its arguments' ranks are not known yet. */
  forgetLeads(): void {
    this.leads.clear();
  }

  /** `B, T, C = x.size()`: the items, and the rank of `x` they fix. */
  unpacked(d: Extract<Value, { t: 'dims' }>, count: number): Value[] | undefined {
    const items = unpackDims(d, count);
    if (!items) return undefined;
    const leading = count - d.tail.length;
    const known = this.leads.get(d.lead);
    this.leads.set(d.lead, known === undefined || known === leading ? leading : -1);
    return items;
  }

  /** A tensor method; a view or reshape over the leading dimensions of a forward() argument is checked by element count. */
  tensorMethod(
    t: Tensor,
    method: string,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    span: Span,
  ): Value {
    if (method !== 'view' && method !== 'reshape') return tensorMethod(t, method, positional, keywords);
    const args = positional.length === 1 && positional[0].t === 'seq' ? positional[0].items : positional;
    const over = viewOverLead(t, args, t.lead ? this.leads.get(t.lead) : undefined) ?? viewFull(t, args);
    if (!over) return tensorMethod(t, method, positional, keywords);
    if (over.problem) this.viewMismatch(t, method, over.problem, span);
    return over.value.t === 'tensor' ? headSplit(t, over.value) : untracked(t);
  }

  private viewMismatch(t: Tensor, method: string, p: ViewProblem, span: Span): void {
    const has = groupDigits(p.has.constant!);
    const asked = p.dims.map((d) => (d?.constant === -1n ? '-1' : d ? dimText(d) : '?')).join(' × ');
    const from = t.origin ? ` from ${t.origin.label}` : '';
    this.report({
      code: 'view-mismatch',
      severity: 'error',
      span,
      fixes: [],
      message: viewMismatch({
        method,
        has,
        from,
        asked,
        product: p.dims.some((d) => d?.constant === -1n) ? undefined : groupDigits(p.asked.constant!),
      }),
      related: t.origin ? [{ span: t.origin.span, message: `${t.origin.label} gives ${has} features` }] : undefined,
    });
  }

  /** What `callee`'s own forward() returned for `input`, taken as the output of the layer it subclasses. */
  layerOutput(callee: LayerValue, input: Value | undefined, out: Value): Value {
    if (!LAST_AXIS_KINDS.has(shapedAs(callee.layer.kind))) return out;
    this.outputOf(callee, input);
    // The layer keeps the input's leading dimensions, whatever its own forward() did that this file cannot follow.
    return out.t === 'tensor' || out.t === 'unknown' ? this.projected(callee, input) : out;
  }

  /** `a @ b`, `torch.matmul`, a two-operand einsum: the product, and the attention core it may form. */
  product(a: Tensor, b: Tensor, shaped: Tensor, plain = false): Tensor {
    const trace = product(a, b, plain);
    if (trace?.core?.v) this.attention.core(trace.core);
    return { ...shaped, trace };
  }

  private checkSize(
    input: Value | undefined,
    expected: Poly | undefined,
    span: Span,
    layer: LayerValue,
    code: Extract<FindingCode, 'feature-mismatch' | 'attention-embed-mismatch'>,
    what: string,
    expectedName: string,
    consequence: (got: string) => string,
  ): void {
    if (input?.t !== 'tensor' || expected?.constant === undefined) return;
    const got = features(input)?.constant;
    if (got === undefined || got === expected.constant) return;
    const where = layerLabel(layer, this.lineName);
    const from = input.origin ? `, from ${input.origin.label}` : '';
    this.report({
      code,
      severity: 'error',
      span,
      fixes: [],
      message: sizeMismatch({
        code,
        layer: where,
        expected: groupDigits(expected.constant),
        what,
        expectedName,
        got: groupDigits(got),
        from,
        consequence: consequence(groupDigits(got)),
      }),
      related: [
        {
          span: layer.span,
          message: `${where} is defined here with ${groupDigits(expected.constant)} ${expectedName}`,
        },
        ...(input.origin
          ? [{ span: input.origin.span, message: `${groupDigits(got)} features come from ${input.origin.label}` }]
          : []),
      ],
    });
  }

  /** `x + y` of two tensors: the feature sizes must match (or one be 1). */
  broadcast(op: string, l: Tensor, r: Tensor, span: Span | undefined): Value {
    if (op === '@') return this.product(l, r, matmul(l, r), true);
    const a = features(l)?.constant;
    const b = features(r)?.constant;
    if (a !== undefined && b !== undefined && a !== b && a !== 1n && b !== 1n && span) {
      this.report({
        code: 'feature-mismatch',
        severity: 'error',
        span,
        fixes: [],
        message: broadcastMismatch({
          op,
          left: groupDigits(a),
          right: groupDigits(b),
          leftFrom: l.origin?.label,
          rightFrom: r.origin?.label,
        }),
        related: [l.origin, r.origin]
          .filter((o): o is NonNullable<typeof o> => o !== undefined)
          .map((o) => ({ span: o.span, message: `${o.label} produces this side` })),
      });
    }
    // A side of unknown size takes the other's: they must match for the sum to exist.
    const side = a === 1n || a === undefined ? r : l;
    return { ...side, trace: joined([l, r]) };
  }

  /**
   * A parameter added to a tensor (DETR's `tgt + query_pos` from an nn.Embedding's weight) must broadcast like
   * a tensor of its shape; the result keeps the tensor's shape, whose leading dimensions the parameter may not have.
   */
  withParameter(op: string, l: Value, r: Value, span: Span | undefined): void {
    const asTensor = (v: Value): Tensor | undefined =>
      v.t === 'param' ? { t: 'tensor', shape: v.ref.shape } : v.t === 'tensor' ? v : undefined;
    const [a, b] = [asTensor(l), asTensor(r)];
    if (a && b && (l.t === 'param') !== (r.t === 'param')) this.broadcast(op, a, b, span);
  }

  /** `torch.cat`, activations from torch and torch.nn.functional, and scaled dot-product attention. */
  tensorFunction(path: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value | undefined {
    const name = path.slice(path.lastIndexOf('.') + 1);
    const owner = path.slice(0, path.lastIndexOf('.'));
    if (path === 'einops.rearrange' || path === 'einops.repeat') return einops(positional, keywords, name === 'repeat');
    if (FUSED_ATTENTION.has(path)) {
      const [q, k, v] = positional;
      return this.fused(
        q ?? keywords.get('query') ?? keywords.get('q'),
        k ?? keywords.get('key') ?? keywords.get('k'),
        v ?? keywords.get('value') ?? keywords.get('v'),
      );
    }
    if (owner !== 'torch' && owner !== 'torch.nn.functional' && owner !== 'jspytorch.torch') return undefined;
    if (name === 'cat' || name === 'concat' || name === 'concatenate') {
      const items = positional[0];
      return items?.t === 'seq' ? concatenate(items.items, keywords.get('dim') ?? positional[1]) : UNKNOWN;
    }
    const [a, b] = positional;
    if (name === 'matmul' && a?.t === 'tensor' && b?.t === 'tensor') return this.product(a, b, matmul(a, b), true);
    if (name === 'einsum' && positional.length === 3 && b?.t === 'tensor' && positional[2].t === 'tensor')
      return this.product(b, positional[2], OPAQUE);
    if (name === 'scaled_dot_product_attention')
      return this.fused(keywords.get('query') ?? a, keywords.get('key') ?? b, keywords.get('value') ?? positional[2]);
    const input = positional[0];
    if (name === 'softmax' && input?.t === 'tensor') return softmaxed(input);
    if (SHAPE_PRESERVING.has(name) && input?.t === 'tensor') return input;
    return undefined;
  }

  /** Attention in one kernel over projected queries, keys and values: its output is shaped as the values. */
  private fused(q: Value | undefined, k: Value | undefined, value: Value | undefined): Value {
    const trace = fusedCore(q, k, value);
    if (trace?.core) this.attention.core(trace.core);
    return value?.t === 'tensor' ? { ...value, trace: trace ?? value.trace } : trace ? { ...OPAQUE, trace } : UNKNOWN;
  }

  /** A torch function this file does not follow, applied to a traced tensor: its result is still traced. */
  untracked(positional: readonly Value[]): Value | undefined {
    const t = positional.find((v): v is Tensor => v.t === 'tensor' && v.trace !== undefined);
    return t && untracked(t);
  }

  /** nn.Sequential: each layer must read the feature size the one before it produces. */
  checkChain(items: readonly Value[]): void {
    let previous: LayerValue | undefined;
    let size: Poly | undefined;
    for (const item of items) {
      const layer = item.t === 'layer' ? item : item.t === 'module' ? item.layer : undefined;
      if (layer) {
        const expected = layer.layer.inFeatures?.constant;
        const got = size?.constant;
        if (previous && expected !== undefined && got !== undefined && expected !== got) {
          const here = layerLabel(layer, this.lineName);
          const before = layerLabel(previous, this.lineName);
          this.report({
            code: 'sequential-mismatch',
            severity: 'error',
            span: layer.span,
            fixes: [],
            message: sequentialMismatch(here, groupDigits(expected), before, groupDigits(got)),
            related: [{ span: previous.span, message: `${before} produces ${groupDigits(got)} features` }],
          });
        }
        previous = layer;
        size = LAST_AXIS_KINDS.has(shapedAs(layer.layer.kind)) ? layer.layer.outFeatures : undefined;
      } else if (!(item.t === 'module' && WEIGHTLESS.has(item.tree.kind) && item.tree.kind !== 'Flatten')) {
        size = undefined;
      }
    }
  }
}
