/**
 * The hover on a call that builds a model class inside other code (`self.attn = CausalSelfAttention(config)`):
 * that part's total, the model it is built in, and where its class is. Text from the file is escaped.
 */
import { shortCount } from './format';
import { codeSpan, escapeMarkdown as md } from './markdown';
import type { PartResult } from '../analysis/results';
import { groupDigits } from '../values/symbolic';
import { bytesText } from '../sizing/units';

/** `defined`: the 1-based line of the class in this file, when it is one of its classes. */
export function partHoverMarkdown(part: PartResult, defined?: number): string {
  const c = part.summary.params?.constant;
  const [only] = part.values.length === 1 ? part.values : [];
  const p = part.summary.params;
  const headline =
    c !== undefined
      ? `${groupDigits(c)} parameters (${shortCount(c)})${only?.context ? `, as built in ${md(only.context)}` : ''}`
      : // No model of the file builds it with numbers: its total over the names it is built with.
        p
        ? `${codeSpan(p.toString())} parameters, over the names it is built with`
        : md(part.summary.reason ?? 'total not known');
  const lines = [`**${md(part.className)}**: ${headline}`, ''];
  if (part.values.length > 1) {
    for (const v of part.values.slice(0, 6))
      lines.push(
        `- in ${md(v.context)}: ${groupDigits(v.params.constant!)}${v.contexts > 1 ? ` (${v.contexts} models)` : ''}`,
      );
    if (part.values.length > 6) lines.push(`- and ${part.values.length - 6} more totals`);
    lines.push('');
  }
  if (c !== undefined && c > 0n) lines.push(`Weights: ${bytesText(c * 4n)} in fp32, ${bytesText(c * 2n)} in bf16`, '');
  lines.push(defined !== undefined ? `Class defined on line ${defined}.` : 'Class defined in another file.');
  return lines.join('\n');
}
