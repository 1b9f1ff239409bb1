/**
 * TF.js layers without weights, kept so that shapes can be followed past them: dropout and activations pass
 * the shape on, `flatten` and `reshape` change it, pooling shrinks the spatial axes.
 */
import type { OutputRule } from '../values/layer';
import { Poly } from '../values/symbolic';
import { asPoly } from '../values/value';
import type { Args, LayerSpec } from './spec';
import { builtShape, sizes } from './tfjsInput';
import { channelsFirst, padding } from './tfjsConv';

function weightless(kind: string, output: (a: Args) => OutputRule): LayerSpec {
  return {
    kind,
    framework: 'tfjs',
    configObject: true,
    weightless: true,
    signature: [],
    build(a) {
      return { tensors: [], summary: 'no weights', inputShape: builtShape(a, false), output: output(a) };
    },
  };
}

const same = (): OutputRule => ({ k: 'same' });

/** `reshape({targetShape})`: one -1 is inferred from the input's size. */
function reshape(a: Args): OutputRule {
  const target = a.value('targetShape');
  return { k: 'reshape', target: target.t === 'seq' ? target.items.map((i) => asPoly(i)) : undefined };
}

function pooling(rank: number) {
  return (a: Args): OutputRule => {
    const window = sizes(a, 'poolSize', rank, 2);
    return {
      k: 'windows',
      rank,
      channelsFirst: channelsFirst(a),
      window,
      strides: a.given('strides') ? sizes(a, 'strides', rank) : window,
      dilation: window.map(() => Poly.ONE),
      padding: padding(a),
    };
  };
}

const globalPooling = (a: Args): OutputRule => ({ k: 'global', channelsFirst: channelsFirst(a) });

const SAME = [
  'dropout',
  'activation',
  'reLU',
  'leakyReLU',
  'elu',
  'softmax',
  'thresholdedReLU',
  'gaussianNoise',
  'gaussianDropout',
  'alphaDropout',
  'spatialDropout1d',
  'masking',
];

export const TFJS_WEIGHTLESS_LAYERS: readonly [string, LayerSpec][] = [
  ...SAME.map((k): [string, LayerSpec] => [`tfjs.layers.${k}`, weightless(k, same)]),
  ['tfjs.layers.flatten', weightless('flatten', () => ({ k: 'flatten' }))],
  ['tfjs.layers.reshape', weightless('reshape', reshape)],
  ['tfjs.layers.dot', weightless('dot', () => ({ k: 'dot' }))],
  ...['maxPooling1d', 'averagePooling1d', 'maxPool1d', 'avgPool1d'].map((k): [string, LayerSpec] => [
    `tfjs.layers.${k}`,
    weightless(k, pooling(1)),
  ]),
  ...['maxPooling2d', 'averagePooling2d', 'maxPool2d', 'avgPool2d'].map((k): [string, LayerSpec] => [
    `tfjs.layers.${k}`,
    weightless(k, pooling(2)),
  ]),
  ...[
    'globalAveragePooling1d',
    'globalMaxPooling1d',
    'globalAveragePooling2d',
    'globalMaxPooling2d',
    'globalMaxPool1d',
    'globalMaxPool2d',
    'globalAvgPool1d',
    'globalAvgPool2d',
  ].map((k): [string, LayerSpec] => [`tfjs.layers.${k}`, weightless(k, globalPooling)]),
];
