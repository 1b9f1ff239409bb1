/**
 * A language status item saying whether the active file was analysed. A file too large, or one the
 * parser gave up on, shows no lens and no hover: this says why instead of leaving the user guessing.
 */
import * as vscode from 'vscode';
import { languageOf, type AnalysisService } from './documents';

export class AnalysisStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('attentionLens.analysis', [
    { language: 'python' },
    { language: 'typescript' },
  ]);
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly service: AnalysisService) {
    this.item.name = 'Attention Lens';
    this.item.text = 'Attention Lens';
    this.disposables = [
      this.item,
      vscode.window.onDidChangeActiveTextEditor((e) => this.update(e?.document)),
      service.onDidAnalyze((doc) => {
        if (vscode.window.activeTextEditor?.document === doc) this.update(doc);
      }),
    ];
    this.update(vscode.window.activeTextEditor?.document);
  }

  /** What the item shows, for the integration tests. */
  get state(): { text: string; detail: string | undefined } {
    return { text: this.item.text, detail: this.item.detail };
  }

  private update(doc: vscode.TextDocument | undefined): void {
    if (!doc || !languageOf(doc)) return;
    const reason = this.service.skippedReason(doc);
    this.item.text = reason ? '$(warning) Attention Lens: not analysed' : 'Attention Lens';
    this.item.detail = reason;
    this.item.severity = reason ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
