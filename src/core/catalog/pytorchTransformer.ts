/** The Transformer family of torch.nn: encoder and decoder layers, their stacks, and nn.Transformer. */
import type { AttentionShape, Tensor } from '../values/layer';
import { childTensors } from '../values/layer';
import { Poly, groupDigits } from '../values/symbolic';
import { NONE, int } from '../values/value';
import { dimText, type Args, type LayerSpec, type ParamSpec } from './spec';
import { attentionTensors, headsProblems } from './pytorchAttention';
import { DEVICE_DTYPE, FALSE, TRUE, layerNormTensors, linearTensors } from './pytorchTensors';

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
    embed: s.E,
    heads: s.h,
    headDim,
    kdim: s.E,
    vdim: s.E,
    layout: 'pytorch',
    bias: s.bias,
    batchFirst,
    dropout: true,
    settings: [
      ['d_model (E)', dimText(s.E)],
      ['nhead (h)', dimText(s.h)],
      ['d_k = E / h', headDim ? dimText(headDim) : `${dimText(s.E)} / ${dimText(s.h)}`],
      ['bias', String(s.bias)],
      ['batch_first', String(batchFirst)],
    ],
  };
}

const BLOCK_NOTE =
  'Each attention block is a MultiheadAttention (4·E² + 4·E with biases) followed by a feed-forward E → F → E and LayerNorms.';

export const TRANSFORMER_ENCODER_LAYER: LayerSpec = {
  kind: 'TransformerEncoderLayer',
  framework: 'pytorch',
  signature: TRANSFORMER_LAYER_SIGNATURE,
  build(a) {
    const s = blockSizes(a);
    return {
      tensors: encoderLayerTensors(s),
      summary: blockSummary(s),
      notes: [BLOCK_NOTE],
      problems: headsProblems(a, 'd_model', 'nhead'),
      attention: blockAttention(s, a.flag('batch_first', false)),
      outFeatures: s.E,
      inFeatures: s.E,
    };
  },
};

export const TRANSFORMER_DECODER_LAYER: LayerSpec = {
  kind: 'TransformerDecoderLayer',
  framework: 'pytorch',
  signature: TRANSFORMER_LAYER_SIGNATURE,
  build(a) {
    const s = blockSizes(a);
    return {
      tensors: decoderLayerTensors(s),
      summary: blockSummary(s),
      notes: [
        BLOCK_NOTE,
        'A decoder layer has two attentions: self-attention and cross-attention over the encoder output.',
      ],
      problems: headsProblems(a, 'd_model', 'nhead'),
      attention: { ...blockAttention(s, a.flag('batch_first', false)), count: Poly.int(2), withCross: true },
      outFeatures: s.E,
      inFeatures: s.E,
    };
  },
};

/** TransformerEncoder / TransformerDecoder: `num_layers` deep copies of the given layer, then `norm`. */
export function stack(kind: string, layerArg: string, signature: ParamSpec[]): LayerSpec {
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
      else
        unknownReason = `the ${layerArg} passed in is not a layer this file builds in a way Attention Lens can follow.`;
      if (norm.t === 'layer') tensors.push(...childTensors('norm', norm.layer.tensors));
      else if (norm.t !== 'none' && a.given('norm'))
        unknownReason = 'the norm passed in is not a layer Attention Lens can follow.';
      const inner = layer.t === 'layer' ? layer.layer : undefined;
      return {
        tensors,
        summary: `${dimText(n)} × ${inner?.kind ?? 'layer'}`,
        notes: [
          `${dimText(n)} deep copies of ${layerArg}: each copy has its own parameters${inner?.params?.constant !== undefined ? ` (${groupDigits(inner.params.constant)} each)` : ''}.`,
        ],
        unknownReason,
        attention: inner?.attention && { ...inner.attention, count: n.mul(inner.attention.count ?? Poly.ONE) },
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

export const TRANSFORMER: LayerSpec = {
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
      unknownReason:
        encoder && decoder ? undefined : 'a custom encoder or decoder is passed in that Attention Lens cannot follow.',
      attention: {
        ...blockAttention(s, a.flag('batch_first', false)),
        count: nEnc.add(nDec.mul(Poly.int(2))),
        withCross: true,
      },
      outFeatures: s.E,
      inFeatures: s.E,
    };
  },
};
