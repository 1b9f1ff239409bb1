/**
 * The "Explain model sizing" panel: one panel, reused, on a model the file builds (`model = GPT(...)`). It
 * refreshes when the source changes and survives a window reload. The figures come from core/modelPanel.ts
 * over the same cached analysis and Sizing as the model hover; the webview only draws them. It starts from
 * the `attentionLens.sizing.*` settings; what the user sets in it stays with the panel.
 */
import * as vscode from 'vscode';
import { visibleStrings } from '../core/present/controls';
import type { SizingOptions } from '../core/sizing/memory';
import { readModelInputs } from '../core/sizing/modelInputs';
import { modelMarkdown } from '../core/present/modelMarkdown';
import { modelPanel, type ModelPanelData } from '../core/present/modelPanel';
import type { InstanceResult } from '../core/analysis/results';
import type { AnalysisService } from './documents';

import { revealAt } from './reveal';
import { webviewHtml, webviewOptions } from './webviewHtml';
import { placeOf } from './notebookCells';
import type { FromModelWebview, ModelPanelView, Target, ToModelWebview } from './webviewProtocol';

export type { FromModelWebview, ToModelWebview };

export const MODEL_VIEW = 'attentionLens.modelSizing';
const TITLE = 'Explain model sizing';

interface PanelState {
  readonly target?: Target;
  readonly inputs?: SizingOptions;
}

/** Messages from the webview: inputs as typed (checked here); `reveal` with a layer's index in the list shown. */
type View = ModelPanelView;

export class ModelPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private target: Target | undefined;
  /** Set once the user changes a field; until then, the settings of the model's document. */
  private inputs: SizingOptions | undefined;
  private data: ModelPanelData | undefined;
  private view: View | undefined;
  private last: ToModelWebview | undefined;
  private readonly disposables: vscode.Disposable[];
  private panelDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly service: AnalysisService,
    private readonly extensionUri: vscode.Uri,
    private readonly defaults: (doc: vscode.TextDocument) => SizingOptions,
  ) {
    this.disposables = [
      vscode.window.registerWebviewPanelSerializer(MODEL_VIEW, {
        deserializeWebviewPanel: async (panel, state: PanelState | undefined) => {
          this.inputs = readModelInputs(state?.inputs).inputs;
          this.attach(panel);
          if (state?.target) await this.show(state.target);
        },
      }),
      service.onDidAnalyze((doc) => {
        if (this.panel && doc.uri.toString() === this.target?.uri) void this.refresh();
      }),
    ];
  }

  /** Opens (or reveals) the panel on the model built at `target`. */
  async show(target: Target): Promise<void> {
    this.target = target;
    if (this.panel) this.panel.reveal(undefined, true);
    else
      this.attach(
        vscode.window.createWebviewPanel(
          MODEL_VIEW,
          TITLE,
          { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
          webviewOptions(this.extensionUri),
        ),
      );
    await this.refresh();
  }

  /** What the panel was last sent, for the integration tests. */
  get message(): ToModelWebview | undefined {
    return this.last;
  }

  /** Handles a message as if the webview had sent it. */
  async receive(message: FromModelWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (this.view) await this.post(this.view);
        return;
      case 'inputs': {
        const read = readModelInputs(message.inputs);
        // The figures keep the last inputs that were valid; the fields say what is wrong.
        if (read.errors) return this.post({ type: 'invalid', errors: read.errors });
        this.inputs = read.inputs;
        return this.refresh();
      }
      case 'copy':
        return this.copy();
      case 'reveal':
        return this.reveal(message.layer);
    }
  }

  private async copy(): Promise<void> {
    if (!this.data) return;
    let ok = true;
    try {
      await vscode.env.clipboard.writeText(modelMarkdown(this.data));
    } catch {
      ok = false;
    }
    await this.post({ type: 'copied', ok });
  }

  /** The title's link goes to the model's line; a layer's, to where that layer is written. */
  private async reveal(layer: unknown): Promise<void> {
    const target = this.target;
    if (!target) return;
    const row = typeof layer === 'number' ? this.data?.activations.layers[layer] : undefined;
    const doc = row?.at && vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.uri);
    const at =
      doc && row?.at ? this.service.range(doc, row.at).start : new vscode.Position(target.line, target.character);
    await revealAt(target.uri, at.line, at.character);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, {
      title: TITLE,
      styles: ['explain.css', 'model.css'],
      script: 'model.js',
    });
    this.panelDisposables = [
      panel.webview.onDidReceiveMessage((m: FromModelWebview) => void this.receive(m)),
      panel.onDidDispose(() => {
        for (const d of this.panelDisposables) d.dispose();
        this.panel = undefined;
        this.data = undefined;
        this.view = undefined;
        this.last = undefined;
      }),
    ];
  }

  private async refresh(): Promise<void> {
    if (!this.panel || !this.target) return;
    const target = this.target;
    const doc =
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.uri) ??
      (await vscode.workspace.openTextDocument(vscode.Uri.parse(target.uri)));
    const analysis = await this.service.analysis(doc);
    const instance =
      analysis &&
      nearestInstance(
        analysis.instances,
        (i) => this.service.range(doc, i.span),
        new vscode.Position(target.line, target.character),
      );
    if (!instance?.sizing) {
      this.data = undefined;
      await this.post({
        type: 'none',
        reason: instance
          ? `${instance.className} has no sizing: its parameter count is not known.`
          : 'No model is built here any more.',
      });
      return;
    }
    const start = this.service.range(doc, instance.span).start;
    this.target = { uri: target.uri, line: start.line, character: start.character };
    this.inputs ??= this.defaults(doc);
    // A configuration the user chose says which it is: the class alone has no sizes.
    const name = instance.configuration ? `${instance.className} as ${instance.configuration}` : instance.className;
    this.data = modelPanel(name, placeOf(doc, start.line), instance.sizing, this.inputs);
    const layers = this.data.activations.layers.map(({ at, ...l }) =>
      at ? { ...l, line: this.service.range(doc, at).start.line + 1 } : l,
    );
    await this.post({
      type: 'model',
      data: visibleStrings({ ...this.data, activations: { ...this.data.activations, layers } }),
      target: this.target,
    });
  }

  private async post(message: ToModelWebview): Promise<void> {
    if (message.type === 'model' || message.type === 'none') this.view = message;
    this.last = message;
    await this.panel?.webview.postMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The model built at `position`, else the nearest one by line (the code may have moved). */
function nearestInstance(
  instances: readonly InstanceResult[],
  range: (i: InstanceResult) => vscode.Range,
  position: vscode.Position,
): InstanceResult | undefined {
  const distance = (i: InstanceResult) => Math.abs(range(i).start.line - position.line);
  return (
    instances.find((i) => range(i).contains(position)) ?? [...instances].sort((a, b) => distance(a) - distance(b))[0]
  );
}
