/**
 * Tensor sizes followed through forward(): only what the code states is used (an explicit view, a split
 * along the last axis); anything else makes the size unknown and the checks after it stay silent.
 */
import { carry, softmaxed, splitHeads } from './trace';
import { Poly } from '../values/symbolic';
import { indexDims, shapeOf } from './views';
import { asPoly, SCALAR, UNKNOWN, type Origin, type Value } from '../values/value';
import { LIMITS } from '../limits/budget';

export type Tensor = Extract<Value, { t: 'tensor' }>;

/** An input whose sizes are not known at all (a forward() argument). */
export const OPAQUE: Tensor = { t: 'tensor', shape: [undefined], partial: true };

export function features(t: Tensor): Poly | undefined {
  return t.shape[t.shape.length - 1];
}

export function withFeatures(t: Tensor, f: Poly | undefined, origin?: Origin): Tensor {
  return { t: 'tensor', shape: [...t.shape.slice(0, -1), f], partial: t.partial, origin, trace: t.trace, lead: t.lead };
}

/** The result of an operation on `t` that this file does not follow: a tensor of unknown shape, still traced. */
export function untracked(t: Tensor): Value {
  return t.trace ? { ...OPAQUE, trace: t.trace } : UNKNOWN;
}

/** Functions that keep the shape: activations, dropout, softmax over any axis, scaling. */
export const SHAPE_PRESERVING = new Set([
  'relu',
  'gelu',
  'silu',
  'tanh',
  'sigmoid',
  'softmax',
  'log_softmax',
  'dropout',
  'elu',
  'leaky_relu',
  'mish',
  'softplus',
  'hardswish',
  'normalize',
  'layer_norm',
  'rms_norm',
  'exp',
  'log',
  'log1p',
  'sin',
  'cos',
  'reciprocal',
  'square',
  'clamp',
  'abs',
  'neg',
  'sqrt',
  'rsqrt',
  'clone',
  'contiguous',
  'float',
  'half',
  'bfloat16',
  'to',
  'detach',
  'type_as',
  'masked_fill',
  'cuda',
  'cpu',
  'mul',
  'add',
  'tril',
  'triu',
]);

function axis(v: Value | undefined, rank: number | undefined): number | undefined {
  const c = v ? asPoly(v)?.constant : undefined;
  if (c === undefined) return undefined;
  const n = Number(c);
  if (n < 0) return rank === undefined ? n : rank + n;
  return n;
}

/** Whether `dim` is the last axis: -1 always, a positive index only when the rank is known. */
function isLast(dim: number | undefined, t: Tensor): boolean {
  if (dim === undefined) return false;
  return dim === -1 || (!t.partial && dim === t.shape.length - 1);
}

/** `x.view(B, T, C)`, `x.transpose(1, 2)`, `x.split(n, dim=-1)` and friends. */
export function tensorMethod(
  t: Tensor,
  method: string,
  args: readonly Value[],
  keywords: ReadonlyMap<string, Value>,
): Value {
  const result = shapeMethod(t, method, args, keywords);
  if (method === 'view' || method === 'reshape') return headSplit(t, result);
  if (method === 'softmax' && result.t === 'tensor') return softmaxed(result);
  if (method === 'size' || method === 'dim') return result;
  return result.t === 'unknown' ? untracked(t) : carry(result, t);
}

/**
 * `t.tolist()` of a tensor whose shape is known (timm's drop-path rates, `torch.linspace(0, rate, n)`): lists
 * as long as its dimensions, of numbers not known.
 */
function listed(t: Tensor): Value {
  const dims = t.partial ? undefined : t.shape.map((d) => d?.constant);
  if (!dims || dims.some((d) => d === undefined)) return UNKNOWN;
  if (dims.reduce((a: bigint, d) => a * d!, 1n) > BigInt(LIMITS.listItems)) return UNKNOWN;
  const build = (at: number): Value =>
    at === dims.length ? SCALAR : { t: 'seq', items: Array.from({ length: Number(dims[at]) }, () => build(at + 1)) };
  return build(0);
}

