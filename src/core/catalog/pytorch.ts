/**
 * PyTorch layers, as torch.nn builds them: the tensors `named_parameters()` yields, in its order, and the
 * checks the constructors make. Checked against PyTorch itself by scripts/ground-truth/pytorch_catalog.py.
 */
import type { AttentionShape, Fix, Tensor } from '../layer';
import { childTensors } from '../layer';
import { Poly, groupDigits } from '../symbolic';
import { NONE, int, type Value } from '../value';
import { Args, dimText, type LayerSpec, type ParamSpec, type Problem } from './spec';

const TRUE: Value = { t: 'bool', v: true };
const FALSE: Value = { t: 'bool', v: false };
const DEVICE_DTYPE: ParamSpec[] = [{ name: 'device', default: NONE }, { name: 'dtype', default: NONE }];

function linearTensors(inF: Poly, outF: Poly, bias: boolean): Tensor[] {
  return bias ? [{ name: 'weight', shape: [outF, inF] }, { name: 'bias', shape: [outF] }] : [{ name: 'weight', shape: [outF, inF] }];
}

function layerNormTensors(shape: readonly Poly[], affine: boolean, bias: boolean): Tensor[] {
  if (!affine) return [];
  return bias ? [{ name: 'weight', shape }, { name: 'bias', shape }] : [{ name: 'weight', shape }];
}

interface AttentionConfig {
  readonly embed: Poly;
  readonly kdim: Poly;
  readonly vdim: Poly;
  readonly bias: boolean;
  readonly addBiasKv: boolean;
}

/** MultiheadAttention's tensors: packed in_proj_weight unless kdim or vdim differ from embed_dim. */
function attentionTensors({ embed: E, kdim, vdim, bias, addBiasKv }: AttentionConfig): Tensor[] {
  const packed = kdim.equals(E) && vdim.equals(E);
  const out: Tensor[] = packed
    ? [{ name: 'in_proj_weight', shape: [E.mul(Poly.int(3)), E] }]
    : [
        { name: 'q_proj_weight', shape: [E, E] },
        { name: 'k_proj_weight', shape: [E, kdim] },
        { name: 'v_proj_weight', shape: [E, vdim] },
      ];
  if (bias) out.push({ name: 'in_proj_bias', shape: [E.mul(Poly.int(3))] });
  if (addBiasKv) out.push({ name: 'bias_k', shape: [Poly.ONE, Poly.ONE, E] }, { name: 'bias_v', shape: [Poly.ONE, Poly.ONE, E] });
  out.push(...childTensors('out_proj', linearTensors(E, E, bias)));
  return out;
}

/** How far from the written head count the quick fix looks for one that divides (a huge prime has none near). */
const DIVISOR_SEARCH = 4096n;

/** Head counts that divide `embed`, nearest to `heads` below and above, within a bounded search. */
function nearestDivisors(embed: bigint, heads: bigint): bigint[] {
  const out: bigint[] = [];
  for (let h = heads - 1n; h >= 1n && heads - h <= DIVISOR_SEARCH; h--) if (embed % h === 0n) { out.push(h); break; }
  for (let h = heads + 1n; h <= embed && h - heads <= DIVISOR_SEARCH; h++) if (embed % h === 0n) { out.push(h); break; }
  return out;
}

