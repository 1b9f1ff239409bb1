/**
 * `x.shape`, `B, T, C = x.size()` and `q.view(B, T, heads, head_dim)` of the tensors forward() receives,
 * whose rank is not known: their leading dimensions are symbols named after the argument (`x.shape[0]`),
 * so that a view over the same leading dimensions can be checked as PyTorch checks it, by element count.
 */
import { Poly } from '../values/symbolic';
import { asPoly, int, UNKNOWN, type Shape, type Value } from '../values/value';

type Tensor = Extract<Value, { t: 'tensor' }>;
type Dims = Extract<Value, { t: 'dims' }>;

/** `x.shape` of the argument `lead`: its dimension `i`. */
export function leadDim(lead: string, i: number): Poly {
  return Poly.symbol(`${lead}.shape[${i}]`);
}

/** `t.shape` / `t.size()`. */
export function shapeOf(t: Tensor): Value {
  if (!t.partial) return { t: 'seq', items: t.shape.map((d) => (d ? int(d) : UNKNOWN)), tuple: true };
  return t.lead ? { t: 'dims', lead: t.lead, tail: t.shape } : UNKNOWN;
}

/** `B, T, C = x.shape`: as many leading dimensions as the names before the tail. */
export function unpackDims(d: Dims, count: number): Value[] | undefined {
  const leading = count - d.tail.length;
  if (leading < 0) return undefined;
  return [
    ...Array.from({ length: leading }, (_, i) => int(leadDim(d.lead, i))),
    ...d.tail.map((p) => (p ? int(p) : UNKNOWN)),
  ];
}

/** `x.shape[i]`, `x.shape[:-1]`, `x.shape[:2]`. */
export function indexDims(d: Dims, index: number): Value {
  if (index >= 0) return int(leadDim(d.lead, index));
  const p = d.tail[d.tail.length + index];
  return p ? int(p) : UNKNOWN;
}

export function sliceDims(d: Dims, lower: number | undefined, upper: number | undefined): Value {
  if (lower !== undefined && lower !== 0) return UNKNOWN;
  if (upper === undefined) return d;
  if (upper < 0) return -upper <= d.tail.length ? { ...d, tail: d.tail.slice(0, d.tail.length + upper) } : UNKNOWN;
  return { t: 'seq', items: Array.from({ length: upper }, (_, i) => int(leadDim(d.lead, i))), tuple: true };
}

/** `x.shape[:-1] + (heads, head_dim)`, `(*x.shape[:-1], -1, head_dim)`. */
export function extendDims(d: Dims, items: readonly Value[]): Dims {
  return { ...d, tail: [...d.tail, ...items.map((v) => asPoly(v))] };
}

export interface ViewProblem {
  /** The element count per position the view asks for, and the one the tensor has. */
  readonly asked: Poly;
  readonly has: Poly;
  readonly dims: readonly (Poly | undefined)[];
}

/**
 * `t.view(dims)` of a tensor of unknown rank whose leading dimensions are those of `t.lead`: the view keeps
 * them when it starts with them, all of them (`B, T, ...` after `B, T, C = x.size()`, or `*x.shape[:-1]`).
 * Then the rest must hold the features exactly, as PyTorch's element count does; -1 takes what is left.
 */
