/**
 * The data of the "Explain model sizing" panel: one model the file builds, every sizing figure for the
 * storage type, optimizer, batch and sequence length chosen, as exact digits and in units people read. The
 * figures are the hover's and the CLI's (sizingFigures over the same Sizing); the webview only draws them.
 */
import type { Span } from '../ir/expr';
import type { Amount } from './explain';
import {
  bytesOf,
  OPTIMIZER_NAMES,
  OPTIMIZERS,
  TRAINING_BYTES,
  WEIGHT_BYTES,
  WEIGHT_DTYPES,
  type Optimizer,
  type SizingOptions,
} from '../sizing/memory';
import type { Sizing } from '../sizing/sizing';
import { sizingFigures } from '../sizing/sizingFigures';
import { groupDigits, type Poly } from '../values/symbolic';
import { bytesText, flopsText, percentOf } from '../sizing/units';

/** A figure, or why it is not known. */
export type Figure = { readonly amount: Amount } | { readonly unknown: string };

export interface CountRow {
  readonly label: string;
  /** Grouped digits, or 'not known'. */
  readonly count: string;
  readonly note: string;
}

export interface ActivationRow {
  /** `transformer.h` for the copies of a repeated block. */
  readonly path: string;
  readonly kind: string;
  readonly calls: number;
  readonly bytes: Amount;
  /** Its share of the model's total, `48.2 %`. */
  readonly share: string;
  /** Where it is written in the file, for a link to its line. */
  readonly at?: Span;
}

export interface ModelPanelData {
  readonly name: string;
  readonly where: string;
  readonly inputs: SizingOptions;
  readonly parameters: readonly CountRow[];
  readonly weights: readonly { readonly dtype: string; readonly bytesEach: string; readonly bytes: Figure }[];
  readonly training: readonly {
    readonly id: Optimizer;
    readonly optimizer: string;
    readonly chosen: boolean;
    readonly perParameter: string;
    readonly bytes: Figure;
  }[];
  readonly kvCache: { readonly perToken: Figure; readonly context: Figure; readonly layers: string };
  readonly flops: {
    readonly forwardPerToken: Figure;
    readonly trainingPerToken: Figure;
    readonly trainingStep: Figure;
  };
  readonly activations: { readonly total: Figure; readonly layers: readonly ActivationRow[] };
  /** What the figures do not count, so that nobody reads them as a whole GPU's memory. */
  readonly leavesOut: readonly string[];
}

const bytesAmount = (n: bigint): Amount => ({ exact: groupDigits(n), text: bytesText(n) });
const flopsAmount = (n: bigint): Amount => ({ exact: groupDigits(n), text: flopsText(n) });
const count = (p: Poly | undefined) => (p?.constant !== undefined ? groupDigits(p.constant) : 'not known');
const figure = (n: bigint | undefined, amount: (n: bigint) => Amount, why: string): Figure =>
  n === undefined ? { unknown: why } : { amount: amount(n) };

const NOT_FOLLOWED_FLOPS =
  'a layer whose matrix products are not known (a convolution, a recurrent layer, a matrix parameter multiplied by hand, an attention whose sizes were not followed)';

export const LEAVES_OUT: readonly string[] = [
  "Training memory is weights, gradients and optimizer state before activations; the activations are apart, and neither counts temporary buffers freed during forward() or backward, nor the allocator's caching and rounding.",
  'Activations are as PyTorch 1.13 keeps them on the CPU: on a GPU dropout keeps a 1-byte mask and LayerNorm fp32 statistics for 16-bit inputs.',
  'FLOPs count the matrix products only (a multiply and an add as two), attention at the full context, not averaged over a causal mask; biases, norms, softmax and activation functions are left out.',
  'The KV cache counts self-attention keys and values only, in the storage type chosen.',
];

/** `48.2 %`; a layer that keeps a little reads `< 0.1 %`, not a misleading 0.0. */
function share(part: bigint, total: bigint | undefined): string {
  if (!total) return '';
  const percent = percentOf(part, total);
  return part > 0n && percent < 0.1 ? '< 0.1 %' : `${percent.toFixed(1)} %`;
}

