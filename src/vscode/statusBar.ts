/** A status bar item with the total of the model class the cursor is in. */
import * as vscode from 'vscode';
import { sizesText, totalText } from '../core/present/format';
import { languageOf, type AnalysisService } from './documents';

export class ModelStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'attentionLens.model',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly service: AnalysisService) {
    this.item.name = 'Attention Lens: model parameters';
    this.disposables = [
      this.item,
      vscode.window.onDidChangeTextEditorSelection((e) => this.update(e.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((e) => this.update(e)),
      service.onDidAnalyze((doc) => {
        if (vscode.window.activeTextEditor?.document === doc) this.update(vscode.window.activeTextEditor);
      }),
    ];
    this.update(vscode.window.activeTextEditor);
  }

  /** The text shown, for tests and for the item itself. */
  get text(): string | undefined {
    return this.item.text || undefined;
  }

  private update(editor: vscode.TextEditor | undefined): void {
    const analysis = editor && languageOf(editor.document) ? this.service.latest(editor.document) : undefined;
    // A document not analysed yet is asked for once; its analysis comes back through onDidAnalyze.
    if (!analysis && editor && languageOf(editor.document)) void this.service.analysis(editor.document);
    const position = editor?.selection.active;
    const current =
      position &&
      analysis?.modules.filter((m) => this.service.range(editor.document, m.extent).contains(position)).pop();
    if (!current) {
      this.item.hide();
      this.item.text = '';
      return;
    }
    const summary = current.built?.summary ?? current.summary;
    this.item.text = `$(symbol-class) ${current.name}: ${
      current.sizes && !summary.params ? `${sizesText(current.sizes.totals)} params` : totalText(summary)
    }`;
    this.item.tooltip = current.built
      ? `${current.name} as built in ${current.built.context}`
      : (current.summary.reason ?? `${current.name} built with its default arguments`);
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