/** `t.split([2, 2, 6])`: a part of each size along `dim` (0 unless given), where they add up to its length. */
function splitSections(t: Tensor, sizes: readonly Value[], dimValue: Value | undefined): Value {
  const rank = t.partial ? undefined : t.shape.length;
  const dim = axis(dimValue ?? { t: 'int', p: Poly.ZERO }, rank);
  if (rank === undefined || dim === undefined || sizes.length > 64) return UNKNOWN;
  const at = dim < 0 ? rank + dim : dim;
  const each = sizes.map((v) => asPoly(v)?.constant);
  const length = t.shape[at]?.constant;
  if (
    length === undefined ||
    each.some((n) => n === undefined || n < 0n) ||
    each.reduce((a: bigint, n) => a + n!, 0n) !== length
  )
    return UNKNOWN;
  return {
    t: 'seq',
    tuple: true,
    items: each.map((n): Value => ({ t: 'tensor', shape: t.shape.map((d, i) => (i === at ? Poly.int(n!) : d)) })),
  };
}

/** A reshape whose last axis no longer holds the features splits them into (heads, head size). */
export function headSplit(t: Tensor, result: Value): Value {
  if (result.t !== 'tensor') return untracked(t);
  const source = t.trace?.source;
  // The first split names the heads: a later reshape (rotary pairs, merging back) does not.
  if (!source?.layer || t.trace?.core || source.heads) return carry(result, t);
  const last = features(result);
  const width = features(t);
  // A view of known rank 3 or more, or one after leading dimensions not known (`x.size()[:-1] + (h, d)`).
  const splits =
    (result.shape.length >= 3 || (!!result.partial && result.shape.length >= 2)) &&
    !(last && width && last.equals(width));
  return {
    ...result,
    trace: {
      source: splits
        ? splitHeads({ ...source, width: source.width ?? width }, result.shape, t.partial ? undefined : t.shape.length)
        : source,
    },
  };
}

function shapeMethod(t: Tensor, method: string, args: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
  const rank = t.partial ? undefined : t.shape.length;
  switch (method) {
    case 'view':
    case 'reshape': {
      const dims = args.length === 1 && args[0].t === 'seq' ? args[0].items : args;
      const shape = dims.map((d) => {
        const p = asPoly(d);
        return p && p.constant !== -1n ? p : undefined;
      });
      return dims.length ? { t: 'tensor', shape, origin: t.origin } : UNKNOWN;
    }
    case 'transpose':
    case 'swapaxes': {
      const a = axis(args[0], rank);
      const b = axis(args[1], rank);
      if (a === undefined || b === undefined) return UNKNOWN;
      if (rank === undefined) {
        // Without the rank, only swaps of negative axes other than -1 are known to keep the last axis.
        return a < -1 && b < -1 ? t : withFeatures(t, undefined);
      }
      const shape = [...t.shape];
      [shape[a], shape[b]] = [shape[b], shape[a]];
      return { t: 'tensor', shape, origin: t.origin };
    }
    case 'permute': {
      const order = (args.length === 1 && args[0].t === 'seq' ? args[0].items : args).map((v) => axis(v, rank));
      if (rank === undefined || order.some((o) => o === undefined) || order.length !== rank)
        return withFeatures(t, undefined);
      return { t: 'tensor', shape: order.map((o) => t.shape[o!]), origin: t.origin };
    }
    case 'item':
      return SCALAR;
    case 'tolist':
      return listed(t);
    case 'split':
    case 'chunk': {
      const sections = method === 'split' ? (keywords.get('split_size_or_sections') ?? args[0]) : undefined;
      if (sections?.t === 'seq') return splitSections(t, sections.items, keywords.get('dim') ?? args[1]);
      const dim =
        axis(keywords.get('dim') ?? args[1], rank) ?? (method === 'split' || method === 'chunk' ? 0 : undefined);
      const total = features(t);
      const n = asPoly(keywords.get(method === 'split' ? 'split_size_or_sections' : 'chunks') ?? args[0] ?? UNKNOWN);
      if (!total || !n || (n.constant !== undefined && n.constant <= 0n)) return UNKNOWN;
      const size = method === 'split' ? n : n.constant !== undefined ? total.divExact(n.constant) : undefined;
      const count = method === 'split' ? quotient(total, n) : n;
      if (!size || count?.constant === undefined || count.constant > 64n) return UNKNOWN;
      const last = isLast(dim, t);
      // `qkv.split(E, dim=2)` of a tensor whose rank is not known: the split is taken to be along the
      // features for the trace of a fused projection only; its shapes stay unknown.
      if (!last && !(t.partial && dim !== undefined && dim > 0 && t.trace?.source?.layer)) return UNKNOWN;
      const item = last ? withFeatures(t, size, t.origin) : { ...OPAQUE, trace: t.trace, lead: t.lead };
      return { t: 'seq', items: Array.from({ length: Number(count.constant) }, (_, i) => part(item, i, size)) };
    }
    case 'unbind': {
      // `q, k, v = qkv.unbind(0)` after a reshape to (3, B, heads, T, head size); xformers' `.unbind(2)` of
      // (B, N, 3, heads, head size).
      const dim =
        rank === undefined ? undefined : axis(keywords.get('dim') ?? args[0] ?? { t: 'int', p: Poly.ZERO }, rank);
      const count = dim === undefined || dim < 0 || dim >= rank! ? undefined : t.shape[dim]?.constant;
      if (count === undefined || count > 64n) return UNKNOWN;
      const shape = t.shape.filter((_, i) => i !== dim);
      return {
        t: 'seq',
        items: Array.from({ length: Number(count) }, (_, i) =>
          part({ t: 'tensor', shape, origin: t.origin, trace: t.trace }, i),
        ),
      };
    }
    case 'size': {
      const shape = shapeOf(t);
      const i = args[0] ? asPoly(args[0])?.constant : undefined;
      if (!args[0]) return shape;
      if (i === undefined) return UNKNOWN;
      if (shape.t === 'dims') return indexDims(shape, Number(i));
      return shape.t === 'seq'
        ? (shape.items[Number(i < 0n ? BigInt(shape.items.length) + i : i)] ?? UNKNOWN)
        : UNKNOWN;
    }
    case 'unsqueeze': {
      const dim = asPoly(args[0] ?? UNKNOWN)?.constant;
      if (dim === -1n) return { ...t, shape: [...t.shape, Poly.ONE] };
      if (dim === undefined || rank === undefined) return withFeatures(t, undefined);
      const at = Number(dim < 0n ? BigInt(rank + 1) + dim : dim);
      return { ...t, shape: [...t.shape.slice(0, at), Poly.ONE, ...t.shape.slice(at)] };
    }
    default:
      return SHAPE_PRESERVING.has(method) ? t : UNKNOWN;
  }
}

