/** Optional inlay hints: the feature size known after each assignment of forward(). */
import * as vscode from 'vscode';
import { groupDigits } from '../core/values/symbolic';
import type { AnalysisService } from './documents';

export class SizeHintsProvider implements vscode.InlayHintsProvider, vscode.Disposable {
  private readonly _onDidChangeInlayHints = new vscode.EventEmitter<void>();
  readonly onDidChangeInlayHints = this._onDidChangeInlayHints.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly service: AnalysisService,
    /** Whether the surface is on for this document's language. */
    private readonly enabled: (doc: vscode.TextDocument) => boolean,
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
    if (!this.enabled(doc)) return [];
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return [];
    const hints: vscode.InlayHint[] = [];
    for (const h of analysis.hints) {
      const end = this.service.range(doc, h.span).end;
      if (!range.contains(end) || h.features.constant === undefined) continue;
      const hint = new vscode.InlayHint(end, `→ ${groupDigits(h.features.constant)}`, vscode.InlayHintKind.Type);
      hint.paddingLeft = true;
      hint.tooltip = 'Feature size (last dimension) after this step, followed from the layers it went through';
      hints.push(hint);
    }
    return hints;
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeInlayHints.dispose();
  }
}