/** PyTorch asserts `embed_dim // num_heads * num_heads == embed_dim`; heads of 0 fail dividing first. */
function headsProblems(args: Args, embedName: string, headsName: string): Problem[] {
  const E = args.dim(embedName).constant;
  const h = args.dim(headsName).constant;
  if (E === undefined || h === undefined) return [];
  if (E === 0n && embedName === 'embed_dim') {
    return [{ code: 'zero-size', severity: 'error', arg: embedName, message: 'embed_dim is 0: PyTorch fails initialising the projections (ZeroDivisionError: float division by zero in xavier_uniform_).' }];
  }
  if (h === 0n) {
    return [{ code: 'heads-divisibility', severity: 'error', arg: headsName, message: `${headsName} is 0: PyTorch fails dividing ${embedName} ${E} by it (ZeroDivisionError: integer division or modulo by zero).` }];
  }
  if (h < 0n) {
    return [{ code: 'negative-size', severity: 'error', arg: headsName, message: `${headsName} is ${h}: a layer cannot have a negative number of heads (PyTorch builds it, then fails reshaping into heads on the first forward call).` }];
  }
  if (E % h === 0n) return [];
  return [{
    code: 'heads-divisibility',
    severity: 'error',
    arg: headsName,
    message: `${embedName} ${E} is not divisible by ${headsName} ${h}: PyTorch raises "embed_dim must be divisible by num_heads". Each head takes ${embedName} / ${headsName} features.`,
    fixes: (a) => {
      const span = a.span(headsName);
      const literal = a.value(headsName);
      if (!span || literal.t !== 'int' || !a.literal(headsName)) return [];
      return nearestDivisors(E, h).map((d): Fix => ({ title: `Use ${d} heads (${E} / ${d} = ${E / d})`, edits: [{ span, text: String(d) }] }));
    },
  }];
}

function attentionNotes(E: Poly, h: Poly, packed: boolean, a: { bias: boolean; addBiasKv: boolean; addZeroAttn: boolean }): string[] {
  const notes: string[] = [];
  const hd = h.constant ? E.divExact(h.constant) : undefined;
  notes.push(hd ? `d_k = ${dimText(E)} / ${dimText(h)} = ${dimText(hd)} features per head` : `d_k = ${dimText(E)} / ${dimText(h)} features per head`);
  notes.push('The attention product softmax(Q·Kᵀ/√d_k)·V holds no parameters: they are all in the projections W_Q, W_K, W_V and W_O.');
  notes.push(packed
    ? 'W_Q, W_K and W_V are stacked in `in_proj_weight` [3E, E]; W_O is `out_proj`.'
    : 'kdim or vdim differs from embed_dim, so W_Q, W_K and W_V are separate: `q_proj_weight` [E, E], `k_proj_weight` [E, kdim], `v_proj_weight` [E, vdim].');
  notes.push('The count does not depend on the number of heads: the heads split E into h slices of d_k.');
  if (!a.bias) notes.push('bias=False: no `in_proj_bias` and no `out_proj.bias`.');
  if (a.addBiasKv) notes.push('add_bias_kv=True adds `bias_k` and `bias_v` [1, 1, E]: a learned key and value appended to the sequence, even with bias=False.');
  if (a.addZeroAttn) notes.push('add_zero_attn=True appends a zero key and value: no parameters.');
  return notes;
}

