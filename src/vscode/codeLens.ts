/** CodeLenses above layer definitions (`1,050,624 params · 8 heads × 64`) and model classes, as attentionLens.codeLens.mode places them. */
import * as vscode from 'vscode';
import type { AnalysisService } from './documents';
import { layerItems, modelItems, type CountItem } from './countItems';
import type { Placement } from './settings';

/**
 * A lens sent without its title and command, which resolveCodeLens adds once the editor shows it: a
 * 5,000-line file has 600 lenses, and their titles sent after every pause in typing (200 KB, compressed on
 * the extension host's thread) stalled it for tens of milliseconds; the editor resolves the dozen on screen.
 */
class CountLens extends vscode.CodeLens {
  constructor(readonly item: CountItem) {
    super(item.range);
  }
}

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
    return items.map((i) => new CountLens(i));
  }

  resolveCodeLens(lens: vscode.CodeLens): vscode.CodeLens {
    if (lens instanceof CountLens) lens.command = lens.item.shown().command;
    return lens;
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeCodeLenses.dispose();
  }
}
