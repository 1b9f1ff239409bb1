/**
 * CodeLens on each model class (its total with default arguments, or as the file's models build it when it
 * needs arguments) and on each model built at module level.
 */
import * as vscode from 'vscode';
import { moduleLensTitle } from '../core/format';
import type { Analysis } from '../core/analysis';
import type { AnalysisService } from './documents';
import { EXPLAIN_COMMAND, SHOW_DETAILS_COMMAND } from './commands';

export function modelLenses(service: AnalysisService, doc: vscode.TextDocument, analysis: Analysis): vscode.CodeLens[] {
  const lens = (span: Parameters<AnalysisService['range']>[1], title: string, explains = false) => {
    const range = service.range(doc, span);
    // Attention written by hand opens its walkthrough, as an nn.MultiheadAttention lens does.
    return explains
      ? new vscode.CodeLens(range, { title, command: EXPLAIN_COMMAND, arguments: [[doc.uri.toString(), range.start.line, range.start.character]], tooltip: 'Explain attention shapes' })
      : new vscode.CodeLens(range, { title, command: SHOW_DETAILS_COMMAND, arguments: [doc.uri, range.start], tooltip: 'Show what the model is made of' });
  };
  return [
    ...analysis.modules.map((m) => lens(m.span, moduleLensTitle(m.built?.summary ?? m.summary, m.built && { name: m.name, context: m.built.context }, m.attention?.summary), m.attention !== undefined)),
    ...analysis.instances.map((i) => lens(i.span, `${i.className}: ${moduleLensTitle(i.summary)}`)),
  ];
}