const MULTIHEAD_ATTENTION: LayerSpec = {
  kind: 'MultiheadAttention',
  framework: 'pytorch',
  signature: [
    { name: 'embed_dim', size: 'E' },
    { name: 'num_heads', size: 'h' },
    { name: 'dropout', default: { t: 'float', v: 0 } },
    { name: 'bias', default: TRUE },
    { name: 'add_bias_kv', default: FALSE },
    { name: 'add_zero_attn', default: FALSE },
    { name: 'kdim', default: NONE, size: 'kdim' },
    { name: 'vdim', default: NONE, size: 'vdim' },
    { name: 'batch_first', default: FALSE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const E = a.dim('embed_dim');
    const h = a.dim('num_heads');
    const kdim = a.isNone('kdim') ? E : a.dim('kdim');
    const vdim = a.isNone('vdim') ? E : a.dim('vdim');
    const bias = a.flag('bias', true);
    const addBiasKv = a.flag('add_bias_kv', false);
    const tensors = attentionTensors({ embed: E, kdim, vdim, bias, addBiasKv });
    const packed = kdim.equals(E) && vdim.equals(E);
    const headDim = h.constant && h.constant > 0n ? E.divExact(h.constant) : undefined;
    return {
      tensors,
      summary: headDim ? `${dimText(h)} heads × ${dimText(headDim)}` : `${dimText(h)} heads`,
      notes: attentionNotes(E, h, packed, { bias, addBiasKv, addZeroAttn: a.flag('add_zero_attn', false) }),
      problems: headsProblems(a, 'embed_dim', 'num_heads'),
      attention: {
        embed: E, heads: h, headDim, kdim, vdim, layout: 'pytorch', bias, addBiasKv,
        batchFirst: a.flag('batch_first', false),
        dropout: a.value('dropout').t === 'float' ? (a.value('dropout') as { v?: number }).v !== 0 : a.given('dropout'),
        settings: [
          ['embed_dim (E)', dimText(E)], ['num_heads (h)', dimText(h)], ['d_k = E / h', headDim ? dimText(headDim) : `${dimText(E)} / ${dimText(h)}`],
          ['kdim', a.isNone('kdim') ? `${dimText(kdim)} (= E)` : dimText(kdim)], ['vdim', a.isNone('vdim') ? `${dimText(vdim)} (= E)` : dimText(vdim)],
          ['bias', String(bias)], ['add_bias_kv', String(addBiasKv)], ['add_zero_attn', String(a.flag('add_zero_attn', false))],
          ['batch_first', String(a.flag('batch_first', false))], ['dropout', a.text('dropout')],
        ],
      },
      outFeatures: E,
      inFeatures: E,
    };
  },
};

const LINEAR: LayerSpec = {
  kind: 'Linear',
  framework: 'pytorch',
  signature: [{ name: 'in_features', size: 'in' }, { name: 'out_features', size: 'out' }, { name: 'bias', default: TRUE }, ...DEVICE_DTYPE],
  build(a) {
    const inF = a.dim('in_features');
    const outF = a.dim('out_features');
    return {
      tensors: linearTensors(inF, outF, a.flag('bias', true)),
      summary: `${dimText(inF)} → ${dimText(outF)}`,
      notes: ['y = x·Wᵀ + b with W [out_features, in_features]' + (a.flag('bias', true) ? '.' : ' and no b (bias=False).')],
      outFeatures: outF,
      inFeatures: inF,
    };
  },
};

const BILINEAR: LayerSpec = {
  kind: 'Bilinear',
  framework: 'pytorch',
  signature: [{ name: 'in1_features', size: 'in1' }, { name: 'in2_features', size: 'in2' }, { name: 'out_features', size: 'out' }, { name: 'bias', default: TRUE }, ...DEVICE_DTYPE],
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
      unknownReason: 'LazyLinear infers in_features from its first input: the count is known only after the first forward call.',
      outFeatures: outF,
    };
  },
};

const LAYER_NORM: LayerSpec = {
  kind: 'LayerNorm',
  framework: 'pytorch',
  signature: [{ name: 'normalized_shape', size: 'D' }, { name: 'eps', default: { t: 'float', v: 1e-5 } }, { name: 'elementwise_affine', default: TRUE }, { name: 'bias', default: TRUE }, ...DEVICE_DTYPE],
  build(a) {
    const v = a.value('normalized_shape');
    const shape = v.t === 'seq' ? v.items.map((_, i) => seqDim(a, 'normalized_shape', i)) : [a.dim('normalized_shape')];
    return {
      tensors: layerNormTensors(shape, a.flag('elementwise_affine', true), a.flag('bias', true)),
      summary: `over [${shape.map(dimText).join(', ')}]`,
      outFeatures: shape[shape.length - 1],
      inFeatures: shape[shape.length - 1],
    };
  },
};

function seqDim(a: Args, name: string, i: number): Poly {
  const v = a.value(name);
  const item = v.t === 'seq' ? v.items[i] : undefined;
  return item?.t === 'int' ? item.p : Poly.symbol(`${name}[${i}]`);
}

