/**
 * The "Explain attention shapes" panel: one panel, reused; it follows the cursor to another attention
 * layer, refreshes when the source changes, and survives a window reload. The numbers come from
 * core/explain.ts over the same cached analysis as the hover; the webview only draws them.
 */
import * as vscode from 'vscode';
import { visibleControls, visibleStrings } from '../core/present/controls';
import { attentionLayers, type LayerResult } from '../core/analysis/analyze';
import { explain } from '../core/present/explain';
import { inputsFromSizing, readInputs, type ExplainInputs } from '../core/sizing/explainInputs';
import type { SizingOptions } from '../core/sizing/memory';
import { explainMarkdown } from '../core/present/explainMarkdown';
import type { AnalysisService } from './documents';
import { revealAt } from './reveal';
import { webviewHtml, webviewOptions } from './webviewHtml';
import { placeOf } from './notebookCells';
import type { ExplainView, FromWebview, Target, ToWebview } from './webviewProtocol';

export type { FromWebview, Target, ToWebview };

export const EXPLAIN_VIEW = 'attentionLens.explain';

/** Where the explained layer is: its document and the start of its call. */

/** What the panel keeps across reloads (webview state). */
interface PanelState {
  readonly target?: Target;
  readonly inputs?: ExplainInputs;
}

type View = ExplainView;

export class ExplainPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private target: Target | undefined;
  /** The sizes asked for; until the user sets some, the model sizing settings'. */
  private inputs: ExplainInputs | undefined;
  private view: View | undefined;
  private last: ToWebview | undefined;
  private readonly disposables: vscode.Disposable[];
  private panelDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly service: AnalysisService,
    private readonly extensionUri: vscode.Uri,
    private readonly defaults: (doc: vscode.TextDocument) => SizingOptions,
  ) {
    this.disposables = [
      vscode.window.registerWebviewPanelSerializer(EXPLAIN_VIEW, {
        deserializeWebviewPanel: async (panel, state: PanelState | undefined) => {
          this.inputs = readInputs(state?.inputs).inputs;
          this.attach(panel);
          if (state?.target) await this.show(state.target);
        },
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => void this.follow(e.textEditor)),
      service.onDidAnalyze((doc) => {
        if (this.panel && doc.uri.toString() === this.target?.uri) void this.refresh();
      }),
    ];
  }

  /** Opens (or reveals) the panel on the layer at `target`. */
  async show(target: Target): Promise<void> {
    this.target = target;
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        EXPLAIN_VIEW,
        'Explain attention shapes',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        webviewOptions(this.extensionUri),
      );
      this.attach(panel);
    } else {
      this.panel.reveal(undefined, true);
    }
    await this.refresh();
  }

  /** What the panel was last sent, for the integration tests. */
  get message(): ToWebview | undefined {
    return this.last;
  }

  /** Handles a message as if the webview had sent it. */
  async receive(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (this.view) await this.post(this.view);
        return;
      case 'inputs': {
        const read = readInputs(message.inputs);
        if (read.errors) {
          // The walkthrough keeps the last sizes that were valid; the fields say what is wrong.
          await this.post({ type: 'invalid', errors: read.errors });
          return;
        }
        this.inputs = read.inputs;
        await this.refresh();
        return;
      }
      case 'copy':
        await this.copy();
        return;
      case 'reveal':
        await this.reveal();
        return;
    }
  }

  private async copy(): Promise<void> {
    if (this.view?.type !== 'explain') return;
    let ok = true;
    try {
      await vscode.env.clipboard.writeText(explainMarkdown(this.view.data));
    } catch {
      ok = false;
    }
    await this.post({ type: 'copied', ok });
  }

  /** The title's link: the layer's line in its editor. */
  private async reveal(): Promise<void> {
    if (this.target) await revealAt(this.target.uri, this.target.line, this.target.character);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, {
      title: 'Explain attention shapes',
      styles: ['explain.css'],
      script: 'explain.js',
    });
    this.panelDisposables = [
      panel.webview.onDidReceiveMessage((m: FromWebview) => void this.receive(m)),
      panel.onDidDispose(() => {
        for (const d of this.panelDisposables) d.dispose();
        this.panel = undefined;
        this.view = undefined;
        this.last = undefined;
      }),
    ];
  }

  /** With the cursor on another attention layer, the panel moves to it. */
  private async follow(editor: vscode.TextEditor): Promise<void> {
    if (!this.panel || !this.target) return;
    const analysis = this.service.latest(editor.document);
    const here =
      analysis &&
      attentionLayers(analysis).find((l) =>
        this.service.range(editor.document, l.span).contains(editor.selection.active),
      );
    if (!here) return;
    const start = this.service.range(editor.document, here.span).start;
    const target = { uri: editor.document.uri.toString(), line: start.line, character: start.character };
    if (
      target.uri !== this.target.uri ||
      target.line !== this.target.line ||
      target.character !== this.target.character
    )
      await this.show(target);
  }

  private async refresh(): Promise<void> {
    if (!this.panel || !this.target) return;
    const target = this.target;
    const doc =
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.uri) ??
      (await vscode.workspace.openTextDocument(vscode.Uri.parse(target.uri)));
    const analysis = await this.service.analysis(doc);
    const layer =
      analysis &&
      nearestAttention(
        attentionLayers(analysis),
        (l) => this.service.range(doc, l.span),
        new vscode.Position(target.line, target.character),
      );
    if (!layer) {
      await this.post({ type: 'none', reason: 'No attention layer here any more.' });
      return;
    }
    const start = this.service.range(doc, layer.span).start;
    this.target = { uri: target.uri, line: start.line, character: start.character };
    // A layer the framework refuses has no shapes to walk through: its sizes are no framework's.
    if (layer.layer.rejected) {
      await this.post({
        type: 'none',
        reason: visibleControls(
          `${layer.layer.kind} at line ${start.line + 1} would not be built: ${layer.layer.rejected}`,
        ),
      });
      return;
    }
    this.inputs ??= inputsFromSizing(this.defaults(doc));
    const data = explain(layer.layer, placeOf(doc, start.line), this.inputs);
    // Names from the file are shown as text: their invisible and bidirectional marks are made visible.
    if (data) await this.post({ type: 'explain', data: visibleStrings(data), target: this.target });
  }

  private async post(message: ToWebview): Promise<void> {
    if (message.type === 'explain' || message.type === 'none') this.view = message;
    this.last = message;
    await this.panel?.webview.postMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The attention layer at `position`, else the nearest one by line (the code may have moved). */
function nearestAttention(
  attention: readonly LayerResult[],
  range: (l: LayerResult) => vscode.Range,
  position: vscode.Position,
): LayerResult | undefined {
  return (
    attention.find((l) => range(l).contains(position)) ??
    [...attention].sort(
      (a, b) => Math.abs(range(a).start.line - position.line) - Math.abs(range(b).start.line - position.line),
    )[0]
  );
}
