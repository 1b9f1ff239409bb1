/**
 * TensorFlow.js layers, counted by the weights they really create when built (MultiHeadAttention's own
 * countParams() reports 0). Input sizes come from the layer's config or from what it is applied to.
 * Checked by scripts/ground-truth/js_layers.mjs.
 */
import type { Tensor } from '../layer';
import { Poly } from '../symbolic';
import { asPoly, type Value } from '../value';
import { dimText, type Args, type LayerSpec } from './spec';

/** The feature size a TF.js layer reads: what it is applied to, else `inputDim` or the last of `inputShape`. */
function inputFeatures(a: Args, index = 0): Poly {
  const applied = a.inputs[index];
  if (applied) return applied;
  const dim = asPoly(a.value('inputDim'));
  if (dim) return dim;
  for (const key of ['inputShape', 'batchInputShape']) {
    const shape = a.value(key);
    const last = shape.t === 'seq' ? shape.items[shape.items.length - 1] : undefined;
    const p = last && asPoly(last);
    if (p) return p;
  }
  return Poly.symbol('in');
}

function shapeOf(v: Value): Poly[] | undefined {
  if (v.t === 'seq') {
    const dims = v.items.map(asPoly);
    return dims.every((d): d is Poly => d !== undefined) ? dims : undefined;
  }
  const p = asPoly(v);
  return p ? [p] : undefined;
}

/** `inputShape` / `batchInputShape` / `inputDim` of the config, batch first. */
function declaredShape(a: Args): (Poly | undefined)[] | undefined {
  const shape = a.value('inputShape');
  if (shape.t === 'seq') return [undefined, ...shape.items.map(asPoly)];
  const batch = a.value('batchInputShape');
  if (batch.t === 'seq') return batch.items.map(asPoly);
  const dim = asPoly(a.value('inputDim'));
  return dim ? [undefined, dim] : undefined;
}

const UNKNOWN_INPUT = 'The input size is set when the layer is first applied, and this file does not show what it is applied to.';

const DENSE: LayerSpec = {
  kind: 'dense',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'units', size: 'units' }, { name: 'useBias' }, { name: 'inputDim', size: 'in' }],
  build(a) {
    const inF = inputFeatures(a);
    const units = a.dim('units');
    const tensors: Tensor[] = [{ name: 'kernel', shape: [inF, units] }];
    if (a.flag('useBias', true)) tensors.push({ name: 'bias', shape: [units] });
    return {
      tensors,
      summary: `${dimText(inF)} → ${dimText(units)}`,
      notes: ['y = x·kernel + bias with kernel [inputDim, units], applied to the last axis.'],
      unknownReason: inF.symbols.includes('in') ? UNKNOWN_INPUT : undefined,
      outFeatures: units,
      inputShape: declaredShape(a),
    };
  },
};

const LAYER_NORMALIZATION: LayerSpec = {
  kind: 'layerNormalization',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'center' }, { name: 'scale' }],
  build(a) {
    const d = inputFeatures(a);
    const tensors: Tensor[] = [];
    if (a.flag('scale', true)) tensors.push({ name: 'gamma', shape: [d] });
    if (a.flag('center', true)) tensors.push({ name: 'beta', shape: [d] });
    return { tensors, summary: `over [${dimText(d)}]`, unknownReason: d.symbols.includes('in') ? UNKNOWN_INPUT : undefined, outFeatures: d };
  },
};

const EMBEDDING: LayerSpec = {
  kind: 'embedding',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'inputDim', size: 'V' }, { name: 'outputDim', size: 'D' }],
  build(a) {
    const V = a.dim('inputDim');
    const D = a.dim('outputDim');
    return { tensors: [{ name: 'embeddings', shape: [V, D] }], summary: `${dimText(V)} × ${dimText(D)}`, outFeatures: D, appendsAxis: true };
  },
};

/** Keras layout: per-head kernels [dim, heads, keyDim] and an output kernel [heads, valueDim, ...outputShape]. */
const MULTI_HEAD_ATTENTION: LayerSpec = {
  kind: 'MultiHeadAttention',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'numHeads', size: 'h' }, { name: 'keyDim', size: 'd_k' }, { name: 'valueDim', size: 'd_v' }, { name: 'useBias' }, { name: 'outputShape' }],
  build(a) {
    const h = a.dim('numHeads');
    const k = a.dim('keyDim');
    const v = a.isNone('valueDim') ? k : a.dim('valueDim');
    const query = inputFeatures(a, 0);
    const value = a.inputs[1] ?? query;
    const key = a.inputs[2] ?? value;
    const out = a.given('outputShape') ? shapeOf(a.value('outputShape')) ?? [Poly.symbol('out')] : [query];
    const bias = a.flag('useBias', true);
    const dense = (name: string, dim: Poly, perHead: Poly): Tensor[] =>
      bias ? [{ name: `${name}/kernel`, shape: [dim, h, perHead] }, { name: `${name}/bias`, shape: [h, perHead] }] : [{ name: `${name}/kernel`, shape: [dim, h, perHead] }];
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
        'The attention product softmax(Q·Kᵀ/√keyDim)·V holds no parameters. countParams() reports 0 before the layer is built; these are the weights it creates on its first call.',
      ],
      unknownReason: query.symbols.includes('in') ? UNKNOWN_INPUT : undefined,
      attention: {
        embed: query, heads: h, headDim: k, kdim: key, vdim: value, layout: 'keras', valueHeadDim: v, output: out, bias, batchFirst: true,
        settings: [
          ['numHeads (h)', dimText(h)], ['keyDim (d_k, per head)', dimText(k)], ['valueDim (d_v, per head)', a.isNone('valueDim') ? `${dimText(v)} (= keyDim)` : dimText(v)],
          ['outputShape', a.given('outputShape') ? `[${out.map(dimText).join(', ')}]` : `[${dimText(query)}] (the query's size)`], ['useBias', String(bias)],
          ['query / key / value features', `${dimText(query)} / ${dimText(key)} / ${dimText(value)}`],
        ],
      },
      outFeatures: out.length === 1 ? out[0] : undefined,
      outTail: out,
    };
  },
};

export const TFJS_LAYERS: ReadonlyMap<string, LayerSpec> = new Map([
  ['tfjs.layers.dense', DENSE],
  ['tfjs.layers.layerNormalization', LAYER_NORMALIZATION],
  ['tfjs.layers.embedding', EMBEDDING],
  ['tfjs.MultiHeadAttention', MULTI_HEAD_ATTENTION],
]);

/** Layers without weights that pass the feature size through, so a chain can be followed past them. */
export const TFJS_PASS_THROUGH = new Set(['dropout', 'batchNormalization', 'activation', 'reLU', 'leakyReLU', 'softmax', 'gaussianNoise', 'gaussianDropout', 'spatialDropout1d']);
