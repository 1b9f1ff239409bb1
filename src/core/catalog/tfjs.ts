/**
 * TensorFlow.js layers as tfjs-layers 4.22 builds them: the weights each creates (what `countParams()`
 * reports, non-trainable moving statistics included) and the shape it produces. Input sizes come from what
 * the layer is first applied to, else from its config in TF.js's own order. Checked by
 * scripts/ground-truth/js_catalog.mjs and js_layers.mjs.
 */
import type { Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { asPoly, type Shape } from '../values/value';
import { dimText, type Args, type LayerSpec } from './spec';
import { builtShape, lastAxis, positiveSize, unknownInput } from './tfjsInput';
import { TFJS_CONV_LAYERS } from './tfjsConv';
import { TFJS_RECURRENT_LAYERS } from './tfjsRecurrent';
import { TFJS_ATTENTION_LAYERS } from './tfjsAttention';
import { TFJS_WEIGHTLESS_LAYERS } from './tfjsWeightless';

const DENSE: LayerSpec = {
  kind: 'dense',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'units', size: 'units' }, { name: 'useBias' }],
  build(a) {
    const shape = builtShape(a, true);
    const inF = lastAxis(shape);
    const units = a.dim('units');
    const tensors: Tensor[] = [{ name: 'kernel', shape: [inF, units] }];
    if (a.flag('useBias', true)) tensors.push({ name: 'bias', shape: [units] });
    return {
      tensors,
      summary: `${dimText(inF)} → ${dimText(units)}`,
      notes: ['y = x·kernel + bias with kernel [inputDim, units], applied to the last axis.'],
      problems: positiveSize(a, 'units'),
      unknownReason: unknownInput(inF),
      outFeatures: units,
      inFeatures: inF,
      inputShape: shape,
      output: { k: 'last', sizes: [units] },
    };
  },
};

/** The sizes of the normalised axes: the last by default, or those `axis` names (batch axis counted). */
function normalisedAxes(a: Args, shape: Shape | undefined): Poly[] {
  const axis = a.value('axis');
  const picks =
    axis.t === 'seq' ? axis.items.map((i) => asPoly(i)?.constant) : a.given('axis') ? [asPoly(axis)?.constant] : [-1n];
  return picks.map((i) => {
    if (!shape || i === undefined) return Poly.symbol('in');
    const at = Number(i < 0n ? BigInt(shape.length) + i : i);
    return shape[at] ?? Poly.symbol('in');
  });
}

const LAYER_NORMALIZATION: LayerSpec = {
  kind: 'layerNormalization',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'center' }, { name: 'scale' }, { name: 'axis' }],
  build(a) {
    const shape = builtShape(a, false);
    const axes = normalisedAxes(a, shape);
    const tensors: Tensor[] = [];
    if (a.flag('scale', true)) tensors.push({ name: 'gamma', shape: axes });
    if (a.flag('center', true)) tensors.push({ name: 'beta', shape: axes });
    return {
      tensors,
      summary: `over [${axes.map(dimText).join(', ')}]`,
      unknownReason: unknownInput(...axes),
      outFeatures: shape?.[shape.length - 1],
      inputShape: shape,
      output: { k: 'same' },
    };
  },
};

const BATCH_NORMALIZATION: LayerSpec = {
  kind: 'batchNormalization',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'center' }, { name: 'scale' }, { name: 'axis' }],
  build(a) {
    const shape = builtShape(a, false);
    const [c] = normalisedAxes(a, shape);
    const tensors: Tensor[] = [];
    if (a.flag('scale', true)) tensors.push({ name: 'gamma', shape: [c] });
    if (a.flag('center', true)) tensors.push({ name: 'beta', shape: [c] });
    tensors.push({ name: 'moving_mean', shape: [c] }, { name: 'moving_variance', shape: [c] });
    return {
      tensors,
      summary: `over ${dimText(c)} channels`,
      notes: [
        'moving_mean and moving_variance are not trainable, but they are weights: countParams() and model.summary() count them.',
      ],
      unknownReason: unknownInput(c),
      outFeatures: shape?.[shape.length - 1],
      inputShape: shape,
      output: { k: 'same' },
    };
  },
};

const EMBEDDING: LayerSpec = {
  kind: 'embedding',
  framework: 'tfjs',
  configObject: true,
  signature: [
    { name: 'inputDim', size: 'V' },
    { name: 'outputDim', size: 'D' },
  ],
  build(a) {
    const V = a.dim('inputDim');
    const D = a.dim('outputDim');
    return {
      tensors: [{ name: 'embeddings', shape: [V, D] }],
      summary: `${dimText(V)} × ${dimText(D)}`,
      problems: [...positiveSize(a, 'inputDim'), ...positiveSize(a, 'outputDim')],
      outFeatures: D,
      appendsAxis: true,
      // Without a declared shape TF.js takes [batch, inputLength]: an embedding can start a model alone.
      inputShape: builtShape(a, false) ?? [undefined, asPoly(a.value('inputLength'))],
      output: { k: 'append', size: D },
    };
  },
};

export const TFJS_LAYERS: ReadonlyMap<string, LayerSpec> = new Map([
  ['tfjs.layers.dense', DENSE],
  ['tfjs.layers.layerNormalization', LAYER_NORMALIZATION],
  ['tfjs.layers.batchNormalization', BATCH_NORMALIZATION],
  ['tfjs.layers.embedding', EMBEDDING],
  ...TFJS_CONV_LAYERS,
  ...TFJS_RECURRENT_LAYERS,
  ...TFJS_ATTENTION_LAYERS,
  ...TFJS_WEIGHTLESS_LAYERS,
]);