export function modelPanel(name: string, where: string, s: Sizing, options: SizingOptions): ModelPanelData {
  const f = sizingFigures(s, options);
  const { dtype, optimizer, sequence } = options;
  const tokens = `${groupDigits(BigInt(sequence))} tokens`;
  const splitUnknown = 'a requires_grad set where the code is not followed';
  const training = (o: Optimizer) => {
    const per = TRAINING_BYTES[o];
    const t = s.trainable && bytesOf(s.trainable, per.trainable)?.constant;
    const fr = s.frozen && bytesOf(s.frozen, per.frozen)?.constant;
    return figure(
      t !== undefined && fr !== undefined ? t + fr : undefined,
      bytesAmount,
      `trainable and frozen parameters not known: ${splitUnknown}`,
    );
  };
  const kvUnknown =
    s.attentionLayers.constant === 0n
      ? 'no attention layer'
      : 'an attention whose sizes were not followed, or cross attention (what is cached differs by layer)';
  const a = f.activations;
  const total = 'unknown' in a ? undefined : a.bytes;
  return {
    name,
    where,
    inputs: options,
    parameters: [
      { label: 'total', count: count(s.params), note: '' },
      {
        label: 'trainable',
        count: count(s.trainable),
        note: s.trainable ? 'gradients and optimizer state' : splitUnknown,
      },
      {
        label: 'frozen',
        count: count(s.frozen),
        note: s.frozen ? 'requires_grad turned off: weights only' : splitUnknown,
      },
      { label: 'embedding', count: count(s.embedding), note: 'nn.Embedding tables' },
      { label: 'non-embedding', count: count(s.nonEmbedding), note: 'the N of scaling laws' },
    ],
    weights: WEIGHT_DTYPES.map((d) => ({
      dtype: d,
      bytesEach: d === 'int4' ? '½ byte' : d === 'int8' ? '1 byte' : `${WEIGHT_BYTES[d]} bytes`,
      bytes: figure(bytesOf(s.params, WEIGHT_BYTES[d])?.constant, bytesAmount, 'the parameter count is not known'),
    })),
    training: OPTIMIZERS.map((o) => ({
      id: o,
      optimizer: OPTIMIZER_NAMES[o],
      chosen: o === optimizer,
      perParameter: `${TRAINING_BYTES[o].trainable} bytes trainable, ${TRAINING_BYTES[o].frozen} frozen`,
      bytes: training(o),
    })),
    kvCache: {
      perToken: figure(s.kvPerToken && bytesOf(s.kvPerToken, WEIGHT_BYTES[dtype])?.constant, bytesAmount, kvUnknown),
      context: figure(f.kvCacheBytes, bytesAmount, kvUnknown),
      layers: `${count(s.attentionLayers)} attention layers, ${dtype}, ${tokens}`,
    },
    flops: {
      forwardPerToken: figure(f.flops?.forwardPerToken, flopsAmount, NOT_FOLLOWED_FLOPS),
      trainingPerToken: figure(f.flops?.trainingPerToken, flopsAmount, NOT_FOLLOWED_FLOPS),
      trainingStep: figure(f.flops?.trainingStep, flopsAmount, NOT_FOLLOWED_FLOPS),
    },
    activations: {
      total: 'unknown' in a ? { unknown: a.unknown } : { amount: bytesAmount(a.bytes) },
      layers:
        'unknown' in a
          ? []
          : [...a.layers]
              .sort((x, y) => (y.bytes > x.bytes ? 1 : y.bytes < x.bytes ? -1 : 0))
              .map((l) => ({
                path: l.path.replace(/\.\{i\}$/, ''),
                kind: l.kind,
                calls: l.calls,
                bytes: bytesAmount(l.bytes),
                share: share(l.bytes, total),
                ...(l.at ? { at: l.at } : {}),
              })),
    },
    leavesOut: LEAVES_OUT,
  };
}
