/** A model's sizing below its hover, one line a fact, for the storage type, optimizer, batch and sequence set. */
import {
  bytesOf,
  DEFAULT_SIZING,
  OPTIMIZER_NAMES,
  TRAINING_BYTES,
  WEIGHT_BYTES,
  type SizingOptions,
} from '../sizing/memory';
import { bytesText as bytes, flopsText } from '../sizing/units';
import type { Sizing } from '../sizing/sizing';
import { sizingFigures } from '../sizing/sizingFigures';
import { groupDigits, type Poly } from '../values/symbolic';
import { codeSpan, escapeMarkdown as md } from './markdown';

export function sizingMarkdown(s: Sizing, options: SizingOptions = DEFAULT_SIZING): string {
  const count = (p: Poly | undefined) => (p?.constant !== undefined ? groupDigits(p.constant) : 'not known');
  const size = (p: Poly | bigint | undefined) => {
    const n = typeof p === 'bigint' ? p : p?.constant;
    return n !== undefined ? bytes(n) : 'not known';
  };
  const f = sizingFigures(s, options);
  const { batch, sequence, dtype, optimizer } = options;
  const tokens = `${groupDigits(BigInt(sequence))} tokens`;
  const training = TRAINING_BYTES[optimizer];
  const lines = [
    `Non-embedding parameters: ${count(s.nonEmbedding)} (embedding tables: ${count(s.embedding)})`,
    s.trainable && s.frozen
      ? s.frozen.constant === 0n
        ? `Trainable: all ${count(s.trainable)}`
        : `Trainable: ${count(s.trainable)} (frozen: ${count(s.frozen)})`
      : 'Trainable: not known (a `requires_grad` set where the code is not followed)',
    `Weights: ${size(bytesOf(s.params, WEIGHT_BYTES.fp32))} in fp32, ${size(bytesOf(s.params, WEIGHT_BYTES.bf16))} in bf16 or fp16, ${size(bytesOf(s.params, WEIGHT_BYTES.int8))} in int8, ${size(bytesOf(s.params, WEIGHT_BYTES.int4))} in 4-bit`,
    `Training with ${OPTIMIZER_NAMES[optimizer]}: ${size(f.trainingBytes)} for weights, gradients and optimizer state (${training.trainable} bytes a trainable parameter, ${training.frozen} a frozen one), before activations`,
  ];
  const a = f.activations;
  const where = `batch ${batch} × ${tokens}, ${dtype}`;
  if ('unknown' in a) lines.push(`Activations kept for backward (${where}): not known, ${md(a.unknown)}`);
  else {
    const largest = [...a.layers].sort((x, y) => (y.bytes > x.bytes ? 1 : y.bytes < x.bytes ? -1 : 0))[0];
    const part =
      largest && largest.bytes > 0n
        ? `; ${largest.calls > 1 ? `${largest.calls} × ` : ''}${codeSpan(largest.path.replace(/\.\{i\}$/, ''))} (${md(largest.kind)}) ${bytes(largest.bytes)}`
        : '';
    lines.push(`Activations kept for backward (${where}, as PyTorch 1.13 on the CPU): ${bytes(a.bytes)}${part}`);
  }
  if (s.kvPerToken) {
    const perToken = bytesOf(s.kvPerToken, WEIGHT_BYTES[dtype]);
    lines.push(
      `KV cache: ${count(perToken)} bytes a token in ${dtype} (${count(s.attentionLayers)} attention layers), ${size(f.kvCacheBytes)} for ${tokens}`,
    );
  }
  if (f.flops)
    lines.push(
      `FLOPs of the matrix products, at a context of ${tokens}: ${flopsText(f.flops.forwardPerToken)} a token forward, ${flopsText(f.flops.trainingPerToken)} training; a training step of ${batch} × ${tokens}: ${flopsText(f.flops.trainingStep)}`,
    );
  return lines.map((l) => `- ${l}`).join('\n');
}
