/**
 * PyTorch layers, as torch.nn builds them: the tensors `named_parameters()` yields, in its order, and the
 * checks the constructors make. Checked against PyTorch itself by scripts/ground-truth/pytorch_catalog.py.
 */
import type { Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { NONE, int, type Value } from '../values/value';
import { dimText, type LayerSpec, type Problem } from './spec';
import { MULTIHEAD_ATTENTION } from './pytorchAttention';
import { divisorFixes } from './sizeFixes';
import {
  DEVICE_DTYPE,
  EMBEDDING_OPTIONS,
  embeddingSpec,
  FALSE,
  TRUE,
  layerNormTensors,
  linearTensors,
  normalizedShape,
  seqDim,
} from './pytorchTensors';
import { TRANSFORMER, TRANSFORMER_DECODER_LAYER, TRANSFORMER_ENCODER_LAYER, stack } from './pytorchTransformer';
import { groupsDivisibility } from '../findings/messages';

const LINEAR: LayerSpec = {
  kind: 'Linear',
  framework: 'pytorch',
  signature: [
    { name: 'in_features', size: 'in' },
    { name: 'out_features', size: 'out' },
    { name: 'bias', default: TRUE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const inF = a.dim('in_features');
    const outF = a.dim('out_features');
    return {
      tensors: linearTensors(inF, outF, a.flag('bias', true)),
      summary: `${dimText(inF)} → ${dimText(outF)}`,
      notes: [
        'y = x·Wᵀ + b with W [out_features, in_features]' + (a.flag('bias', true) ? '.' : ' and no b (bias=False).'),
      ],
      outFeatures: outF,
      inFeatures: inF,
    };
  },
};

const BILINEAR: LayerSpec = {
  kind: 'Bilinear',
  framework: 'pytorch',
  signature: [
    { name: 'in1_features', size: 'in1' },
    { name: 'in2_features', size: 'in2' },
    { name: 'out_features', size: 'out' },
    { name: 'bias', default: TRUE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const in1 = a.dim('in1_features');
    const in2 = a.dim('in2_features');
    const out = a.dim('out_features');
    const tensors: Tensor[] = [{ name: 'weight', shape: [out, in1, in2] }];
    if (a.flag('bias', true)) tensors.push({ name: 'bias', shape: [out] });
    return {
      tensors,
      summary: `(${dimText(in1)}, ${dimText(in2)}) → ${dimText(out)}`,
      notes: ['y = x₁ᵀ·A·x₂ + b with A [out_features, in1_features, in2_features].'],
      outFeatures: out,
    };
  },
};

const LAZY_LINEAR: LayerSpec = {
  kind: 'LazyLinear',
  framework: 'pytorch',
  signature: [{ name: 'out_features', size: 'out' }, { name: 'bias', default: TRUE }, ...DEVICE_DTYPE],
  build(a) {
    const outF = a.dim('out_features');
    return {
      tensors: linearTensors(Poly.symbol('in_features'), outF, a.flag('bias', true)),
      summary: `lazy → ${dimText(outF)}`,
      unknownReason:
        'LazyLinear infers in_features from its first input: the count is known only after the first forward call.',
      outFeatures: outF,
    };
  },
};

const LAYER_NORM: LayerSpec = {
  kind: 'LayerNorm',
  framework: 'pytorch',
  signature: [
    { name: 'normalized_shape', size: 'D' },
    { name: 'eps', default: { t: 'float', v: 1e-5 } },
    { name: 'elementwise_affine', default: TRUE },
    { name: 'bias', default: TRUE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const shape = normalizedShape(a);
    return {
      tensors: layerNormTensors(shape, a.flag('elementwise_affine', true), a.flag('bias', true)),
      summary: `over [${shape.map(dimText).join(', ')}]`,
      outFeatures: shape[shape.length - 1],
      inFeatures: shape[shape.length - 1],
    };
  },
};

/** Conv1d/2d/3d and their transposes: weight [out, in / groups, *kernel] ([in, out / groups, ...] transposed). */
function conv(kind: string, dims: number, transposed: boolean): LayerSpec {
  return {
    kind,
    framework: 'pytorch',
    signature: [
      { name: 'in_channels', size: 'C_in' },
      { name: 'out_channels', size: 'C_out' },
      { name: 'kernel_size' },
      { name: 'stride', default: int(1) },
      { name: 'padding', default: int(0) },
      ...(transposed ? [{ name: 'output_padding', default: int(0) }] : [{ name: 'dilation', default: int(1) }]),
      { name: 'groups', default: int(1) },
      { name: 'bias', default: TRUE },
      ...(transposed ? [{ name: 'dilation', default: int(1) }] : []),
      { name: 'padding_mode', default: { t: 'str', v: 'zeros' } },
      ...DEVICE_DTYPE,
    ],
    build(a) {
      const cin = a.dim('in_channels');
      const cout = a.dim('out_channels');
      const g = a.dim('groups');
      const k = a.value('kernel_size');
      const kernel =
        k.t === 'seq'
          ? k.items.map((_, i) => seqDim(a, 'kernel_size', i))
          : Array.from({ length: dims }, () => a.dim('kernel_size'));
      const [first, second] = transposed ? [cin, cout] : [cout, cin];
      // Channels per group: exact when the groups are known; otherwise one name for the quotient, never the
      // ungrouped width (a depthwise conv with groups=dim has dim times fewer weights).
      const perGroup =
        g.constant === 1n
          ? second
          : g.constant
            ? (second.divExact(g.constant) ?? Poly.symbol(`${transposed ? 'C_out' : 'C_in'}/groups`))
            : Poly.symbol(`(${second.size > 1 ? `(${second})` : second} / ${g.size > 1 ? `(${g})` : g})`);
      const tensors: Tensor[] = [{ name: 'weight', shape: [first, perGroup, ...kernel] }];
      if (a.flag('bias', true)) tensors.push({ name: 'bias', shape: [cout] });
      return {
        tensors,
        summary: `${dimText(cin)} → ${dimText(cout)} · kernel ${kernel.map(dimText).join('×')}`,
        outFeatures: cout,
      };
    },
  };
}

const EMBEDDING = embeddingSpec('Embedding', [
  ...EMBEDDING_OPTIONS,
  { name: '_weight', default: NONE },
  { name: '_freeze', default: FALSE },
  ...DEVICE_DTYPE,
]);

const EMBEDDING_BAG: LayerSpec = {
  kind: 'EmbeddingBag',
  framework: 'pytorch',
  signature: [
    { name: 'num_embeddings', size: 'V' },
    { name: 'embedding_dim', size: 'D' },
    { name: 'max_norm', default: NONE },
    { name: 'norm_type', default: { t: 'float', v: 2 } },
    { name: 'scale_grad_by_freq', default: FALSE },
    { name: 'mode', default: { t: 'str', v: 'mean' } },
    { name: 'sparse', default: FALSE },
    { name: '_weight', default: NONE },
    { name: 'include_last_offset', default: FALSE },
    { name: 'padding_idx', default: NONE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const V = a.dim('num_embeddings');
    const D = a.dim('embedding_dim');
    return { tensors: [{ name: 'weight', shape: [V, D] }], summary: `${dimText(V)} × ${dimText(D)}`, outFeatures: D };
  },
};

/** BatchNorm, InstanceNorm, GroupNorm: an affine weight and bias per channel; running statistics are buffers. */
function channelNorm(kind: string, affineDefault: boolean, groups: boolean): LayerSpec {
  const channels = groups ? 'num_channels' : 'num_features';
  return {
    kind,
    framework: 'pytorch',
    signature: [
      ...(groups ? [{ name: 'num_groups', size: 'G' }] : []),
      { name: channels, size: 'C' },
      { name: 'eps', default: { t: 'float', v: 1e-5 } },
      ...(groups ? [] : [{ name: 'momentum', default: { t: 'float', v: 0.1 } as Value }]),
      { name: 'affine', default: affineDefault ? TRUE : FALSE },
      ...(groups ? [] : [{ name: 'track_running_stats', default: affineDefault ? TRUE : FALSE }]),
      ...DEVICE_DTYPE,
    ],
    build(a) {
      const C = a.dim(channels);
      const affine = a.flag('affine', affineDefault);
      const problems: Problem[] = [];
      const g = groups ? a.dim('num_groups').constant : undefined;
      if (g !== undefined && g > 0n && C.constant !== undefined && C.constant % g !== 0n) {
        const channels = C.constant;
        problems.push({
          code: 'groups-divisibility',
          severity: 'error',
          arg: 'num_groups',
          message: groupsDivisibility(channels, g),
          fixes: (args) =>
            divisorFixes(
              channels,
              g,
              args.expr('num_groups'),
              (d) => `Use ${d} groups (${channels} / ${d} = ${channels / d} channels each)`,
            ),
        });
      }
      return {
        tensors: affine
          ? [
              { name: 'weight', shape: [C] },
              { name: 'bias', shape: [C] },
            ]
          : [],
        summary: `${dimText(C)} channels${affine ? '' : ', no affine parameters'}`,
        notes: groups
          ? []
          : [
              'running_mean and running_var are buffers, not parameters: they are saved with the model but not trained.',
            ],
        problems,
        outFeatures: C,
      };
    },
  };
}

const PRELU: LayerSpec = {
  kind: 'PReLU',
  framework: 'pytorch',
  signature: [
    { name: 'num_parameters', default: int(1), size: 'n' },
    { name: 'init', default: { t: 'float', v: 0.25 } },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const n = a.dim('num_parameters');
    return {
      tensors: [{ name: 'weight', shape: [n] }],
      summary: `${dimText(n)} learned slope${n.constant === 1n ? '' : 's'}`,
    };
  },
};

const RMS_NORM: LayerSpec = {
  kind: 'RMSNorm',
  framework: 'pytorch',
  signature: [
    { name: 'normalized_shape', size: 'D' },
    { name: 'eps', default: NONE },
    { name: 'elementwise_affine', default: TRUE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const shape = normalizedShape(a);
    return {
      tensors: a.flag('elementwise_affine', true) ? [{ name: 'weight', shape }] : [],
      summary: `over [${shape.map(dimText).join(', ')}]`,
      notes: ['RMSNorm scales by the root mean square: a weight and no bias.'],
      outFeatures: shape[shape.length - 1],
      inFeatures: shape[shape.length - 1],
    };
  },
};

/**
 * RNN, GRU, LSTM: per layer and direction, weight_ih [g·H, in], weight_hh [g·H, H'], biases [g·H], and for
 * an LSTM with proj_size P a weight_hr [P, H]; H' and the next layer's input use P when it is set.
 */
function recurrent(kind: 'RNN' | 'GRU' | 'LSTM', gates: bigint): LayerSpec {
  return {
    kind,
    framework: 'pytorch',
    signature: [
      { name: 'input_size', size: 'in' },
      { name: 'hidden_size', size: 'H' },
      { name: 'num_layers', default: int(1), size: 'L' },
      ...(kind === 'RNN' ? [{ name: 'nonlinearity', default: { t: 'str', v: 'tanh' } as Value }] : []),
      { name: 'bias', default: TRUE },
      { name: 'batch_first', default: FALSE },
      { name: 'dropout', default: { t: 'float', v: 0 } },
      { name: 'bidirectional', default: FALSE },
      ...(kind === 'LSTM' ? [{ name: 'proj_size', default: int(0), size: 'P' }] : []),
      ...DEVICE_DTYPE,
    ],
    build(a) {
      const inF = a.dim('input_size');
      const H = a.dim('hidden_size');
      const L = a.dim('num_layers');
      const bias = a.flag('bias', true);
      const directions = a.flag('bidirectional', false) ? ['', '_reverse'] : [''];
      const P = kind === 'LSTM' ? a.dim('proj_size') : Poly.ZERO;
      const projected = P.constant !== 0n;
      const out = projected ? P : H;
      const gH = H.mul(Poly.int(gates));
      const layer = (l: string, input: Poly, repeat?: Poly): Tensor[] =>
        directions.flatMap((d) => [
          { name: `weight_ih_l${l}${d}`, shape: [gH, input], repeat },
          { name: `weight_hh_l${l}${d}`, shape: [gH, out], repeat },
          ...(bias
            ? [
                { name: `bias_ih_l${l}${d}`, shape: [gH], repeat },
                { name: `bias_hh_l${l}${d}`, shape: [gH], repeat },
              ]
            : []),
          ...(projected ? [{ name: `weight_hr_l${l}${d}`, shape: [P, H], repeat }] : []),
        ]);
      const deeper = out.mul(Poly.int(directions.length));
      const count = L.constant;
      const tensors =
        count !== undefined && count <= 64n
          ? Array.from({ length: Number(count) }, (_, i) => layer(String(i), i === 0 ? inF : deeper)).flat()
          : [...layer('0', inF), ...layer('{i}', deeper, L.sub(Poly.ONE))];
      return {
        tensors,
        summary: `${dimText(inF)} → ${dimText(H)}${directions.length === 2 ? ' × 2 directions' : ''} · ${dimText(L)} layer${L.constant === 1n ? '' : 's'}`,
        notes: [
          `${kind === 'LSTM' ? 'Four gates (input, forget, cell, output)' : kind === 'GRU' ? 'Three gates (reset, update, new)' : 'One transform'} per step: weights are ${gates} × hidden_size tall.`,
          ...(projected
            ? [
                'proj_size projects the hidden state: weight_hr maps hidden_size to proj_size, and the next layer reads proj_size features.',
              ]
            : []),
        ],
        outFeatures: deeper,
        inFeatures: inF,
      };
    },
  };
}

export const PYTORCH_LAYERS: ReadonlyMap<string, LayerSpec> = new Map([
  ['torch.nn.MultiheadAttention', MULTIHEAD_ATTENTION],
  ['torch.nn.Linear', LINEAR],
  ['torch.nn.Bilinear', BILINEAR],
  ['torch.nn.LazyLinear', LAZY_LINEAR],
  ['torch.nn.LayerNorm', LAYER_NORM],
  ['torch.nn.Embedding', EMBEDDING],
  ['torch.nn.EmbeddingBag', EMBEDDING_BAG],
  ['torch.nn.RMSNorm', RMS_NORM],
  ['torch.nn.GroupNorm', channelNorm('GroupNorm', true, true)],
  ['torch.nn.BatchNorm1d', channelNorm('BatchNorm1d', true, false)],
  ['torch.nn.BatchNorm2d', channelNorm('BatchNorm2d', true, false)],
  ['torch.nn.BatchNorm3d', channelNorm('BatchNorm3d', true, false)],
  ['torch.nn.InstanceNorm1d', channelNorm('InstanceNorm1d', false, false)],
  ['torch.nn.InstanceNorm2d', channelNorm('InstanceNorm2d', false, false)],
  ['torch.nn.InstanceNorm3d', channelNorm('InstanceNorm3d', false, false)],
  ['torch.nn.PReLU', PRELU],
  ['torch.nn.RNN', recurrent('RNN', 1n)],
  ['torch.nn.GRU', recurrent('GRU', 3n)],
  ['torch.nn.LSTM', recurrent('LSTM', 4n)],
  ['torch.nn.Conv1d', conv('Conv1d', 1, false)],
  ['torch.nn.Conv2d', conv('Conv2d', 2, false)],
  ['torch.nn.Conv3d', conv('Conv3d', 3, false)],
  ['torch.nn.ConvTranspose1d', conv('ConvTranspose1d', 1, true)],
  ['torch.nn.ConvTranspose2d', conv('ConvTranspose2d', 2, true)],
  ['torch.nn.ConvTranspose3d', conv('ConvTranspose3d', 3, true)],
  ['torch.nn.TransformerEncoderLayer', TRANSFORMER_ENCODER_LAYER],
  ['torch.nn.TransformerDecoderLayer', TRANSFORMER_DECODER_LAYER],
  [
    'torch.nn.TransformerEncoder',
    stack('TransformerEncoder', 'encoder_layer', [
      { name: 'encoder_layer' },
      { name: 'num_layers', size: 'N' },
      { name: 'norm', default: NONE },
      { name: 'enable_nested_tensor', default: TRUE },
      { name: 'mask_check', default: TRUE },
    ]),
  ],
  [
    'torch.nn.TransformerDecoder',
    stack('TransformerDecoder', 'decoder_layer', [
      { name: 'decoder_layer' },
      { name: 'num_layers', size: 'N' },
      { name: 'norm', default: NONE },
    ]),
  ],
  ['torch.nn.Transformer', TRANSFORMER],
]);
