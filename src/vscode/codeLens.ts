/** CodeLenses above layer definitions (`1,050,624 params · 8 heads × 64`) and model classes, as attentionLens.codeLens.mode places them. */
import * as vscode from 'vscode';
import type { AnalysisService } from './documents';
import { layerItems, modelItems } from './countItems';
import type { Placement } from './settings';

export class LayerCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly _onDidChangeCodeLenses = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this._onDidChangeCodeLenses.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly service: AnalysisService,
    /** Which lenses show for this document's language. */
    private readonly where: (doc: vscode.TextDocument) => Placement['lens'],
  ) {
    this.subscription = service.onDidAnalyze(() => this._onDidChangeCodeLenses.fire());
  }

  refresh(): void {
    this._onDidChangeCodeLenses.fire();
  }

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const where = this.where(doc);
    if (!where.layers && !where.models) return [];
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return [];
    const items = [
      ...(where.models ? modelItems(this.service, doc, analysis) : []),
      ...(where.layers ? layerItems(this.service, doc, analysis) : []),
    ];
    return items.map((i) => new vscode.CodeLens(i.range, i.command));
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeCodeLenses.dispose();
  }
}
