/**
 * The short layer hover, what shows by default: the count with its formula, the models that build the
 * layer, the tensors, and one line per fact, short enough to need no scrolling in the editor's hover. The
 * full hover (format.ts) adds the notes that teach what the numbers mean. Text from the file is escaped.
 */
import { rejectedHoverMarkdown, tensorTable } from './format';
import { factNotes } from './hoverFacts';
import type { LayerInstance } from '../values/layer';
import { codeSpan, escapeMarkdown as md } from './markdown';
import type { SiteValue } from '../analysis/results';
import { groupDigits } from '../values/symbolic';
import { bytesText } from '../sizing/units';

/** How many of the models building the layer are named before "and N more". */
const CONTEXTS_SHOWN = 3;

export function shortHoverMarkdown(
  layer: LayerInstance,
  qualifiedName: string,
  values: readonly SiteValue[] = [],
): string {
  if (layer.rejected) return rejectedHoverMarkdown(layer, qualifiedName);
  const c = layer.params?.constant;
  const formula = layer.formula ? ` · ${codeSpan(layer.formula)}` : '';
  const lines =
    c !== undefined
      ? [`**${md(qualifiedName)}**: ${groupDigits(c)} parameters${formula}`]
      : [
          `**${md(qualifiedName)}**: ${md(layer.unknownReason ?? 'size not known')}`,
          ...(layer.formula ? ['', `Formula: ${codeSpan(layer.formula)}`] : []),
        ];
  const built = values.filter((v) => v.context);
  for (const v of built.slice(0, CONTEXTS_SHOWN))
    lines.push(
      `- in ${md(v.context)}: ${groupDigits(v.params.constant!)}${v.contexts > 1 ? ` (${v.contexts} models)` : ''}`,
    );
  if (built.length > CONTEXTS_SHOWN) lines.push(`- and ${built.length - CONTEXTS_SHOWN} more sizes`);
  if (layer.tensors.length) lines.push('', ...tensorTable(layer));
  const facts = [
    ...factNotes(layer),
    ...(c !== undefined && c > 0n ? [`Weights: ${bytesText(c * 4n)} in fp32, ${bytesText(c * 2n)} in bf16`] : []),
  ];
  if (facts.length) lines.push('', ...facts.map((f) => `- ${md(f)}`));
  return lines.join('\n');
}
