/**
 * What a layer does to the tensor it is applied to, and the shape errors PyTorch would raise there:
 * `feature-mismatch`, `attention-embed-mismatch`, `sequential-mismatch`, a residual sum that does not
 * broadcast. Each finding names both sizes and points at the definitions.
 */
import type { Span } from '../expr';
import type { Finding } from '../layer';
import { groupDigits, type Poly } from '../symbolic';
import { OPAQUE, SHAPE_PRESERVING, concatenate, features, matmul, withFeatures, type Tensor } from '../tensors';
import { UNKNOWN, type Value } from '../value';

export type LayerValue = Extract<Value, { t: 'layer' }>;

/** Layers that read and write the last axis, so the feature size can be followed through them. */
export const LAST_AXIS_KINDS = new Set([
  'Linear', 'LayerNorm', 'RMSNorm', 'MultiheadAttention', 'TransformerEncoderLayer', 'TransformerDecoderLayer',
  'TransformerEncoder', 'TransformerDecoder', 'Transformer', 'RNN', 'GRU', 'LSTM', 'MultiHeadSelfAttention', 'Block', 'FullyConnected',
]);

const RECURRENT_KINDS = new Set(['RNN', 'GRU', 'LSTM']);

/** torch.nn layers without parameters: they add nothing to a model's count. */
export const WEIGHTLESS = new Set([
  'Dropout', 'Dropout1d', 'Dropout2d', 'Dropout3d', 'AlphaDropout', 'Identity', 'ReLU', 'ReLU6', 'GELU', 'SiLU', 'Mish',
  'Tanh', 'Sigmoid', 'Softmax', 'LogSoftmax', 'LeakyReLU', 'ELU', 'SELU', 'CELU', 'Hardswish', 'Hardsigmoid', 'Softplus',
  'GLU', 'Flatten', 'Unflatten', 'MaxPool1d', 'MaxPool2d', 'MaxPool3d', 'AvgPool1d', 'AvgPool2d', 'AvgPool3d',
  'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'Upsample',
  'PixelShuffle', 'PixelUnshuffle', 'ZeroPad2d', 'ConstantPad1d', 'ConstantPad2d', 'ReflectionPad2d', 'CrossEntropyLoss',
  'MSELoss', 'L1Loss', 'BCELoss', 'BCEWithLogitsLoss', 'NLLLoss', 'CosineSimilarity', 'PairwiseDistance', 'Softmax2d', 'Tanhshrink',
]);

/** `nn.Linear (line 14)`: a layer as messages name it. */
export function layerLabel(v: LayerValue): string {
  return `${v.layer.framework === 'pytorch' ? 'nn.' : ''}${v.layer.kind} (line ${v.span.startLine + 1})`;
}

/** What each framework does when a layer reads the wrong number of features (js-pytorch's matmul throws). */
const FEATURE_FAILURE: Record<string, string> = {
  pytorch: 'PyTorch raises a shape error at this call',
  'js-pytorch': 'js-pytorch throws "Cannot perform Matrix Multiplication: cannot broadcast" at this call',
  tfjs: 'TensorFlow.js throws at this call',
};

export class ShapeChecks {
  constructor(private readonly report: (f: Finding) => void) {}

  /** `layer(x)`: the layer's own checks, and the tensor it returns. */
  applyLayer(callee: LayerValue, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, span: Span): Value {
    const layer = callee.layer;
    const origin = { label: layerLabel(callee), span: callee.span };
    if (layer.framework === 'pytorch' && layer.kind === 'MultiheadAttention' && layer.attention) {
      const query = keywords.get('query') ?? positional[0];
      const key = keywords.get('key') ?? positional[1];
      const value = keywords.get('value') ?? positional[2];
      const a = layer.attention;
      this.checkSize(query, a.embed, span, callee, 'attention-embed-mismatch', 'the query', 'embed_dim', (got) => `PyTorch raises "was expecting embedding dimension of ${a.embed}, but got ${got}"`);
      this.checkSize(key, a.kdim, span, callee, 'attention-embed-mismatch', 'the key', a.kdim.equals(a.embed) ? 'embed_dim (kdim is not set)' : 'kdim', () => 'PyTorch fails projecting the keys');
      this.checkSize(value, a.vdim, span, callee, 'attention-embed-mismatch', 'the value', a.vdim.equals(a.embed) ? 'embed_dim (vdim is not set)' : 'vdim', () => 'PyTorch fails projecting the values');
      return { t: 'seq', items: [query?.t === 'tensor' ? withFeatures(query, a.embed, origin) : { ...OPAQUE, shape: [a.embed], origin }, UNKNOWN], tuple: true };
    }
    const input = positional[0];
    this.checkSize(input, layer.inFeatures, span, callee, 'feature-mismatch', 'its input', 'input features', () => FEATURE_FAILURE[layer.framework]);
    if (!LAST_AXIS_KINDS.has(layer.kind)) return UNKNOWN;
    const out = input?.t === 'tensor' ? withFeatures(input, layer.outFeatures, origin) : { ...OPAQUE, shape: [layer.outFeatures], origin };
    return RECURRENT_KINDS.has(layer.kind) ? { t: 'seq', items: [out, UNKNOWN], tuple: true } : out;
  }

