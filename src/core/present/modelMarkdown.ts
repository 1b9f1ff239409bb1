/**
 * The model sizing panel as Markdown ("Copy as Markdown"). The class name, file name and layer paths come
 * from the user's file: they go in code spans, every other piece is escaped, so the paste renders as written.
 */
import { codeSpan, escapeMarkdown as md } from './markdown';
import type { Figure, ModelPanelData } from './modelPanel';

/** `36.0 MiB (37,748,736)`, or why it is not known. */
function figure(f: Figure): string {
  return 'unknown' in f ? `not known: ${md(f.unknown)}` : `${f.amount.text} (${f.amount.exact})`;
}

export function modelMarkdown(d: ModelPanelData): string {
  const { batch, sequence, dtype, optimizer } = d.inputs;
  const a = d.activations;
  return [
    `# ${codeSpan(d.name)} at ${codeSpan(d.where)}`,
    '',
    `Batch ${batch}, sequence length ${sequence}, ${dtype}, ${md(optimizer)}.`,
    '',
    '| parameters | count | |',
    '|---|---:|---|',
    ...d.parameters.map((p) => `| ${p.label} | ${p.count} | ${md(p.note)} |`),
    '',
    '| weights in | bytes |',
    '|---|---:|',
    ...d.weights.map((w) => `| ${w.dtype} (${md(w.bytesEach)}) | ${figure(w.bytes)} |`),
    '',
    '| training with | bytes |',
    '|---|---:|',
    ...d.training.map(
      (t) => `| ${md(t.optimizer)}${t.chosen ? ' (chosen)' : ''}, ${md(t.perParameter)} | ${figure(t.bytes)} |`,
    ),
    '',
    `- KV cache (${md(d.kvCache.layers)}): ${figure(d.kvCache.perToken)} a token, ${figure(d.kvCache.context)} for the context`,
    `- FLOPs: ${figure(d.flops.forwardPerToken)} a token forward, ${figure(d.flops.trainingPerToken)} training, ${figure(d.flops.trainingStep)} a training step`,
    `- Activations kept for backward: ${figure(a.total)}`,
    ...(a.layers.length
      ? [
          '',
          '| layer | kept for backward | share |',
          '|---|---:|---:|',
          ...a.layers.map(
            (l) =>
              `| ${l.calls > 1 ? `${l.calls} × ` : ''}${codeSpan(l.path)} (${md(l.kind)}) | ${l.bytes.text} (${l.bytes.exact}) | ${l.share} |`,
          ),
        ]
      : []),
    '',
    ...d.leavesOut.map((x) => `- ${md(x)}`),
  ].join('\n');
}
