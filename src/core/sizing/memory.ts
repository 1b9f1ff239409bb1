/**
 * What the sizing figures are given for (a storage type, an optimizer, a batch size and a sequence length),
 * and the bytes a parameter takes in each.
 */
import { Poly } from '../values/symbolic';

export const WEIGHT_DTYPES = ['fp32', 'bf16', 'fp16', 'int8', 'int4'] as const;
export type WeightDtype = (typeof WEIGHT_DTYPES)[number];
export const OPTIMIZERS = ['adamwMixed', 'adamwFp32', 'sgdMomentum'] as const;
export type Optimizer = (typeof OPTIMIZERS)[number];

export interface SizingOptions {
  readonly dtype: WeightDtype;
  readonly optimizer: Optimizer;
  readonly batch: number;
  /** The sequence length: the context of the KV cache, of the attention FLOPs, and the activations' positions. */
  readonly sequence: number;
}

export const DEFAULT_SIZING: SizingOptions = { dtype: 'bf16', optimizer: 'adamwMixed', batch: 1, sequence: 1024 };

/** Bytes a weight takes in each storage type. */
export const WEIGHT_BYTES: Readonly<Record<WeightDtype, number>> = { fp32: 4, bf16: 2, fp16: 2, int8: 1, int4: 0.5 };

/**
 * Bytes a parameter takes while training, before activations. A trainable one: AdamW in mixed precision
 * (16-bit weights and gradients, an fp32 master copy and two fp32 moments) and AdamW in fp32 both take 16;
 * SGD with momentum in fp32, 12. A frozen one keeps its weights only: 16-bit in mixed precision, else fp32.
 */
export const TRAINING_BYTES: Readonly<Record<Optimizer, { readonly trainable: number; readonly frozen: number }>> = {
  adamwMixed: { trainable: 16, frozen: 2 },
  adamwFp32: { trainable: 16, frozen: 4 },
  sgdMomentum: { trainable: 12, frozen: 4 },
};

export const OPTIMIZER_NAMES: Readonly<Record<Optimizer, string>> = {
  adamwMixed: 'AdamW in mixed precision',
  adamwFp32: 'AdamW in fp32',
  sgdMomentum: 'SGD with momentum',
};

/** `n` parameters (or numbers) of `bytes` each, exactly: half a byte rounds up, as 4-bit packing stores pairs. */
export function bytesOf(n: Poly, bytes: number): Poly | undefined {
  const c = n.constant;
  if (c === undefined) return undefined;
  return Poly.int(bytes >= 1 ? c * BigInt(bytes) : (c + 1n) / 2n);
}
