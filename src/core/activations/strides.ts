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
export function viewStrides(oldShape: readonly bigint[], oldStrides: readonly bigint[], newShape: readonly bigint[]): bigint[] | undefined {
  if (oldShape.length === 0) return newShape.map(() => 1n);
  const total = numel(oldShape);
  if (total === 0n) return oldShape.length === newShape.length && oldShape.every((d, i) => d === newShape[i]) ? [...oldStrides] : undefined;
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

/**
 * Whether an element-wise result over this operand is laid out contiguously: TensorIterator orders its
 * output's dimensions as its operands' strides do, so an operand whose dimensions (of size above 1, not
 * broadcast) have decreasing strides gives a contiguous output.
 */
export function inOrder(shape: readonly bigint[], strides: readonly bigint[]): boolean {
  let previous: bigint | undefined;
  for (let d = 0; d < shape.length; d++) {
    if (shape[d] === 1n || strides[d] === 0n) continue;
    if (previous !== undefined && strides[d] >= previous) return false;
    previous = strides[d];
  }
  return true;
}