/** Conv1d/2d/3d and their transposes: weight [out, in / groups, *kernel] ([in, out / groups, ...] transposed). */
function conv(kind: string, dims: number, transposed: boolean): LayerSpec {
  return {
    kind,
    framework: 'pytorch',
    signature: [
      { name: 'in_channels', size: 'C_in' }, { name: 'out_channels', size: 'C_out' }, { name: 'kernel_size' },
      { name: 'stride', default: int(1) }, { name: 'padding', default: int(0) },
      ...(transposed ? [{ name: 'output_padding', default: int(0) }] : [{ name: 'dilation', default: int(1) }]),
      { name: 'groups', default: int(1) }, { name: 'bias', default: TRUE },
      ...(transposed ? [{ name: 'dilation', default: int(1) }] : []),
      { name: 'padding_mode', default: { t: 'str', v: 'zeros' } }, ...DEVICE_DTYPE,
    ],
    build(a) {
      const cin = a.dim('in_channels');
      const cout = a.dim('out_channels');
      const g = a.dim('groups');
      const k = a.value('kernel_size');
      const kernel = k.t === 'seq' ? k.items.map((_, i) => seqDim(a, 'kernel_size', i)) : Array.from({ length: dims }, () => a.dim('kernel_size'));
      const [first, second] = transposed ? [cin, cout] : [cout, cin];
      // Channels per group: exact when the groups are known; otherwise one name for the quotient, never the
      // ungrouped width (a depthwise conv with groups=dim has dim times fewer weights).
      const perGroup = g.constant === 1n ? second : g.constant ? second.divExact(g.constant) ?? Poly.symbol(`${transposed ? 'C_out' : 'C_in'}/groups`) : Poly.symbol(`(${second.size > 1 ? `(${second})` : second} / ${g.size > 1 ? `(${g})` : g})`);
      const tensors: Tensor[] = [{ name: 'weight', shape: [first, perGroup, ...kernel] }];
      if (a.flag('bias', true)) tensors.push({ name: 'bias', shape: [cout] });
      return { tensors, summary: `${dimText(cin)} → ${dimText(cout)} · kernel ${kernel.map(dimText).join('×')}`, outFeatures: cout };
    },
  };
}

const EMBEDDING: LayerSpec = {
  kind: 'Embedding',
  framework: 'pytorch',
  signature: [
    { name: 'num_embeddings', size: 'V' }, { name: 'embedding_dim', size: 'D' }, { name: 'padding_idx', default: NONE },
    { name: 'max_norm', default: NONE }, { name: 'norm_type', default: { t: 'float', v: 2 } }, { name: 'scale_grad_by_freq', default: FALSE },
    { name: 'sparse', default: FALSE }, { name: '_weight', default: NONE }, { name: '_freeze', default: FALSE }, ...DEVICE_DTYPE,
  ],
  build(a) {
    const V = a.dim('num_embeddings');
    const D = a.dim('embedding_dim');
    return { tensors: [{ name: 'weight', shape: [V, D] }], summary: `${dimText(V)} × ${dimText(D)}`, outFeatures: D };
  },
};

const EMBEDDING_BAG: LayerSpec = {
  kind: 'EmbeddingBag',
  framework: 'pytorch',
  signature: [
    { name: 'num_embeddings', size: 'V' }, { name: 'embedding_dim', size: 'D' }, { name: 'max_norm', default: NONE },
    { name: 'norm_type', default: { t: 'float', v: 2 } }, { name: 'scale_grad_by_freq', default: FALSE }, { name: 'mode', default: { t: 'str', v: 'mean' } },
    { name: 'sparse', default: FALSE }, { name: '_weight', default: NONE }, { name: 'include_last_offset', default: FALSE }, { name: 'padding_idx', default: NONE }, ...DEVICE_DTYPE,
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
        problems.push({ code: 'groups-divisibility', severity: 'error', arg: 'num_groups', message: `num_channels ${C.constant} is not divisible by num_groups ${g}: PyTorch raises "num_channels must be divisible by num_groups".` });
      }
      return {
        tensors: affine ? [{ name: 'weight', shape: [C] }, { name: 'bias', shape: [C] }] : [],
        summary: `${dimText(C)} channels${affine ? '' : ', no affine parameters'}`,
        notes: groups ? [] : ['running_mean and running_var are buffers, not parameters: they are saved with the model but not trained.'],
        problems,
        outFeatures: C,
      };
    },
  };
}

const PRELU: LayerSpec = {
  kind: 'PReLU',
  framework: 'pytorch',
  signature: [{ name: 'num_parameters', default: int(1), size: 'n' }, { name: 'init', default: { t: 'float', v: 0.25 } }, ...DEVICE_DTYPE],
  build(a) {
    const n = a.dim('num_parameters');
    return { tensors: [{ name: 'weight', shape: [n] }], summary: `${dimText(n)} learned slope${n.constant === 1n ? '' : 's'}` };
  },
};

