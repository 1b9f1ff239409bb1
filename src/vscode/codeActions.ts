/**
 * Quick fixes: those a finding carries (the nearest head or group counts that divide, `//` or
 * `Math.floor(…)` for a float size, a negative literal's sign), and for every diagnostic a way to silence
 * it on its line with an `attention-lens: ignore[code]` comment.
 */
import * as vscode from 'vscode';
import { ignoreEdit } from '../syntax/ignores';
import { languageOf, type AnalysisService } from './documents';
import { DIAGNOSTIC_SOURCE } from './diagnostics';

export class FixProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly service: AnalysisService) {}

  async provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (!ours.length) return [];
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of ours) {
      const finding = analysis.findings.find(
        (f) => f.code === diagnostic.code && this.service.range(doc, f.span).isEqual(diagnostic.range),
      );
      finding?.fixes.forEach((fix, i) => {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = i === 0;
        action.edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) action.edit.replace(doc.uri, this.service.range(doc, e.span), e.text);
        actions.push(action);
      });
      const ignore = this.ignore(doc, diagnostic);
      if (ignore) actions.push(ignore);
    }
    return actions;
  }

  /** `# attention-lens: ignore[code]` on the line the diagnostic starts on, which is the line the directive silences. */
  private ignore(doc: vscode.TextDocument, diagnostic: vscode.Diagnostic): vscode.CodeAction | undefined {
    const language = languageOf(doc);
    const code = typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code ?? '');
    const line = diagnostic.range.start.line;
    const edit = language && code ? ignoreEdit(doc.lineAt(line).text, code, language) : undefined;
    if (!edit) return undefined;
    const action = new vscode.CodeAction(`Ignore ${code} on this line`, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [diagnostic];
    action.edit = new vscode.WorkspaceEdit();
    action.edit.replace(doc.uri, new vscode.Range(line, edit.start, line, edit.end), edit.text);
    return action;
  }
}
