/** Sizes of the results of tensor operations, as PyTorch gives them, for the replay (exact integers). */

/** Raised where a forward() step is not followed: the figure is then not known, and this says why. */
export class Unfollowed extends Error {}

/** A dimension index as PyTorch reads it: negative from the end. */
export function normalize(dim: number, rank: number): number {
  const d = dim < 0 ? dim + rank : dim;
  if (d < 0 || d >= rank) throw new Unfollowed(`dimension ${dim} of a tensor of ${rank} dimensions`);
  return d;
}

/** The broadcast of several shapes (aligned on the right), or Unfollowed where PyTorch raises. */
export function broadcastShapes(shapes: readonly (readonly bigint[])[]): bigint[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out: bigint[] = [];
  for (let i = 0; i < rank; i++) {
    let size = 1n;
    for (const s of shapes) {
      const d = s[s.length - rank + i] ?? 1n;
      if (d === 1n) continue;
      if (size !== 1n && size !== d) throw new Unfollowed(`sizes ${size} and ${d} that do not broadcast`);
      size = d;
    }
    out.push(size);
  }
  return out;
}

/** The parts of `split(size)` or `chunk(chunks)` along a dimension of `n`. */
export function splitSizes(n: bigint, size: bigint | undefined, chunks: number | undefined): bigint[] {
  const step = size ?? (chunks ? (n + BigInt(chunks) - 1n) / BigInt(chunks) : 0n);
  if (step <= 0n) throw new Unfollowed('a split into parts of no size');
  const out: bigint[] = [];
  for (let at = 0n; at < n; at += step) out.push(n - at < step ? n - at : step);
  return out;
}

/** `start:stop:step` of a dimension of `n`, as Python clamps it. */
export function sliceLength(n: bigint, start: bigint | undefined, stop: bigint | undefined, step: bigint): bigint {
  if (step <= 0n) throw new Unfollowed('a slice with a step that is not positive');
  const clamp = (x: bigint) => (x < 0n ? (x + n < 0n ? 0n : x + n) : x > n ? n : x);
  const lo = start === undefined ? 0n : clamp(start);
  const hi = stop === undefined ? n : clamp(stop);
  return hi <= lo ? 0n : (hi - lo + step - 1n) / step;
}