const RMS_NORM: LayerSpec = {
  kind: 'RMSNorm',
  framework: 'pytorch',
  signature: [{ name: 'normalized_shape', size: 'D' }, { name: 'eps', default: NONE }, { name: 'elementwise_affine', default: TRUE }, ...DEVICE_DTYPE],
  build(a) {
    const v = a.value('normalized_shape');
    const shape = v.t === 'seq' ? v.items.map((_, i) => seqDim(a, 'normalized_shape', i)) : [a.dim('normalized_shape')];
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
      { name: 'input_size', size: 'in' }, { name: 'hidden_size', size: 'H' }, { name: 'num_layers', default: int(1), size: 'L' },
      ...(kind === 'RNN' ? [{ name: 'nonlinearity', default: { t: 'str', v: 'tanh' } as Value }] : []),
      { name: 'bias', default: TRUE }, { name: 'batch_first', default: FALSE }, { name: 'dropout', default: { t: 'float', v: 0 } },
      { name: 'bidirectional', default: FALSE }, ...(kind === 'LSTM' ? [{ name: 'proj_size', default: int(0), size: 'P' }] : []), ...DEVICE_DTYPE,
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
          ...(bias ? [{ name: `bias_ih_l${l}${d}`, shape: [gH], repeat }, { name: `bias_hh_l${l}${d}`, shape: [gH], repeat }] : []),
          ...(projected ? [{ name: `weight_hr_l${l}${d}`, shape: [P, H], repeat }] : []),
        ]);
      const deeper = out.mul(Poly.int(directions.length));
      const count = L.constant;
      const tensors = count !== undefined && count <= 64n
        ? Array.from({ length: Number(count) }, (_, i) => layer(String(i), i === 0 ? inF : deeper)).flat()
        : [...layer('0', inF), ...layer('{i}', deeper, L.sub(Poly.ONE))];
      return {
        tensors,
        summary: `${dimText(inF)} → ${dimText(H)}${directions.length === 2 ? ' × 2 directions' : ''} · ${dimText(L)} layer${L.constant === 1n ? '' : 's'}`,
        notes: [
          `${kind === 'LSTM' ? 'Four gates (input, forget, cell, output)' : kind === 'GRU' ? 'Three gates (reset, update, new)' : 'One transform'} per step: weights are ${gates} × hidden_size tall.`,
          ...(projected ? ['proj_size projects the hidden state: weight_hr maps hidden_size to proj_size, and the next layer reads proj_size features.'] : []),
        ],
        outFeatures: deeper,
        inFeatures: inF,
      };
    },
  };
}

const TRANSFORMER_LAYER_SIGNATURE: ParamSpec[] = [
  { name: 'd_model', size: 'E' },
  { name: 'nhead', size: 'h' },
  { name: 'dim_feedforward', default: int(2048), size: 'F' },
  { name: 'dropout', default: { t: 'float', v: 0.1 } },
  { name: 'activation', default: { t: 'str', v: 'relu' } },
  { name: 'layer_norm_eps', default: { t: 'float', v: 1e-5 } },
  { name: 'batch_first', default: FALSE },
  { name: 'norm_first', default: FALSE },
  { name: 'bias', default: TRUE },
  ...DEVICE_DTYPE,
];

interface BlockSizes {
  readonly E: Poly;
  readonly h: Poly;
  readonly F: Poly;
  readonly bias: boolean;
}

function encoderLayerTensors({ E, F, bias }: BlockSizes): Tensor[] {
  return [
    ...childTensors('self_attn', attentionTensors({ embed: E, kdim: E, vdim: E, bias, addBiasKv: false })),
    ...childTensors('linear1', linearTensors(E, F, bias)),
    ...childTensors('linear2', linearTensors(F, E, bias)),
    ...childTensors('norm1', layerNormTensors([E], true, bias)),
    ...childTensors('norm2', layerNormTensors([E], true, bias)),
  ];
}