/** `total / n` when it is a whole number up to 64, symbols included (`3·E / E`). */
function quotient(total: Poly, n: Poly): Poly | undefined {
  if (n.constant !== undefined) return total.divExact(n.constant);
  for (let k = 1n; k <= 64n; k++) if (n.mul(Poly.int(k)).equals(total)) return Poly.int(k);
  return undefined;
}

/** Slice `i` of a fused projection. */
export function part(t: Tensor, i: number, width?: Poly): Tensor {
  const source = t.trace?.source;
  if (!source?.layer) return t;
  return { ...t, trace: { source: { ...source, part: i, width: width ?? source.width } } };
}

/** `torch.cat([a, b], dim=-1)` adds the feature sizes; along another axis they must agree and stay. */
export function concatenate(items: readonly Value[], dimValue: Value | undefined): Value {
  const tensors = items.filter((i): i is Tensor => i.t === 'tensor');
  if (tensors.length !== items.length || !tensors.length) return UNKNOWN;
  const dim = dimValue ? asPoly(dimValue)?.constant : 0n;
  if (dim !== -1n)
    return withFeatures(
      tensors[0],
      tensors.every((t) => features(t)?.equals(features(tensors[0]) ?? Poly.symbol('?')))
        ? features(tensors[0])
        : undefined,
    );
  const sizes = tensors.map(features);
  const sum = sizes.every((s): s is Poly => s !== undefined) ? sizes.reduce((a, s) => a.add(s), Poly.ZERO) : undefined;
  return withFeatures(tensors[0], sum);
}

/** `a @ b`: the result ends with b's last axis; the shared axis is checked by the caller where known. */
export function matmul(a: Tensor, b: Tensor): Tensor {
  if (a.partial || b.partial || a.shape.length < 2 || b.shape.length < 2) return { ...OPAQUE, shape: [features(b)] };
  return { t: 'tensor', shape: [...a.shape.slice(0, -1), features(b)], origin: b.origin };
}
