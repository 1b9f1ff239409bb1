/** Quick fixes for findings that carry one (the nearest head counts that divide the embedding). */
import * as vscode from 'vscode';
import type { AnalysisService } from './documents';
import { DIAGNOSTIC_SOURCE } from './diagnostics';

export class FixProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly service: AnalysisService) {}

  async provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (!ours.length) return [];
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of ours) {
      const finding = analysis.findings.find((f) => f.code === diagnostic.code && this.service.range(doc, f.span).isEqual(diagnostic.range));
      finding?.fixes.forEach((fix, i) => {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = i === 0;
        action.edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) action.edit.replace(doc.uri, this.service.range(doc, e.span), e.text);
        actions.push(action);
      });
    }
    return actions;
  }
}
