/**
 * TensorFlow.js tensor operations, as functions (`tf.matMul(q, k, false, true)`, `tf.reshape(x, shape)`,
 * `tf.transpose(x, perm)`) and as tensor methods (`q.matMul(k)`, `x.reshape([...]).transpose([0, 2, 1, 3])`):
 * the shapes TF.js gives where they are known, and the traces that let attention written by hand be found.
 * Operations with torch's meaning under the same name (`transpose(1, 2)`, js-pytorch's) are left to it.
 */
import type { Span } from '../ir/expr';
import { carry, softmaxed } from '../shapes/trace';
import { OPAQUE, features, tensorMethod, untracked, type Tensor } from '../shapes/tensors';
import { asPoly, int, truthy, type Value } from '../values/value';
import type { ShapeChecks } from './shapeChecks';

/** `t.name(...args)` or `tf.name(t, ...args)`; undefined for what is not a TF.js operation on a tensor. */
export function tfjsTensorOp(
  checks: ShapeChecks,
  name: string,
  t: Tensor,
  args: readonly Value[],
  span: Span,
): Value | undefined {
  const [a, b, c] = args;
  switch (name) {
    case 'matMul':
      return a?.t === 'tensor'
        ? checks.product(t, a, matMulShape(t, a, !!(b && truthy(b)), !!(c && truthy(c))))
        : undefined;
    case 'reshape':
      return a?.t === 'seq' ? checks.tensorMethod(t, 'reshape', [a], new Map(), span) : undefined;
    case 'transpose':
      // TF.js takes a permutation (reversed axes without one); torch's transpose(1, 2) takes two axes.
      if (a === undefined)
        return t.partial ? untracked(t) : carry({ t: 'tensor', shape: [...t.shape].reverse(), origin: t.origin }, t);
      return a.t === 'seq' ? tensorMethod(t, 'permute', a.items, new Map()) : undefined;
    case 'softmax':
      return softmaxed(t);
    case 'split':
      // `tf.split(x, 2, -1)`: equal parts along the axis (0 unless given), as torch's chunk.
      return a && asPoly(a)?.constant !== undefined ? tensorMethod(t, 'chunk', [a, b ?? int(0)], new Map()) : undefined;
    case 'tile':
      return tiled(t, a);
    case 'mul':
    case 'div':
    case 'add':
    case 'sub':
      if (a?.t === 'tensor') return checks.broadcast({ mul: '*', div: '/', add: '+', sub: '-' }[name], t, a, undefined);
      // A number keeps the shape; anything else may be a tensor of another rank.
      return a?.t === 'int' || a?.t === 'float' || a?.t === 'sym' ? t : untracked(t);
    default:
      return undefined;
  }
}

/** `a × b` with either transposed first, batch dimensions kept. */
function matMulShape(a: Tensor, b: Tensor, transposeA: boolean, transposeB: boolean): Tensor {
  const swap = (t: Tensor, yes: boolean) =>
    yes ? [...t.shape.slice(0, -2), t.shape[t.shape.length - 1], t.shape[t.shape.length - 2]] : t.shape;
  if (a.partial || b.partial || a.shape.length < 2 || b.shape.length < 2) {
    const last = transposeB ? (b.partial ? undefined : b.shape[b.shape.length - 2]) : features(b);
    return { ...OPAQUE, shape: [last] };
  }
  const left = swap(a, transposeA);
  const right = swap(b, transposeB);
  return { t: 'tensor', shape: [...left.slice(0, -1), right[right.length - 1]], origin: b.origin };
}

/** `tf.tile(x, reps)`: each dimension times its repetitions. */
function tiled(t: Tensor, reps: Value | undefined): Value {
  if (reps?.t !== 'seq' || t.partial || reps.items.length !== t.shape.length) return untracked(t);
  const shape = t.shape.map((d, i) => {
    const r = asPoly(reps.items[i]);
    return d && r ? d.mul(r) : undefined;
  });
  return carry({ t: 'tensor', shape, origin: t.origin }, t);
}
