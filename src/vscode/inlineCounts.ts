/**
 * Counts at the end of their lines (`  1,050,624`), for those who find a CodeLens line above each layer too
 * much: inlay hints, so they take no line of their own, follow the editor's inlay hint font and colours,
 * and open the same panel or details on click. The count alone, so that it stays on screen after a long
 * line; what the CodeLens says beside it (heads, sizes, the model that builds it) is its tooltip.
 */
import * as vscode from 'vscode';
import type { AnalysisService } from './documents';
import { layerItems, modelItems } from './countItems';
import type { Placement } from './settings';

export class InlineCountsProvider implements vscode.InlayHintsProvider, vscode.Disposable {
  private readonly _onDidChangeInlayHints = new vscode.EventEmitter<void>();
  readonly onDidChangeInlayHints = this._onDidChangeInlayHints.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly service: AnalysisService,
    /** Which counts show inline for this document's language. */
    private readonly where: (doc: vscode.TextDocument) => Placement['inline'],
  ) {
    this.subscription = service.onDidAnalyze(() => this._onDidChangeInlayHints.fire());
  }

  refresh(): void {
    this._onDidChangeInlayHints.fire();
  }

  async provideInlayHints(
    doc: vscode.TextDocument,
    range: vscode.Range,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlayHint[]> {
    const where = this.where(doc);
    if (!where.layers && !where.models) return [];
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return [];
    const items = [
      ...(where.models ? modelItems(this.service, doc, analysis) : []),
      ...(where.layers ? layerItems(this.service, doc, analysis) : []),
    ];
    const hints: vscode.InlayHint[] = [];
    for (const item of items.sort((a, b) => a.range.start.compareTo(b.range.start))) {
      // The end of the line where the call or class header ends, after any closing bracket or comment.
      const line = item.range.end.line;
      if (line < range.start.line || line > range.end.line || line >= doc.lineCount) continue;
      const { short, title, command } = item.shown();
      const label = new vscode.InlayHintLabelPart(short);
      label.command = command;
      label.tooltip = `${title}\n\n${command.tooltip ?? ''}`.trim();
      const hint = new vscode.InlayHint(doc.lineAt(line).range.end, [label]);
      hint.paddingLeft = true;
      hints.push(hint);
    }
    return hints;
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeInlayHints.dispose();
  }
}
