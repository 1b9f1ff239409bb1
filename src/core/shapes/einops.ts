/**
 * `einops.rearrange(t, "b n (h d) -> b h n d", h=heads)`: where the pattern splits the features into heads,
 * and their sizes from the named axes. The pattern is a value of the user's code, read as einops reads it.
 */
import type { Poly } from '../values/symbolic';
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
