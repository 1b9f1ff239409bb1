/**
 * The user's own configurations (`Transformer(ModelArgs(vocab_size=32000))`), analysed as statements appended
 * after the document's text, each building its model at module level as a line of the file would, named after
 * the expression (SourceModel.named). What they add at their own lines is no part of the document's analysis.
 */
import type { Analysis } from '../core/analysis/analyze';

export interface OwnStatements {
  /** What is appended to the document's text: empty without configurations. */
  readonly text: string;
  /** Each configuration by the 0-based line of its statement. */
  readonly named: ReadonlyMap<number, string>;
}

/** One line each: an expression written over several is joined (Python allows it inside its brackets). */
export function ownLabel(expression: string): string {
  return expression.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export function ownStatements(documentText: string, own: readonly string[]): OwnStatements {
  const named = new Map<number, string>();
  if (!own.length) return { text: '', named };
  let line = 1;
  for (let i = documentText.indexOf('\n'); i >= 0; i = documentText.indexOf('\n', i + 1)) line++;
  const statements = own.map((expression, i) => {
    named.set(line + i, ownLabel(expression));
    return `__attention_lens_configuration_${i}__ = ${ownLabel(expression)}\n`;
  });
  return { text: `\n${statements.join('')}`, named };
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
