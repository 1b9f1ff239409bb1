/**
 * Strides as ATen computes them: whether a tensor is contiguous, and whether a view of new sizes can share its
 * storage (`computeStride` in aten/src/ATen/TensorUtils.cpp). Which tensors autograd keeps, and so how much
 * memory they hold, depends on it: `reshape` shares the storage where a view exists and copies where none does.
 */

export function contiguousStrides(shape: readonly bigint[]): bigint[] {
  const strides = new Array<bigint>(shape.length);
  let z = 1n;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = z;
    z *= shape[d] > 1n ? shape[d] : 1n;
  }
  return strides;
}

export function numel(shape: readonly bigint[]): bigint {
  return shape.reduce((a, d) => a * d, 1n);
}

/** `Tensor.is_contiguous()`: dimensions of size 1 take any stride. */
export function isContiguous(shape: readonly bigint[], strides: readonly bigint[]): boolean {
  if (numel(shape) === 0n) return true;
  let z = 1n;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] === 1n) continue;
    if (strides[d] !== z) return false;
    z *= shape[d];
  }
  return true;
}

/**
 * The strides of a view of `oldShape` as `newShape` over the same storage, or undefined when no view exists
 * (ATen's computeStride: dimensions merge only within a chunk of storage laid out contiguously).
 */
export function viewStrides(
  oldShape: readonly bigint[],
  oldStrides: readonly bigint[],
  newShape: readonly bigint[],
): bigint[] | undefined {
  if (oldShape.length === 0) return newShape.map(() => 1n);
  const total = numel(oldShape);
  if (total === 0n)
    return oldShape.length === newShape.length && oldShape.every((d, i) => d === newShape[i])
      ? [...oldStrides]
      : undefined;
  const newStrides = new Array<bigint>(newShape.length);
  let viewD = newShape.length - 1;
  let chunkBaseStride = oldStrides[oldStrides.length - 1];
  let tensorNumel = 1n;
  let viewNumel = 1n;
  for (let tensorD = oldShape.length - 1; tensorD >= 0; tensorD--) {
    tensorNumel *= oldShape[tensorD];
    if (tensorD === 0 || (oldShape[tensorD - 1] !== 1n && oldStrides[tensorD - 1] !== tensorNumel * chunkBaseStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] === 1n)) {
        newStrides[viewD] = viewNumel * chunkBaseStride;
        viewNumel *= newShape[viewD];
        viewD--;
      }
      if (viewNumel !== tensorNumel) return undefined;
      if (tensorD > 0) {
        chunkBaseStride = oldStrides[tensorD - 1];
        tensorNumel = 1n;
        viewNumel = 1n;
      }
    }
  }
  return viewD === -1 ? newStrides : undefined;
}

/** Whether the tensor covers its storage exactly once, in some order of its dimensions. */
export function isDense(shape: readonly bigint[], strides: readonly bigint[]): boolean {
  const order = shape
    .map((_, d) => d)
    .filter((d) => shape[d] !== 1n)
    .sort((a, b) => (strides[a] < strides[b] ? -1 : strides[a] > strides[b] ? 1 : 0));
  let expected = 1n;
  for (const d of order) {
    if (strides[d] !== expected) return false;
    expected *= shape[d];
  }
  return true;
}

/** `empty_like(t)` (memory format preserved): the same strides when `t` is dense, else contiguous. */
export function preservedStrides(shape: readonly bigint[], strides: readonly bigint[]): readonly bigint[] {
  return isDense(shape, strides) ? strides : contiguousStrides(shape);
}

/**
 * The strides TensorIterator gives the result of an element-wise operation over its inputs (in argument
 * order) of the broadcast `shape`: its fast setup when every input has that shape and all are contiguous,
 * or dense with the same strides; else its reorder_dimensions, where the first input whose strides tell two
 * dimensions apart orders them, and the result is dense in that order.
 */
export function elementwiseStrides(
  inputs: readonly { readonly shape: readonly bigint[]; readonly strides: readonly bigint[] }[],
  shape: readonly bigint[],
): bigint[] {
  const n = shape.length;
  const full = inputs.every((t) => t.shape.length === n && t.shape.every((d, i) => d === shape[i]));
  if (full && inputs.every((t) => isContiguous(t.shape, t.strides))) return contiguousStrides(shape);
  if (
    full &&
    inputs.length &&
    inputs.every((t) => isDense(t.shape, t.strides) && t.strides.every((s, i) => s === inputs[0].strides[i]))
  )
    return [...inputs[0].strides];
  // Broadcast dimensions have stride 0 and decide nothing.
  const aligned = inputs.map((t) =>
    shape.map((size, d) => {
      const own = d - (n - t.shape.length);
      return own < 0 || (t.shape[own] === 1n && size !== 1n) ? 0n : t.strides[own];
    }),
  );
  const swaps = (d0: number, d1: number): number => {
    for (const s of aligned) {
      if (s[d0] === 0n || s[d1] === 0n) continue;
      if (s[d0] < s[d1]) return -1;
      if (s[d0] > s[d1]) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  // perm[0] is the fastest dimension; insertion sort that leaves ambiguous pairs where they are.
  const perm = Array.from({ length: n }, (_, i) => n - 1 - i);
  for (let i = 1; i < n; i++) {
    let d1 = i;
    for (let d0 = i - 1; d0 >= 0; d0--) {
      const c = swaps(perm[d0], perm[d1]);
      if (c > 0) {
        [perm[d0], perm[d1]] = [perm[d1], perm[d0]];
        d1 = d0;
      } else if (c < 0) break;
    }
  }
  const strides = new Array<bigint>(n);
  let next = 1n;
  for (const d of perm) {
    strides[d] = next;
    next *= shape[d];
  }
  return strides;
}
