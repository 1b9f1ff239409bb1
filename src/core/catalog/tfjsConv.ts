/**
 * TF.js convolutions: kernel [...kernelSize, inputChannels, filters] and bias [filters], with the output
 * shape TF.js computes (`valid` and `same` padding, strides, dilation; channels last unless `channelsFirst`).
 */
import type { Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { dimText, type Args, type LayerSpec } from './spec';
import { builtShape, positiveSize, sizes, unknownInput } from './tfjsInput';

export function padding(a: Args): string {
  const v = a.value('padding');
  return v.t === 'str' ? v.v : a.given('padding') ? '' : 'valid';
}

export function channelsFirst(a: Args): boolean {
  const v = a.value('dataFormat');
  return v.t === 'str' && v.v === 'channelsFirst';
}

function conv(kind: string, rank: number): LayerSpec {
  return {
    kind,
    framework: 'tfjs',
    configObject: true,
    signature: [{ name: 'filters', size: 'filters' }, { name: 'kernelSize' }, { name: 'useBias' }],
    build(a) {
      const shape = builtShape(a, false);
      const first = channelsFirst(a);
      const channels = (first ? shape?.[1] : shape?.[shape.length - 1]) ?? Poly.symbol('in');
      const filters = a.dim('filters');
      const kernel = sizes(a, 'kernelSize', rank);
      const window = kernel.map((k, i) => k ?? Poly.symbol(rank === 1 ? 'k' : `k${i + 1}`));
      const tensors: Tensor[] = [{ name: 'kernel', shape: [...window, channels, filters] }];
      if (a.flag('useBias', true)) tensors.push({ name: 'bias', shape: [filters] });
      const strides = sizes(a, 'strides', rank, 1);
      const dilation = sizes(a, 'dilationRate', rank, 1);
      return {
        tensors,
        summary: `${dimText(channels)} → ${dimText(filters)} · ${window.map(dimText).join('×')}`,
        notes: [
          `kernel [${rank === 1 ? 'kernelSize' : 'kernelHeight, kernelWidth'}, inputChannels, filters]: every output channel sees every input channel.`,
        ],
        problems: positiveSize(a, 'filters'),
        unknownReason: unknownInput(channels),
        outFeatures: first ? undefined : filters,
        inputShape: shape,
        output: {
          k: 'windows',
          rank,
          channelsFirst: first,
          window: kernel,
          strides,
          dilation,
          padding: padding(a),
          channels: filters,
        },
      };
    },
  };
}

export const TFJS_CONV_LAYERS: readonly [string, LayerSpec][] = [
  ['tfjs.layers.conv1d', conv('conv1d', 1)],
  ['tfjs.layers.conv2d', conv('conv2d', 2)],
];
