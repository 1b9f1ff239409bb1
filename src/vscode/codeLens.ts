/** A CodeLens above each layer definition: `1,050,624 params · 8 heads × 64`. */
import * as vscode from 'vscode';
import { lensTitle } from '../core/format';
import type { AnalysisService } from './documents';
import { EXPLAIN_COMMAND, SHOW_DETAILS_COMMAND } from './commands';
import { modelLenses } from './modelLens';

export class LayerCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly _onDidChangeCodeLenses = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this._onDidChangeCodeLenses.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly service: AnalysisService,
    /** Whether the surface is on for this document's language. */
    private readonly enabled: (doc: vscode.TextDocument) => boolean,
  ) {
    this.subscription = service.onDidAnalyze(() => this._onDidChangeCodeLenses.fire());
  }

  refresh(): void {
    this._onDidChangeCodeLenses.fire();
  }

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!this.enabled(doc)) return [];
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return [];
    return [
      ...modelLenses(this.service, doc, analysis),
      ...analysis.layers.map((l) => {
        const range = this.service.range(doc, l.span);
        // An attention layer's lens opens its walkthrough; other layers' open their details in the hover.
        return l.layer.attention
          ? new vscode.CodeLens(range, { title: lensTitle(l), command: EXPLAIN_COMMAND, arguments: [[doc.uri.toString(), range.start.line, range.start.character]], tooltip: 'Explain attention shapes' })
          : new vscode.CodeLens(range, { title: lensTitle(l), command: SHOW_DETAILS_COMMAND, arguments: [doc.uri, range.start], tooltip: 'Show the parameter tensors' });
      }),
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeCodeLenses.dispose();
  }
}
