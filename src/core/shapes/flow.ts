/**
 * Shapes carried from one TF.js layer to the next, as far as the code shows them: `tf.input`, eager
 * tensors, `layer.apply(x)`, `mha.call(query, {value, key})`, `tf.sequential({layers})` and `model.add`.
 * Each tensor remembers the layers it went through, as they were built there, for `tf.model`'s total.
 * Where a shape cannot be followed the flow stops and the next layer's input size stays unknown.
 */
import { applyRule } from './outputRules';
import type { LayerInstance } from '../values/layer';
import { Poly } from '../values/symbolic';
import { asPoly, UNKNOWN, type LayerUse, type Shape, type Value } from '../values/value';

export const APPLY_METHODS = new Set(['apply', 'call', 'callAndReturnAttentionScores']);

function shapeFrom(v: Value | undefined, withBatch: boolean): Shape | undefined {
  if (v?.t !== 'seq') return undefined;
  const dims = v.items.map((i) => asPoly(i));
  return withBatch ? dims : [undefined, ...dims];
}

/** `tf.input({shape})`, `tf.zeros([..])` and friends, `tf.reshape(x, shape)`. */
export function tensorSource(path: string, args: readonly Value[]): Value | undefined {
  const name = path.slice(path.lastIndexOf('.') + 1);
  if (!path.startsWith('tfjs.') || path.startsWith('tfjs.layers.')) return undefined;
  if (name === 'input') {
    const config = args[0];
    const shape =
      config?.t === 'dict'
        ? (shapeFrom(config.fields.get('shape'), false) ?? shapeFrom(config.fields.get('batchShape'), true))
        : undefined;
    return shape ? { t: 'tensor', shape, history: [] } : UNKNOWN;
  }
  if (['zeros', 'ones', 'randomNormal', 'randomUniform', 'truncatedNormal', 'fill'].includes(name)) {
    const shape = shapeFrom(args[0], true);
    return shape ? { t: 'tensor', shape } : UNKNOWN;
  }
  if (name === 'reshape') {
    const shape = shapeFrom(args[1], true);
    return shape ? { t: 'tensor', shape } : UNKNOWN;
  }
  return undefined;
}

/** What a layer produces from an input of `shape`. */
export function outputShape(layer: LayerInstance, shape: Shape): Shape {
  if (layer.output) return applyRule(layer.output, shape);
  if (layer.appendsAxis) return layer.outFeatures ? [...shape, layer.outFeatures] : [...shape, undefined];
  const tail = layer.outTail ?? (layer.outFeatures ? [layer.outFeatures] : [shape[shape.length - 1]]);
  return [...shape.slice(0, -1), ...tail];
}

/** The layers two tensors went through, each once (a shared layer holds one set of weights). */
export function mergeHistory(lists: readonly (readonly LayerUse[] | undefined)[]): LayerUse[] | undefined {
  if (lists.some((l) => l === undefined)) return undefined;
  const out: LayerUse[] = [];
  for (const list of lists) for (const use of list!) if (!out.some((u) => u.layer === use.layer)) out.push(use);
  return out;
}

/**
 * A layer or weightless op applied to `inputs` (none for the first layer of a chain): the tensor it returns.
 * `build` builds the layer for the inputs (TF.js sizes its weights by the first).
 */
export function feed(
  target: Value,
  inputs: readonly Extract<Value, { t: 'tensor' }>[],
  build: (layer: Extract<Value, { t: 'layer' }>, inputs: readonly Shape[]) => LayerInstance | undefined,
): { shape: Shape; built?: LayerInstance } | undefined {
  const first = inputs[0];
  if (target.t === 'op') {
    if (!first) return undefined;
    if (target.op === 'concatenate') {
      const last = inputs.map((s) => s.shape[s.shape.length - 1]);
      const sum = last.every((d): d is Poly => d !== undefined)
        ? last.reduce((a, d) => a.add(d), Poly.ZERO)
        : undefined;
      return { shape: [...first.shape.slice(0, -1), sum] };
    }
    return { shape: first.shape };
  }
  if (target.t !== 'layer' || target.build === undefined) return undefined;
  if (!first) {
    const declared = target.layer.inputShape;
    return declared ? { shape: outputShape(target.layer, declared), built: target.layer } : undefined;
  }
  const built = build(
    target,
    inputs.map((i) => i.shape),
  );
  return built && { shape: outputShape(built, first.shape), built };
}

/** The tensors a call passes: `x`, `[a, b]`, and for attention `{value, key}`. */
export function appliedTensors(args: readonly Value[]): Extract<Value, { t: 'tensor' }>[] | undefined {
  const [first, options] = args;
  const tensors: Extract<Value, { t: 'tensor' }>[] = [];
  if (first?.t === 'tensor') tensors.push(first);
  else if (first?.t === 'seq' && first.items.every((i) => i.t === 'tensor'))
    for (const i of first.items) tensors.push(i as Extract<Value, { t: 'tensor' }>);
  else return undefined;
  if (options?.t === 'dict') {
    const value = options.fields.get('value');
    const key = options.fields.get('key');
    if (value?.t === 'tensor') tensors.push(value);
    if (key?.t === 'tensor') tensors.push(key);
  }
  return tensors;
}
