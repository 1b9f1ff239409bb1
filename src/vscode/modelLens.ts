/**
 * CodeLens on each model class (its total with default arguments, or as the file's models build it when it
 * needs arguments) and on each model built at module level.
 */
import * as vscode from 'vscode';
import { moduleLensTitle } from '../core/format';
import type { Analysis } from '../core/analysis';
import type { AnalysisService } from './documents';
import { SHOW_DETAILS_COMMAND } from './commands';

export function modelLenses(service: AnalysisService, doc: vscode.TextDocument, analysis: Analysis): vscode.CodeLens[] {
  const lens = (span: Parameters<AnalysisService['range']>[1], title: string) => {
    const range = service.range(doc, span);
    return new vscode.CodeLens(range, { title, command: SHOW_DETAILS_COMMAND, arguments: [doc.uri, range.start], tooltip: 'Show what the model is made of' });
  };
  return [
    ...analysis.modules.map((m) => lens(m.span, moduleLensTitle(m.built?.summary ?? m.summary, m.built && { name: m.name, context: m.built.context }))),
    ...analysis.instances.map((i) => lens(i.span, `${i.className}: ${moduleLensTitle(i.summary)}`)),
  ];
}
