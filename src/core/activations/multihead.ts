/**
 * nn.MultiheadAttention in train mode, step by step as PyTorch 1.13 runs it (F.multi_head_attention_forward):
 * the packed input projection cut in three, each part copied into heads, the scores of q / √d_k by kᵀ, the
 * softmax, dropout, the weighted sum of v, the heads merged back and the output projection; with
 * need_weights, the weights averaged over the heads. Self-attention (one tensor for query, key and value)
 * without masks is followed; anything else is not.
 */
import type { LayerInstance } from '../values/layer';
import { Poly } from '../values/symbolic';
import { NONE, type Value } from '../values/value';
import type { Dim, Dtype } from './program';
import type { Tape } from './tape';
import { truth, type Args, type Keywords } from './tapeArgs';

const ARGUMENTS = new Set([
  'query',
  'key',
  'value',
  'need_weights',
  'average_attn_weights',
  'attn_mask',
  'key_padding_mask',
]);

export function multiheadAttention(
  t: Tape,
  module: Value,
  layer: LayerInstance,
  positional: Args,
  keywords: Keywords,
  evaluated: Value,
): Value {
  const a = layer.attention!;
  const [q, k, v] = [
    positional[0] ?? keywords.get('query'),
    positional[1] ?? keywords.get('key'),
    positional[2] ?? keywords.get('value'),
  ];
  const unset = (name: string) => (keywords.get(name) ?? NONE).t === 'none';
  if (!q || q !== k || k !== v) return t.fail('nn.MultiheadAttention with a key or value other than its query');
  if (
    positional.length > 3 ||
    [...keywords.keys()].some((name) => !ARGUMENTS.has(name)) ||
    !unset('attn_mask') ||
    !unset('key_padding_mask')
  )
    return t.fail('nn.MultiheadAttention with a mask or arguments not followed');
  const setting = (name: string) => a.settings.find(([n]) => n === name)?.[1];
  if (a.addBiasKv || setting('add_zero_attn') !== 'false' || !a.kdim.equals(a.embed) || !a.vdim.equals(a.embed))
    return t.fail('nn.MultiheadAttention with kdim, vdim or extra keys');
  const [needWeights, average] = [
    truth(keywords.get('need_weights')) ?? true,
    truth(keywords.get('average_attn_weights')) ?? true,
  ];
  const [E, h, d, p] = [a.embed, a.heads, a.headDim, a.dropoutRate];
  if (
    d === undefined ||
    p === undefined ||
    (keywords.has('need_weights') && truth(keywords.get('need_weights')) === undefined)
  )
    return t.fail('nn.MultiheadAttention with sizes or flags not known');
  const x = t.features(q, E);
  if (t.shape(x).length !== 3) return t.fail('nn.MultiheadAttention on an unbatched input');

  const made = (shape: readonly Dim[], dtype: Dtype = 'float', like?: Value) => t.make(shape, dtype, like);
  const transpose = (id: number, i: number, j: number) => {
    const shape = [...t.shape(id)];
    const [si, sj] = [i < 0 ? shape.length + i : i, j < 0 ? shape.length + j : j];
    [shape[si], shape[sj]] = [shape[sj], shape[si]];
    const out = made(shape);
    t.record({ k: 'transpose', in: id, out: out.id, a: i, b: j });
    return out.id;
  };
  const view = (id: number, shape: readonly Dim[]) => {
    const out = made(shape);
    t.record({ k: 'view', in: id, out: out.id, shape, copies: false });
    return out.id;
  };
  const contiguous = (id: number) => {
    const out = made(t.shape(id));
    t.record({ k: 'contiguous', in: id, out: out.id });
    return out.id;
  };
  const linear = (id: number, outF: Poly, prefix: string) => {
    const weight = t.trainsAt(module, `${prefix}weight`);
    const bias = t.trainsAt(module, `${prefix}bias`);
    const out = made([...t.shape(id).slice(0, -1), outF]);
    t.record({ k: 'linear', in: id, out: out.id, shape: [outF, E], bias: bias !== undefined, grads: { weight, bias } });
    return out.id;
  };
  const matmul = (x1: number, x2: number) => {
    const out = made([...t.shape(x1).slice(0, -1), t.shape(x2).at(-1)]);
    t.record({ k: 'matmul', a: { t: 'tensor', id: x1 }, b: { t: 'tensor', id: x2 }, out: out.id });
    return out.id;
  };
  const byScalar = (id: number) => {
    const out = made(t.shape(id));
    t.record({ k: 'pointwise', fn: 'div', args: [{ t: 'tensor', id }, { t: 'scalar' }], out: out.id });
    return out.value;
  };

  // Batch first, the input is seen sequence first: (T, B, E).
  const input = a.batchFirst ? transpose(x, 1, 0) : x;
  const [T, B] = t.shape(input);
  const BH = B && B.mul(h);
  const packed = linear(input, E.mul(Poly.int(3)), 'in_proj_');
  const parts = [0, 1, 2].map(() => made(t.shape(input)).id);
  t.record({ k: 'split', in: packed, outs: parts, dim: 2, chunks: 3 });
  const [qh, kh, vh] = parts.map((id) => transpose(view(contiguous(id), [T, BH, d]), 0, 1));
  const scores = matmul(t.id(byScalar(qh)), transpose(kh, -2, -1));
  let weights = made(t.shape(scores)).id;
  t.record({ k: 'softmax', in: scores, out: weights });
  if (p > 0) {
    const dropped = made(t.shape(weights)).id;
    t.record({ k: 'dropout', in: weights, out: dropped, p });
    weights = dropped;
  }
  const heads = view(contiguous(transpose(matmul(weights, vh), 0, 1)), [T && B ? T.mul(B) : undefined, E]);
  const output = view(linear(heads, E, 'out_proj.'), [T, B, E]);
  const result = t.valueOf(
    a.batchFirst ? transpose(output, 1, 0) : output,
    evaluated.t === 'seq' ? evaluated.items[0] : undefined,
  );
  if (!needWeights) return { t: 'seq', items: [result, NONE], tuple: true };
  const perHead = view(weights, [B, h, T, t.shape(weights).at(-1)]);
  if (!average) return { t: 'seq', items: [result, t.valueOf(perHead)], tuple: true };
  const summed = made([B, T, t.shape(weights).at(-1)]).id;
  t.record({ k: 'reduce', fn: 'sum', in: perHead, out: summed, dims: [1], keepdim: false });
  return { t: 'seq', items: [result, byScalar(summed)], tuple: true };
}