  private checkSize(input: Value | undefined, expected: Poly | undefined, span: Span, layer: LayerValue, code: string, what: string, expectedName: string, consequence: (got: string) => string): void {
    if (input?.t !== 'tensor' || expected?.constant === undefined) return;
    const got = features(input)?.constant;
    if (got === undefined || got === expected.constant) return;
    const where = layerLabel(layer);
    const from = input.origin ? `, from ${input.origin.label}` : '';
    this.report({
      code,
      severity: 'error',
      span,
      fixes: [],
      message: `${where} expects ${groupDigits(expected.constant)} ${code === 'feature-mismatch' ? 'input features' : `features in ${what} (${expectedName})`}, but ${what} has ${groupDigits(got)}${from}: ${consequence(groupDigits(got))}.`,
      related: [
        { span: layer.span, message: `${where} is defined here with ${groupDigits(expected.constant)} ${expectedName}` },
        ...(input.origin ? [{ span: input.origin.span, message: `${groupDigits(got)} features come from ${input.origin.label}` }] : []),
      ],
    });
  }

  /** `x + y` of two tensors: the feature sizes must match (or one be 1). */
  broadcast(op: string, l: Tensor, r: Tensor, span: Span | undefined): Value {
    if (op === '@') return matmul(l, r);
    const a = features(l)?.constant;
    const b = features(r)?.constant;
    if (a !== undefined && b !== undefined && a !== b && a !== 1n && b !== 1n && span) {
      this.report({
        code: 'feature-mismatch',
        severity: 'error',
        span,
        fixes: [],
        message: `The two sides of ${op} have ${groupDigits(a)} and ${groupDigits(b)} features${l.origin ? ` (left from ${l.origin.label}` : ''}${r.origin ? `${l.origin ? ', ' : ' ('}right from ${r.origin.label}` : ''}${l.origin || r.origin ? ')' : ''}: they do not broadcast, and PyTorch raises a size mismatch.`,
        related: [l.origin, r.origin].filter((o): o is NonNullable<typeof o> => o !== undefined).map((o) => ({ span: o.span, message: `${o.label} produces this side` })),
      });
    }
    // A side of unknown size takes the other's: they must match for the sum to exist.
    return a === 1n || a === undefined ? r : l;
  }

  /** `torch.cat`, activations from torch and torch.nn.functional, and scaled dot-product attention. */
  tensorFunction(path: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value | undefined {
    const name = path.slice(path.lastIndexOf('.') + 1);
    const owner = path.slice(0, path.lastIndexOf('.'));
    if (owner !== 'torch' && owner !== 'torch.nn.functional') return undefined;
    if (name === 'cat' || name === 'concat' || name === 'concatenate') {
      const items = positional[0];
      return items?.t === 'seq' ? concatenate(items.items, keywords.get('dim') ?? positional[1]) : UNKNOWN;
    }
    if (name === 'matmul' && positional[0]?.t === 'tensor' && positional[1]?.t === 'tensor') return matmul(positional[0], positional[1]);
    if (name === 'scaled_dot_product_attention') {
      const value = keywords.get('value') ?? positional[2];
      return value?.t === 'tensor' ? value : UNKNOWN;
    }
    const input = positional[0];
    if (SHAPE_PRESERVING.has(name) && input?.t === 'tensor') return input;
    return undefined;
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
          const here = layerLabel(layer);
          const before = layerLabel(previous);
          this.report({
            code: 'sequential-mismatch',
            severity: 'error',
            span: layer.span,
            fixes: [],
            message: `In this nn.Sequential, ${here} expects ${groupDigits(expected)} input features, but ${before} before it produces ${groupDigits(got)}: PyTorch raises a shape error on the first forward call.`,
            related: [{ span: previous.span, message: `${before} produces ${groupDigits(got)} features` }],
          });
        }
        previous = layer;
        size = LAST_AXIS_KINDS.has(layer.layer.kind) ? layer.layer.outFeatures : undefined;
      } else if (!(item.t === 'module' && WEIGHTLESS.has(item.tree.kind) && item.tree.kind !== 'Flatten')) {
        size = undefined;
      }
    }
  }
}
