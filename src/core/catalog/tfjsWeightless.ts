/**
 * TF.js layers without weights, kept so that shapes can be followed past them: dropout and activations pass
 * the shape on, `flatten` and `reshape` change it, pooling shrinks the spatial axes.
 */
import { Poly } from '../values/symbolic';
import { asPoly, type Shape } from '../values/value';
import type { Args, LayerSpec } from './spec';
import { builtShape, sizes } from './tfjsInput';
import { channelsFirst, padding, spatialOut } from './tfjsConv';

function weightless(kind: string, reshape: (a: Args) => (input: Shape) => Shape): LayerSpec {
  return {
    kind,
    framework: 'tfjs',
    configObject: true,
    weightless: true,
    signature: [],
    build(a) {
      return { tensors: [], summary: 'no weights', inputShape: builtShape(a, false), reshape: reshape(a) };
    },
  };
}

const same = () => (input: Shape) => input;

function product(dims: Shape): Poly | undefined {
  return dims.every((d): d is Poly => d !== undefined) ? dims.reduce((p, d) => p.mul(d), Poly.ONE) : undefined;
}

/** `reshape({targetShape})`: one -1 is inferred from the input's size. */
const reshape =
  (a: Args) =>
  (input: Shape): Shape => {
    const target = a.value('targetShape');
    if (target.t !== 'seq') return [input[0], undefined];
    const dims = target.items.map((i) => asPoly(i));
    const free = dims.findIndex((d) => d?.constant === -1n);
    if (free >= 0) {
      const whole = product(input.slice(1));
      const rest = product(dims.filter((_, i) => i !== free));
      const inferred = whole?.constant !== undefined && rest?.constant ? whole.constant / rest.constant : undefined;
      dims[free] = inferred === undefined ? undefined : Poly.int(inferred);
    }
    return [input[0], ...dims];
  };

function pooling(rank: number) {
  return (a: Args) =>
    (input: Shape): Shape => {
      const first = channelsFirst(a);
      const window = sizes(a, 'poolSize', rank, 2);
      const given = a.given('strides') ? sizes(a, 'strides', rank) : window;
      const out = spatialOut(
        input,
        rank,
        first,
        window,
        given,
        window.map(() => Poly.ONE),
        padding(a),
      );
      return first ? [input[0], input[1], ...out] : [input[0], ...out, input[input.length - 1]];
    };
}

const globalPooling =
  (a: Args) =>
  (input: Shape): Shape => [input[0], channelsFirst(a) ? input[1] : input[input.length - 1]];

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
  ['tfjs.layers.flatten', weightless('flatten', () => (input) => [input[0], product(input.slice(1))])],
  ['tfjs.layers.reshape', weightless('reshape', reshape)],
  // The dot product of two vectors per example: one number each.
  [
    'tfjs.layers.dot',
    weightless('dot', () => (input) => (input.length === 2 ? [input[0], Poly.ONE] : [input[0], undefined])),
  ],
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