function decoderLayerTensors({ E, F, bias }: BlockSizes): Tensor[] {
  const attention = attentionTensors({ embed: E, kdim: E, vdim: E, bias, addBiasKv: false });
  return [
    ...childTensors('self_attn', attention),
    ...childTensors('multihead_attn', attention),
    ...childTensors('linear1', linearTensors(E, F, bias)),
    ...childTensors('linear2', linearTensors(F, E, bias)),
    ...childTensors('norm1', layerNormTensors([E], true, bias)),
    ...childTensors('norm2', layerNormTensors([E], true, bias)),
    ...childTensors('norm3', layerNormTensors([E], true, bias)),
  ];
}

function blockSizes(a: Args): BlockSizes {
  return { E: a.dim('d_model'), h: a.dim('nhead'), F: a.dim('dim_feedforward'), bias: a.flag('bias', true) };
}

function blockSummary(s: BlockSizes): string {
  const hd = s.h.constant && s.h.constant > 0n ? s.E.divExact(s.h.constant) : undefined;
  return `d_model ${dimText(s.E)} · ${dimText(s.h)} heads${hd ? ` × ${dimText(hd)}` : ''} · ff ${dimText(s.F)}`;
}

function blockAttention(s: BlockSizes, batchFirst: boolean): AttentionShape {
  const headDim = s.h.constant && s.h.constant > 0n ? s.E.divExact(s.h.constant) : undefined;
  return {
    embed: s.E, heads: s.h, headDim, kdim: s.E, vdim: s.E, layout: 'pytorch', bias: s.bias, batchFirst, dropout: true,
    settings: [['d_model (E)', dimText(s.E)], ['nhead (h)', dimText(s.h)], ['d_k = E / h', headDim ? dimText(headDim) : `${dimText(s.E)} / ${dimText(s.h)}`], ['bias', String(s.bias)], ['batch_first', String(batchFirst)]],
  };
}

const BLOCK_NOTE = 'Each attention block is a MultiheadAttention (4·E² + 4·E with biases) followed by a feed-forward E → F → E and LayerNorms.';

const TRANSFORMER_ENCODER_LAYER: LayerSpec = {
  kind: 'TransformerEncoderLayer',
  framework: 'pytorch',
  signature: TRANSFORMER_LAYER_SIGNATURE,
  build(a) {
    const s = blockSizes(a);
    return { tensors: encoderLayerTensors(s), summary: blockSummary(s), notes: [BLOCK_NOTE], problems: headsProblems(a, 'd_model', 'nhead'), attention: blockAttention(s, a.flag('batch_first', false)), outFeatures: s.E, inFeatures: s.E };
  },
};

const TRANSFORMER_DECODER_LAYER: LayerSpec = {
  kind: 'TransformerDecoderLayer',
  framework: 'pytorch',
  signature: TRANSFORMER_LAYER_SIGNATURE,
  build(a) {
    const s = blockSizes(a);
    return {
      tensors: decoderLayerTensors(s),
      summary: blockSummary(s),
      notes: [BLOCK_NOTE, 'A decoder layer has two attentions: self-attention and cross-attention over the encoder output.'],
      problems: headsProblems(a, 'd_model', 'nhead'),
      attention: blockAttention(s, a.flag('batch_first', false)),
      outFeatures: s.E,
      inFeatures: s.E,
    };
  },
};

/** TransformerEncoder / TransformerDecoder: `num_layers` deep copies of the given layer, then `norm`. */
function stack(kind: string, layerArg: string, signature: ParamSpec[]): LayerSpec {
  return {
    kind,
    framework: 'pytorch',
    signature,
    build(a) {
      const layer = a.value(layerArg);
      const n = a.dim('num_layers');
      const norm = a.value('norm');
      const tensors: Tensor[] = [];
      let unknownReason: string | undefined;
      if (layer.t === 'layer') tensors.push(...childTensors('layers', layer.layer.tensors, n).map(renameRepeat));
      else unknownReason = `the ${layerArg} passed in is not a layer this file builds in a way Attention Lens can follow.`;
      if (norm.t === 'layer') tensors.push(...childTensors('norm', norm.layer.tensors));
      else if (norm.t !== 'none' && a.given('norm')) unknownReason = 'the norm passed in is not a layer Attention Lens can follow.';
      const inner = layer.t === 'layer' ? layer.layer : undefined;
      return {
        tensors,
        summary: `${dimText(n)} × ${inner?.kind ?? 'layer'}`,
        notes: [`${dimText(n)} deep copies of ${layerArg}: each copy has its own parameters${inner?.params?.constant !== undefined ? ` (${groupDigits(inner.params.constant)} each)` : ''}.`],
        unknownReason,
        attention: inner?.attention,
        outFeatures: inner?.outFeatures,
        inFeatures: inner?.inFeatures,
      };
    },
  };
}

