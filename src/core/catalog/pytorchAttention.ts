/** nn.MultiheadAttention as torch.nn builds it, and the heads check it shares with the Transformer layers. */
import type { Tensor } from '../values/layer';
import { childTensors } from '../values/layer';
import { Poly } from '../values/symbolic';
import { NONE, type Value } from '../values/value';
import { dimText, type Args, type LayerSpec, type Problem } from './spec';
import { DEVICE_DTYPE, FALSE, TRUE, linearTensors } from './pytorchTensors';
import { divisorFixes, negativeFixes } from './sizeFixes';
import { headsDivisibility, negativeSize, zeroSize } from '../findings/messages';

interface AttentionConfig {
  readonly embed: Poly;
  readonly kdim: Poly;
  readonly vdim: Poly;
  readonly bias: boolean;
  readonly addBiasKv: boolean;
}

/** MultiheadAttention's tensors: packed in_proj_weight unless kdim or vdim differ from embed_dim. */
export function attentionTensors({ embed: E, kdim, vdim, bias, addBiasKv }: AttentionConfig): Tensor[] {
  const packed = kdim.equals(E) && vdim.equals(E);
  const out: Tensor[] = packed
    ? [{ name: 'in_proj_weight', shape: [E.mul(Poly.int(3)), E] }]
    : [
        { name: 'q_proj_weight', shape: [E, E] },
        { name: 'k_proj_weight', shape: [E, kdim] },
        { name: 'v_proj_weight', shape: [E, vdim] },
      ];
  if (bias) out.push({ name: 'in_proj_bias', shape: [E.mul(Poly.int(3))] });
  if (addBiasKv)
    out.push({ name: 'bias_k', shape: [Poly.ONE, Poly.ONE, E] }, { name: 'bias_v', shape: [Poly.ONE, Poly.ONE, E] });
  out.push(...childTensors('out_proj', linearTensors(E, E, bias)));
  return out;
}

/** PyTorch asserts `embed_dim // num_heads * num_heads == embed_dim`; heads of 0 fail dividing first. */
export function headsProblems(args: Args, embedName: string, headsName: string): Problem[] {
  const E = args.dim(embedName).constant;
  const h = args.dim(headsName).constant;
  if (E === undefined || h === undefined) return [];
  if (E === 0n && embedName === 'embed_dim') {
    return [
      {
        code: 'zero-size',
        severity: 'error',
        arg: embedName,
        message: zeroSize('pytorch', embedName),
      },
    ];
  }
  if (h === 0n) {
    return [
      {
        code: 'heads-divisibility',
        severity: 'error',
        arg: headsName,
        message: headsDivisibility('pytorch', { name: embedName, size: E }, { name: headsName, count: 0n }),
      },
    ];
  }
  if (h < 0n) {
    return [
      {
        code: 'negative-size',
        severity: 'error',
        arg: headsName,
        message: negativeSize({ of: 'heads', name: headsName, count: h }),
        fixes: (a) => negativeFixes(a.expr(headsName)),
      },
    ];
  }
  if (E % h === 0n) return [];
  return [
    {
      code: 'heads-divisibility',
      severity: 'error',
      arg: headsName,
      message: headsDivisibility('pytorch', { name: embedName, size: E }, { name: headsName, count: h }),
      fixes: (a) => divisorFixes(E, h, a.expr(headsName), (d) => `Use ${d} heads (${E} / ${d} = ${E / d})`),
    },
  ];
}

function attentionNotes(
  E: Poly,
  h: Poly,
  packed: boolean,
  a: { bias: boolean; addBiasKv: boolean; addZeroAttn: boolean },
): string[] {
  const notes: string[] = [];
  const hd = h.constant ? E.divExact(h.constant) : undefined;
  notes.push(
    hd
      ? `d_k = ${dimText(E)} / ${dimText(h)} = ${dimText(hd)} features per head`
      : `d_k = ${dimText(E)} / ${dimText(h)} features per head`,
  );
  notes.push(
    'The attention product softmax(Q·Kᵀ/√d_k)·V holds no parameters: they are all in the projections W_Q, W_K, W_V and W_O.',
  );
  notes.push(
    packed
      ? 'W_Q, W_K and W_V are stacked in `in_proj_weight` [3E, E]; W_O is `out_proj`.'
      : 'kdim or vdim differs from embed_dim, so W_Q, W_K and W_V are separate: `q_proj_weight` [E, E], `k_proj_weight` [E, kdim], `v_proj_weight` [E, vdim].',
  );
  notes.push('The count does not depend on the number of heads: the heads split E into h slices of d_k.');
  if (!a.bias) notes.push('bias=False: no `in_proj_bias` and no `out_proj.bias`.');
  if (a.addBiasKv)
    notes.push(
      'add_bias_kv=True adds `bias_k` and `bias_v` [1, 1, E]: a learned key and value appended to the sequence, even with bias=False.',
    );
  if (a.addZeroAttn) notes.push('add_zero_attn=True appends a zero key and value: no parameters.');
  return notes;
}

export const MULTIHEAD_ATTENTION: LayerSpec = {
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
        embed: E,
        heads: h,
        headDim,
        kdim,
        vdim,
        layout: 'pytorch',
        bias,
        addBiasKv,
        batchFirst: a.flag('batch_first', false),
        dropout: a.value('dropout').t === 'float' ? (a.value('dropout') as { v?: number }).v !== 0 : a.given('dropout'),
        dropoutRate: rate(a.value('dropout')),
        settings: [
          ['embed_dim (E)', dimText(E)],
          ['num_heads (h)', dimText(h)],
          ['d_k = E / h', headDim ? dimText(headDim) : `${dimText(E)} / ${dimText(h)}`],
          ['kdim', a.isNone('kdim') ? `${dimText(kdim)} (= E)` : dimText(kdim)],
          ['vdim', a.isNone('vdim') ? `${dimText(vdim)} (= E)` : dimText(vdim)],
          ['bias', String(bias)],
          ['add_bias_kv', String(addBiasKv)],
          ['add_zero_attn', String(a.flag('add_zero_attn', false))],
          ['batch_first', String(a.flag('batch_first', false))],
          ['dropout', a.text('dropout')],
        ],
      },
      outFeatures: E,
      inFeatures: E,
    };
  },
};

/** A probability written as a number (`0.1`, `0`); undefined when it is not known. */
function rate(v: Value): number | undefined {
  if (v.t === 'float') return v.v;
  return v.t === 'int' && v.p.constant !== undefined ? Number(v.p.constant) : undefined;
}
