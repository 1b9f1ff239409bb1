/**
 * The Explain walkthrough as Markdown, for notes and reviews ("Copy as Markdown"). Names, shapes, values and
 * formulas can hold text from the user's file (a class name, `config.n_embd`): they go in code spans, and
 * every other piece is escaped, so a pasted walkthrough renders as written and nothing else.
 */
import type { Amount, ExplainData, Quantity } from './explain';
import { codeSpan, escapeMarkdown as md } from './markdown';

const DIGITS = /^[\d,]+$/;

/** `1,050,624`, or a formula over names as code. */
function count(x: Quantity): string {
  return DIGITS.test(x) ? x : codeSpan(x, true);
}

/** `5.25 GFLOP (5,248,450,560)`; a formula over names as code, with its unit. */
function amount(a: Amount): string {
  if (!DIGITS.test(a.exact))
    return `${codeSpan(a.exact, true)}${a.text.startsWith(a.exact) ? a.text.slice(a.exact.length) : ''}`;
  return a.text.startsWith(a.exact) ? a.text : `${a.text} (${a.exact})`;
}

export function explainMarkdown(d: ExplainData): string {
  const lines = [
    `# ${codeSpan(d.name)} at ${codeSpan(d.where)}`,
    '',
    `Batch N = ${d.inputs.batch}, query length L = ${d.inputs.queryLength}, key length S = ${d.inputs.keyLength}, ${d.inputs.dtype}${d.selfAttention.on ? '; one input X for the queries, keys and values' : ''}.`,
    '',
    '| setting | value |',
    '|---|---|',
    ...d.settings.map(([k, v]) => `| ${md(k)} | ${codeSpan(v, true)} |`),
    '',
    '| step | shape | FLOPs | kept for backward |',
    '|---|---|---:|---|',
    ...d.steps.map(
      (s) =>
        `| ${codeSpan(s.name, true)} | ${codeSpan(s.shape, true)} | ${amount(s.flops)} | ${md(s.saved)}: ${amount(s.savedBytes)} |`,
    ),
    '',
    `Total: ${amount(d.totalFlops)}; the score matrix holds ${count(d.scores.elements)} numbers (${amount(d.scores.bytes)}); ${count(d.savedElements)} numbers (${amount(d.savedBytes)}) are kept for backward.`,
    '',
    '| parameter | role | shape | count | bytes |',
    '|---|---|---|---:|---:|',
    ...d.parameters.map(
      (p) =>
        `| ${codeSpan(p.name, true)} | ${md(p.role)} | ${codeSpan(p.shape, true)} | ${count(p.count)} | ${amount(p.bytes)} |`,
    ),
    `| total | | | ${count(d.totalParameters)} | ${amount(d.totalBytes)} |`,
    '',
    `No parameters in: ${md(d.withoutParameters.join(', '))}.`,
    '',
    ...(d.lowRank ? [md(d.lowRank.text), ''] : []),
    ...d.notes.map((x) => `- ${md(x)}`),
  ];
  return lines.join('\n');
}
