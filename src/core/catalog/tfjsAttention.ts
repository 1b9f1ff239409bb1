/**
 * The Keras-style MultiHeadAttention of tfjs-layers: per-head kernels [dim, heads, keyDim] and an output
 * kernel [heads, valueDim, ...outputShape]. They live in sublayers the layer does not track, so TF.js's own
 * countParams() reports 0; these are the weights it creates on its first call().
 */
import type { Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { asPoly, type Value } from '../values/value';
import { dimText, type LayerSpec } from './spec';
import { builtShape, lastAxis, unknownInput } from './tfjsInput';

function shapeOf(v: Value): Poly[] | undefined {
  if (v.t === 'seq') {
    const dims = v.items.map(asPoly);
    return dims.every((d): d is Poly => d !== undefined) ? dims : undefined;
  }
  const p = asPoly(v);
  return p ? [p] : undefined;
}

const MULTI_HEAD_ATTENTION: LayerSpec = {
  kind: 'MultiHeadAttention',
  framework: 'tfjs',
  configObject: true,
  signature: [
    { name: 'numHeads', size: 'h' },
    { name: 'keyDim', size: 'd_k' },
    { name: 'valueDim', size: 'd_v' },
    { name: 'useBias' },
    { name: 'outputShape' },
  ],
  build(a) {
    const h = a.dim('numHeads');
    const k = a.dim('keyDim');
    const v = a.isNone('valueDim') ? k : a.dim('valueDim');
    const queryShape = builtShape(a, false);
    const query = lastAxis(queryShape);
    const value = a.inputs[1]?.[a.inputs[1].length - 1] ?? query;
    const key = a.inputs[2]?.[a.inputs[2].length - 1] ?? value;
    const out = a.given('outputShape') ? (shapeOf(a.value('outputShape')) ?? [Poly.symbol('out')]) : [query];
    const bias = a.flag('useBias', true);
    const dense = (name: string, dim: Poly, perHead: Poly): Tensor[] =>
      bias
        ? [
            { name: `${name}/kernel`, shape: [dim, h, perHead] },
            { name: `${name}/bias`, shape: [h, perHead] },
          ]
        : [{ name: `${name}/kernel`, shape: [dim, h, perHead] }];
    const tensors: Tensor[] = [
      ...dense('query', query, k),
      ...dense('key', key, k),
      ...dense('value', value, v),
      { name: 'attentionOutput/kernel', shape: [h, v, ...out] },
      ...(bias ? [{ name: 'attentionOutput/bias', shape: out }] : []),
    ];
    return {
      tensors,
      summary: `${dimText(h)} heads × ${dimText(k)}`,
      notes: [
        'keyDim is the size of each head: in Keras-style attention the count grows with the number of heads (PyTorch splits one embedding instead).',
        'The attention product softmax(Q·Kᵀ/√keyDim)·V holds no parameters.',
        "TF.js's own countParams() reports 0 for this layer: its weights live in sublayers it does not track. These are the weights call() creates; apply() on symbolic inputs creates none.",
      ],
      unknownReason: unknownInput(query),
      attention: {
        embed: query,
        heads: h,
        headDim: k,
        kdim: key,
        vdim: value,
        layout: 'keras',
        valueHeadDim: v,
        output: out,
        bias,
        batchFirst: true,
        settings: [
          ['numHeads (h)', dimText(h)],
          ['keyDim (d_k, per head)', dimText(k)],
          ['valueDim (d_v, per head)', a.isNone('valueDim') ? `${dimText(v)} (= keyDim)` : dimText(v)],
          [
            'outputShape',
            a.given('outputShape') ? `[${out.map(dimText).join(', ')}]` : `[${dimText(query)}] (the query's size)`,
          ],
          ['useBias', String(bias)],
          ['query / key / value features', `${dimText(query)} / ${dimText(key)} / ${dimText(value)}`],
        ],
      },
      outFeatures: out.length === 1 ? out[0] : undefined,
      outTail: out,
      inputShape: queryShape,
      output: { k: 'last', sizes: out },
    };
  },
};

export const TFJS_ATTENTION_LAYERS: readonly [string, LayerSpec][] = [
  ['tfjs.MultiHeadAttention', MULTI_HEAD_ATTENTION],
];
