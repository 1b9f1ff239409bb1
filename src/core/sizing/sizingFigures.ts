/**
 * A model's sizing worked out for a storage type, an optimizer, a batch size and a sequence length: what the
 * hover and the CLI print. Exact integers, or undefined (with a reason for the activations) where not known.
 */
import { replay, type LayerSaved, type Saved } from '../activations/replay';
import { bytesOf, TRAINING_BYTES, WEIGHT_BYTES, type SizingOptions, type WeightDtype } from './memory';
import type { Sizing } from './sizing';
import { Poly } from '../values/symbolic';

export interface ActivationFigures {
  readonly bytes: bigint;
  readonly layers: readonly (Omit<LayerSaved, 'saved'> & { readonly bytes: bigint })[];
}

export interface SizingFigures {
  readonly options: SizingOptions;
  readonly weightBytes?: bigint;
  /** Weights, gradients and optimizer state of the trainable parameters, and the weights of the frozen ones. */
  readonly trainingBytes?: bigint;
  /** The keys and values of `sequence` tokens, every attention layer, in the storage type. */
  readonly kvCacheBytes?: bigint;
  readonly flops?: {
    readonly forwardPerToken: bigint;
    readonly trainingPerToken: bigint;
    readonly trainingStep: bigint;
  };
  readonly activations: ActivationFigures | { readonly unknown: string };
}

/**
 * Bytes of a floating-point activation by storage type, as PyTorch 1.13 keeps them on the CPU: fp16 does not
 * train there, and a GPU keeps other tensors (LayerNorm's statistics in fp32, dropout's mask in one byte).
 */
const ACTIVATION_BYTES: Readonly<Partial<Record<WeightDtype, bigint>>> = { fp32: 4n, bf16: 2n };

export function sizingFigures(s: Sizing, options: SizingOptions): SizingFigures {
  const T = BigInt(options.sequence);
  const B = BigInt(options.batch);
  const training = TRAINING_BYTES[options.optimizer];
  const trainingBytes =
    s.trainable && s.frozen
      ? sum(bytesOf(s.trainable, training.trainable), bytesOf(s.frozen, training.frozen))
      : undefined;
  // Per token, every matrix product counts 2 · m · n · k FLOPs (a multiply and an add): 2 · in · out for
  // each linear layer, and 2 · T · (h · d_k + h · d_v) for the scores and the weighted sum of values of each
  // self-attention at the full context T. Training is forward and backward: 3 × forward.
  const matmul = s.matmulPerToken?.constant;
  const context = s.contextWidth?.constant;
  const forward = matmul !== undefined && context !== undefined ? 2n * matmul + 2n * T * context : undefined;
  return {
    options,
    weightBytes: bytesOf(s.params, WEIGHT_BYTES[options.dtype])?.constant,
    trainingBytes,
    kvCacheBytes: s.kvPerToken && bytesOf(s.kvPerToken.mul(Poly.int(T)), WEIGHT_BYTES[options.dtype])?.constant,
    flops:
      forward === undefined
        ? undefined
        : { forwardPerToken: forward, trainingPerToken: 3n * forward, trainingStep: 3n * forward * B * T },
    activations: activationFigures(s, options),
  };
}

function sum(a: Poly | undefined, b: Poly | undefined): bigint | undefined {
  return a?.constant !== undefined && b?.constant !== undefined ? a.constant + b.constant : undefined;
}

function activationFigures(s: Sizing, options: SizingOptions): SizingFigures['activations'] {
  if ('unknown' in s.activations) return s.activations;
  const floatBytes = ACTIVATION_BYTES[options.dtype];
  if (floatBytes === undefined)
    return {
      unknown:
        options.dtype === 'fp16'
          ? 'PyTorch 1.13 does not train in fp16 on the CPU, where the figures are checked'
          : `training keeps activations in floating point, not ${options.dtype}`,
    };
  const replayed = replay(s.activations.program, options.batch, options.sequence);
  if ('unknown' in replayed) return replayed;
  const bytes = (saved: Saved) => saved.floats * floatBytes + saved.bytes;
  return {
    bytes: bytes(replayed.saved),
    layers: replayed.layers.map(({ saved, ...l }) => ({ ...l, bytes: bytes(saved) })),
  };
}