/** `layers.self_attn.x` with a repeat reads as the stacked copies `layers.{i}.self_attn.x`. */
function renameRepeat(t: Tensor): Tensor {
  return { ...t, name: t.name.replace(/^layers\./, 'layers.{i}.') };
}

const TRANSFORMER: LayerSpec = {
  kind: 'Transformer',
  framework: 'pytorch',
  signature: [
    { name: 'd_model', default: int(512), size: 'E' },
    { name: 'nhead', default: int(8), size: 'h' },
    { name: 'num_encoder_layers', default: int(6), size: 'N_enc' },
    { name: 'num_decoder_layers', default: int(6), size: 'N_dec' },
    { name: 'dim_feedforward', default: int(2048), size: 'F' },
    { name: 'dropout', default: { t: 'float', v: 0.1 } },
    { name: 'activation', default: { t: 'str', v: 'relu' } },
    { name: 'custom_encoder', default: NONE },
    { name: 'custom_decoder', default: NONE },
    { name: 'layer_norm_eps', default: { t: 'float', v: 1e-5 } },
    { name: 'batch_first', default: FALSE },
    { name: 'norm_first', default: FALSE },
    { name: 'bias', default: TRUE },
    ...DEVICE_DTYPE,
  ],
  build(a) {
    const s = blockSizes(a);
    const nEnc = a.dim('num_encoder_layers');
    const nDec = a.dim('num_decoder_layers');
    const custom = (name: string, fallback: () => Tensor[]): Tensor[] | undefined => {
      const v = a.value(name);
      if (v.t === 'none') return fallback();
      return v.t === 'layer' ? [...v.layer.tensors] : undefined;
    };
    const encoder = custom('custom_encoder', () => [
      ...childTensors('layers', encoderLayerTensors(s), nEnc).map(renameRepeat),
      ...childTensors('norm', layerNormTensors([s.E], true, s.bias)),
    ]);
    const decoder = custom('custom_decoder', () => [
      ...childTensors('layers', decoderLayerTensors(s), nDec).map(renameRepeat),
      ...childTensors('norm', layerNormTensors([s.E], true, s.bias)),
    ]);
    return {
      tensors: [...childTensors('encoder', encoder ?? []), ...childTensors('decoder', decoder ?? [])],
      summary: `${dimText(nEnc)} + ${dimText(nDec)} layers · ${blockSummary(s)}`,
      notes: [BLOCK_NOTE, 'The encoder and the decoder each end with a LayerNorm.'],
      problems: headsProblems(a, 'd_model', 'nhead'),
      unknownReason: encoder && decoder ? undefined : 'a custom encoder or decoder is passed in that Attention Lens cannot follow.',
      attention: blockAttention(s, a.flag('batch_first', false)),
      outFeatures: s.E,
      inFeatures: s.E,
    };
  },
};

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
      { name: 'encoder_layer' }, { name: 'num_layers', size: 'N' }, { name: 'norm', default: NONE },
      { name: 'enable_nested_tensor', default: TRUE }, { name: 'mask_check', default: TRUE },
    ]),
  ],
  ['torch.nn.TransformerDecoder', stack('TransformerDecoder', 'decoder_layer', [{ name: 'decoder_layer' }, { name: 'num_layers', size: 'N' }, { name: 'norm', default: NONE }])],
  ['torch.nn.Transformer', TRANSFORMER],
]);
