/**
 * TF.js recurrent layers (kernel [input, gates·units], recurrent_kernel [units, gates·units], bias
 * [gates·units]; LSTM has 4 gates, GRU 3, SimpleRNN 1) and the wrappers around a layer: `bidirectional`
 * builds two copies of it, `timeDistributed` builds the layer itself on each step's shape.
 */
import type { LayerInstance, Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { truthy, type Shape, type Value } from '../values/value';
import { dimText, type Args, type LayerSpec } from './spec';
import { builtShape, lastAxis, positiveSize, unknownInput } from './tfjsInput';

function recurrent(kind: string, gates: number): LayerSpec {
  return {
    kind,
    framework: 'tfjs',
    configObject: true,
    signature: [{ name: 'units', size: 'units' }, { name: 'useBias' }, { name: 'returnSequences' }],
    build(a) {
      const shape = builtShape(a, true);
      const inF = lastAxis(shape);
      const units = a.dim('units');
      const width = units.mul(Poly.int(gates));
      const tensors: Tensor[] = [
        { name: 'kernel', shape: [inF, width] },
        { name: 'recurrent_kernel', shape: [units, width] },
      ];
      if (a.flag('useBias', true)) tensors.push({ name: 'bias', shape: [width] });
      const sequences = truthy(a.value('returnSequences')) === true;
      return {
        tensors,
        summary: `${dimText(inF)} → ${dimText(units)}${gates > 1 ? ` · ${gates} gates` : ''}`,
        notes: [
          `kernel [inputDim, ${gates > 1 ? `${gates}·units` : 'units'}] reads the input, recurrent_kernel [units, ${gates > 1 ? `${gates}·units` : 'units'}] the previous state.`,
        ],
        problems: positiveSize(a, 'units'),
        unknownReason: unknownInput(inF),
        outFeatures: units,
        inputShape: shape,
        output: { k: 'recurrent', units, sequences },
      };
    },
  };
}

type LayerValue = Extract<Value, { t: 'layer' }>;

function wrapped(a: Args): LayerValue | undefined {
  const v = a.value('layer');
  return v.t === 'layer' ? v : undefined;
}

/** The wrapped layer built for `input` (`builds`: built itself, not a copy), else as its call built it. */
function innerBuild(a: Args, input: Shape | undefined, builds: boolean): LayerInstance | undefined {
  const inner = wrapped(a);
  if (!inner) return undefined;
  return (input && a.apply?.(inner, [input], builds)) ?? inner.layer;
}

const BIDIRECTIONAL: LayerSpec = {
  kind: 'bidirectional',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'layer' }, { name: 'mergeMode' }],
  build(a) {
    const shape = builtShape(a, false);
    const inner = innerBuild(a, shape, false);
    const mode = a.value('mergeMode');
    const concat = !a.given('mergeMode') || (mode.t === 'str' && mode.v === 'concat');
    const copy = (prefix: string): Tensor[] =>
      (inner?.tensors ?? []).map((t) => ({ ...t, name: `${prefix}/${t.name}` }));
    const tensors = [...copy('forward'), ...copy('backward')];
    const units = inner?.outFeatures;
    return {
      tensors,
      summary: inner ? `2 × ${inner.kind} · ${inner.summary}` : 'a layer that cannot be followed',
      notes: [
        'Bidirectional builds two copies of the layer it wraps (forward and backward); the wrapped layer itself is never built.',
      ],
      unknownReason: !inner
        ? 'The wrapped layer cannot be followed here.'
        : inner.params === undefined
          ? (inner.unknownReason ?? 'The wrapped layer has no count here.')
          : undefined,
      outFeatures: units && (concat ? units.mul(Poly.int(2)) : units),
      inputShape: shape,
      output: { k: 'bidirectional', inner: inner?.output, concat },
    };
  },
};

const TIME_DISTRIBUTED: LayerSpec = {
  kind: 'timeDistributed',
  framework: 'tfjs',
  configObject: true,
  signature: [{ name: 'layer' }],
  build(a) {
    const shape = builtShape(a, false);
    const step = shape ? [shape[0], ...shape.slice(2)] : undefined;
    const inner = innerBuild(a, step, true);
    return {
      tensors: inner?.tensors ?? [],
      summary: inner ? `${inner.kind} on each step · ${inner.summary}` : 'a layer that cannot be followed',
      notes: ["TimeDistributed builds the layer it wraps on one step's shape: the weights are that layer's own."],
      unknownReason: !inner
        ? 'The wrapped layer cannot be followed here.'
        : inner.params === undefined
          ? (inner.unknownReason ?? 'The wrapped layer has no count here.')
          : undefined,
      outFeatures: inner?.outFeatures,
      inputShape: shape,
      output: { k: 'perStep', inner: inner?.output },
    };
  },
};

export const TFJS_RECURRENT_LAYERS: readonly [string, LayerSpec][] = [
  ['tfjs.layers.lstm', recurrent('lstm', 4)],
  ['tfjs.layers.gru', recurrent('gru', 3)],
  ['tfjs.layers.simpleRNN', recurrent('simpleRNN', 1)],
  ['tfjs.layers.bidirectional', BIDIRECTIONAL],
  ['tfjs.layers.timeDistributed', TIME_DISTRIBUTED],
];
