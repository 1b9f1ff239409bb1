/**
 * The user's own configurations (`Transformer(ModelArgs(vocab_size=32000))`), analysed as statements appended
 * after the document's text, each building its model at module level as a line of the file would, named after
 * the expression (SourceModel.named). What they add at their own lines is no part of the document's analysis.
 */
import type { Analysis } from '../core/analysis/analyze';

/** A configuration named in the settings (`attentionLens.configurations`): listed, shown only once chosen. */
export interface NamedConfiguration {
  readonly name: string;
  readonly expression: string;
}

export interface OwnStatements {
  /** What is appended to the document's text: empty without configurations. */
  readonly text: string;
  /** Each configuration by the 0-based line of its statement. */
  readonly named: ReadonlyMap<number, string>;
  /** The names of the user's own, which are shown (those of `listed` are only listed). */
  readonly shown: readonly string[];
}

/** One line each: an expression written over several is joined (Python allows it inside its brackets). */
export function ownLabel(expression: string): string {
  return expression.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export function ownStatements(
  documentText: string,
  own: readonly string[],
  listed: readonly NamedConfiguration[] = [],
): OwnStatements {
  const named = new Map<number, string>();
  const shown = own.map(ownLabel);
  const all = [
    ...own.map((expression) => ({ name: ownLabel(expression), expression })),
    ...listed.filter((c) => !shown.includes(c.name)),
  ];
  if (!all.length) return { text: '', named, shown };
  let line = 1;
  for (let i = documentText.indexOf('\n'); i >= 0; i = documentText.indexOf('\n', i + 1)) line++;
  const statements = all.map(({ name, expression }, i) => {
    named.set(line + i, name);
    return `__attention_lens_configuration_${i}__ = ${ownLabel(expression)}\n`;
  });
  return { text: `\n${statements.join('')}`, named, shown };
}

/** The analysis without what lies past the document's end (the statements' own instances and findings). */
export function withinDocument(analysis: Analysis, end: number): Analysis {
  const inside = <T extends { readonly span: { readonly start: number } }>(items: readonly T[]): T[] =>
    items.filter((x) => x.span.start < end);
  return {
    ...analysis,
    layers: inside(analysis.layers),
    findings: inside(analysis.findings),
    instances: inside(analysis.instances),
    parts: inside(analysis.parts),
    hints: inside(analysis.hints),
  };
}
