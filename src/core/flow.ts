/**
 * Shapes carried from one TF.js layer to the next, as far as the code shows them: `tf.input`, eager
 * tensors, `layer.apply(x)`, `mha.call(query, {value, key})`, `tf.sequential({layers})` and `model.add`.
 * Where a shape cannot be followed the flow stops and the next layer's input size stays unknown.
 */
import type { LayerInstance } from './layer';
import { Poly } from './symbolic';
import { asPoly, UNKNOWN, type Shape, type Value } from './value';

export const APPLY_METHODS = new Set(['apply', 'call', 'callAndReturnAttentionScores']);

function shapeFrom(v: Value | undefined, withBatch: boolean): Shape | undefined {
  if (v?.t !== 'seq') return undefined;
  const dims = v.items.map((i) => asPoly(i));
  return withBatch ? dims : [undefined, ...dims];
}

/** `tf.input({shape})`, `tf.zeros([..])` and friends, `tf.reshape(x, shape)`. */
export function tensorSource(path: string, args: readonly Value[]): Value | undefined {
  const name = path.slice(path.lastIndexOf('.') + 1);
  if (!path.startsWith('tfjs.')) return undefined;
  if (name === 'input') {
    const config = args[0];
    const shape = config?.t === 'dict' ? shapeFrom(config.fields.get('shape'), false) ?? shapeFrom(config.fields.get('batchShape'), true) : undefined;
    return shape ? { t: 'tensor', shape } : UNKNOWN;
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
  if (layer.appendsAxis) return layer.outFeatures ? [...shape, layer.outFeatures] : [...shape, undefined];
  const tail = layer.outTail ?? (layer.outFeatures ? [layer.outFeatures] : [shape[shape.length - 1]]);
  return [...shape.slice(0, -1), ...tail];
}

export function flatten(shape: Shape): Shape {
  const rest = shape.slice(1);
  const product = rest.every((d): d is Poly => d !== undefined) ? rest.reduce((a, d) => a.mul(d), Poly.ONE) : undefined;
  return [shape[0], product];
}

/** Feeds `shape` (undefined for the first layer of a chain) through a layer or a weightless op. */
export function feed(target: Value, inputs: readonly Shape[]): Shape | undefined {
  const first = inputs[0];
  if (target.t === 'op') {
    if (!first) return undefined;
    if (target.op === 'flatten') return flatten(first);
    if (target.op === 'concatenate') {
      const last = inputs.map((s) => s[s.length - 1]);
      const sum = last.every((d): d is Poly => d !== undefined) ? last.reduce((a, d) => a.add(d), Poly.ZERO) : undefined;
      return [...first.slice(0, -1), sum];
    }
    return first;
  }
  if (target.t !== 'layer' || !target.applied) return undefined;
  if (!first) {
    const declared = target.layer.inputShape;
    return declared ? outputShape(target.layer, declared) : undefined;
  }
  return outputShape(target.applied(inputs), first);
}

/** The shapes a call passes: `x`, `[a, b]`, and for attention `{value, key}`. */
export function appliedShapes(args: readonly Value[]): Shape[] | undefined {
  const [first, options] = args;
  const shapes: Shape[] = [];
  if (first?.t === 'tensor') shapes.push(first.shape);
  else if (first?.t === 'seq' && first.items.every((i) => i.t === 'tensor')) for (const i of first.items) shapes.push((i as { shape: Shape }).shape);
  else return undefined;
  if (options?.t === 'dict') {
    const value = options.fields.get('value');
    const key = options.fields.get('key');
    if (value?.t === 'tensor') shapes.push(value.shape);
    if (key?.t === 'tensor') shapes.push(key.shape);
  }
  return shapes;
}