export function viewOverLead(
  t: Tensor,
  args: readonly Value[],
  leadCount: number | undefined,
): { value: Value; problem?: ViewProblem } | undefined {
  if (!t.partial || !t.lead || t.shape.length !== 1) return undefined;
  const features = t.shape[0];
  let rest: readonly Value[];
  let leading: Shape;
  let rank: 'known' | 'partial';
  if (args.length >= 1 && args[0].t === 'dims' && args[0].lead === t.lead && args[0].tail.length === 0) {
    rest = args.slice(1);
    leading = [];
    rank = 'partial';
  } else if (args.length === 1 && args[0].t === 'dims' && args[0].lead === t.lead) {
    rest = args[0].tail.map((p) => (p ? int(p) : UNKNOWN));
    leading = [];
    rank = 'partial';
  } else {
    const polys = args.map(asPoly);
    const k = leadingArgs(polys, t.lead, leadCount);
    if (k === undefined) return undefined;
    rest = args.slice(k);
    leading = polys.slice(0, k);
    rank = 'known';
  }
  const sizes = solvedUnknown(rest.map(asPoly), features);
  const free = sizes.filter((p) => p?.constant === -1n).length;
  const given = sizes.filter((p) => p?.constant !== -1n);
  if (!features?.constant || free > 1 || given.some((p) => p?.constant === undefined)) {
    const shape = [...leading, ...sizes.map((p) => (p?.constant === -1n ? undefined : p))];
    return {
      value:
        rank === 'known'
          ? { t: 'tensor', shape, origin: t.origin }
          : { t: 'tensor', shape, partial: true, lead: t.lead, origin: t.origin },
    };
  }
  const asked = given.reduce<Poly>((a, p) => a.mul(p!), Poly.ONE);
  const fill = free
    ? asked.constant! > 0n && features.constant % asked.constant! === 0n
      ? Poly.int(features.constant / asked.constant!)
      : undefined
    : undefined;
  if ((free && !fill) || (!free && !asked.equals(features)))
    return { value: UNKNOWN, problem: { asked, has: features, dims: sizes } };
  const shape = [...leading, ...sizes.map((p) => (p?.constant === -1n ? fill : p))];
  return {
    value:
      rank === 'known'
        ? { t: 'tensor', shape, origin: t.origin }
        : { t: 'tensor', shape, partial: true, lead: t.lead, origin: t.origin },
  };
}

/**
 * How many of `args` stand for all `count` leading dimensions of `lead`, in order, each one or a product of
 * neighbours (`B, H * W` after `B, H, W, _ = x.shape`); undefined when they do not.
 */
function leadingArgs(args: readonly (Poly | undefined)[], lead: string, count: number | undefined): number | undefined {
  if (!count || count < 0) return undefined;
  let used = 0;
  let k = 0;
  while (used < count && k < args.length) {
    let merged = leadDim(lead, used++);
    while (!args[k]?.equals(merged) && used < count) merged = merged.mul(leadDim(lead, used++));
    if (!args[k]?.equals(merged)) return undefined;
    k++;
  }
  return used === count ? k : undefined;
}

/**
 * One size not known (`C // heads` of a `C` this file cannot read) where the rest and the features are: the
 * element count PyTorch checks leaves it one value, as it does a -1; left unknown when none fits.
 */
function solvedUnknown(sizes: (Poly | undefined)[], features: Poly | undefined): (Poly | undefined)[] {
  const unknown = sizes.filter((p) => p === undefined).length;
  if (
    unknown !== 1 ||
    !features?.constant ||
    sizes.some((p) => p !== undefined && (p.constant === undefined || p.constant === -1n))
  )
    return sizes;
  const asked = sizes.reduce<bigint>((a, p) => a * (p?.constant ?? 1n), 1n);
  return asked > 0n && features.constant % asked === 0n
    ? sizes.map((p) => p ?? Poly.int(features.constant! / asked))
    : sizes;
}

/**
 * `t.view(dims)` of a tensor whose every dimension is known, symbols included (`x.shape[0]`): the element
 * counts must agree once the dimensions both sides share are set aside; -1 takes what is left.
 */
export function viewFull(t: Tensor, args: readonly Value[]): { value: Value; problem?: ViewProblem } | undefined {
  if (t.partial || t.shape.some((d) => d === undefined)) return undefined;
  const sizes = args.map(asPoly);
  if (sizes.some((p) => p === undefined) || sizes.filter((p) => p!.constant === -1n).length > 1) return undefined;
  const left = [...(t.shape as Poly[])];
  const right: Poly[] = [];
  for (const p of sizes as Poly[]) {
    if (p.constant === -1n) continue;
    const i = left.findIndex((d) => d.equals(p));
    if (i >= 0) left.splice(i, 1);
    else right.push(p);
  }
  const has = left.reduce((a, d) => a.mul(d), Poly.ONE);
  const asked = right.reduce((a, d) => a.mul(d), Poly.ONE);
  if (has.constant === undefined || asked.constant === undefined) return undefined;
  const free = sizes.some((p) => p!.constant === -1n);
  const fits = free ? asked.constant > 0n && has.constant % asked.constant === 0n : has.constant === asked.constant;
  if (!fits) return { value: UNKNOWN, problem: { asked, has, dims: sizes } };
  const fill = free ? Poly.int(has.constant / asked.constant) : undefined;
  return { value: { t: 'tensor', shape: sizes.map((p) => (p!.constant === -1n ? fill : p)), origin: t.origin } };
}
