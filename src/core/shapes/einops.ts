/**
 * `einops.rearrange(t, "b n (h d) -> b h n d", h=heads)`: where the pattern splits the features into heads,
 * and their sizes from the named axes; and the shape `rearrange` or `repeat` gives a tensor of known shape
 * (mamba's `repeat(torch.arange(1, d_state + 1), "n -> d n", d=d_inner)`). The pattern is a value of the
 * user's code, read as einops reads it.
 */
import { Poly } from '../values/symbolic';
import { asPoly, type Value } from '../values/value';
import { perHead } from './trace';

/** The groups of one side: `b n (h d)` is [[b], [n], [h, d]]; undefined for what einops would reject. */
function groups(side: string): string[][] | undefined {
  const out: string[][] = [];
  let open: string[] | undefined;
  for (const token of side.replace(/\(/g, ' ( ').replace(/\)/g, ' ) ').split(/\s+/).filter(Boolean)) {
    if (token === '(') {
      if (open) return undefined;
      open = [];
    } else if (token === ')') {
      if (!open) return undefined;
      out.push(open);
      open = undefined;
    } else if (open) open.push(token);
    else out.push([token]);
  }
  return open ? undefined : out;
}

/** The heads and head size a rearrange splits the last axis into, when it does. */
export function rearrangedHeads(
  pattern: string,
  axes: ReadonlyMap<string, Value>,
  width: Poly | undefined,
): { heads?: Poly; headDim?: Poly } | undefined {
  const [left, right, extra] = pattern.split('->');
  if (right === undefined || extra !== undefined) return undefined;
  const from = groups(left);
  const to = groups(right);
  const last = from?.[from.length - 1];
  if (!from || !to || last?.length !== 2 || to.some((g) => g.length > 1 && g.join(' ') === last.join(' ')))
    return undefined;
  const [h, d] = last;
  const size = (name: string) => {
    const v = axes.get(name);
    return v ? asPoly(v) : undefined;
  };
  const heads = size(h) ?? (width && size(d)?.constant ? width.divExact(size(d)!.constant!) : undefined);
  const headDim = size(d) ?? (width && heads ? perHead(width, heads, '//') : undefined);
  return { heads, headDim };
}

/** A number in a pattern (`(h 2)`, `1`) is an axis of that size. */
function literal(axis: string): Poly | undefined {
  return /^\d+$/.test(axis) ? Poly.int(BigInt(axis)) : undefined;
}

/**
 * The shape `einops.rearrange` (or `repeat`, which may add axes named on the right only) gives a tensor of shape
 * `shape`: undefined where einops would raise or a size is not known here (an ellipsis is not followed).
 */
export function einopsShape(
  pattern: string,
  shape: readonly Poly[],
  axes: ReadonlyMap<string, Value>,
  repeat: boolean,
): Poly[] | undefined {
  // Every input axis reaches the output, in a rearrange and a repeat alike; a repeat may add axes it is given.
  const [left, right, extra] = pattern.split('->');
  if (right === undefined || extra !== undefined || pattern.includes('...')) return undefined;
  const from = groups(left);
  const to = groups(right);
  if (!from || !to || from.length !== shape.length) return undefined;
  const sizes = new Map<string, Poly>();
  for (const [name, v] of axes) {
    const p = asPoly(v);
    if (!p) return undefined;
    sizes.set(name, p);
  }
  for (const [i, group] of from.entries()) {
    const open = group.filter((a) => !literal(a) && !sizes.has(a));
    if (open.length > 1) return undefined;
    const known = group.filter((a) => !open.includes(a)).reduce((p, a) => p.mul(literal(a) ?? sizes.get(a)!), Poly.ONE);
    if (open.length) {
      const inferred = shape[i].divExactBy(known);
      if (!inferred) return undefined;
      sizes.set(open[0], inferred);
    } else if (known.constant !== undefined && shape[i].constant !== undefined && known.constant !== shape[i].constant)
      return undefined;
  }
  const named = (side: string[][]) => new Set(side.flat().filter((a) => !literal(a)));
  const input = named(from);
  for (const a of named(to)) if (!input.has(a) && (!repeat || !axes.has(a))) return undefined;
  for (const a of input) if (!named(to).has(a)) return undefined;
  return to.map((group) => group.reduce((p, a) => p.mul(literal(a) ?? sizes.get(a)!), Poly.ONE));
}
