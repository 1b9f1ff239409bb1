/** A status bar item with the total of the model class the cursor is in. */
import * as vscode from 'vscode';
import { totalText } from '../core/present/format';
import { languageOf, type AnalysisService } from './documents';

export class ModelStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'attentionLens.model',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly disposables: vscode.Disposable[];
  private generation = 0;

  constructor(private readonly service: AnalysisService) {
    this.item.name = 'Attention Lens: model parameters';
    this.disposables = [
      this.item,
      vscode.window.onDidChangeTextEditorSelection((e) => void this.update(e.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((e) => void this.update(e)),
      service.onDidAnalyze((doc) => {
        if (vscode.window.activeTextEditor?.document === doc) void this.update(vscode.window.activeTextEditor);
      }),
    ];
    void this.update(vscode.window.activeTextEditor);
  }

  /** The text shown, for tests and for the item itself. */
  get text(): string | undefined {
    return this.item.text || undefined;
  }

  private async update(editor: vscode.TextEditor | undefined): Promise<void> {
    const generation = ++this.generation;
    const analysis = editor && languageOf(editor.document) ? await this.service.analysis(editor.document) : undefined;
    if (generation !== this.generation) return;
    const position = editor?.selection.active;
    const current =
      position &&
      analysis?.modules.filter((m) => this.service.range(editor.document, m.extent).contains(position)).pop();
    if (!current) {
      this.item.hide();
      this.item.text = '';
      return;
    }
    this.item.text = `$(symbol-class) ${current.name}: ${totalText(current.built?.summary ?? current.summary)}`;
    this.item.tooltip = current.built
      ? `${current.name} as built in ${current.built.context}`
      : (current.summary.reason ?? `${current.name} built with its default arguments`);
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
