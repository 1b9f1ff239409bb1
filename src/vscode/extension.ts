/** activate(): builds the shared analysis service and registers the thin providers over it. */
import * as vscode from 'vscode';
import { AnalysisService } from './documents';
import { LayerHoverProvider } from './hover';
import { LayerCodeLensProvider } from './codeLens';
import { DiagnosticsPublisher } from './diagnostics';
import { FixProvider } from './codeActions';
import { EXPLAIN_COMMAND, SHOW_DETAILS_COMMAND, explainShapes, showDetails } from './commands';
import { SECTION, settingsFrom, type Settings } from './settings';
import { ModelStatus } from './statusBar';
import { SizeHintsProvider } from './inlayHints';
import { ExplainPanel, type FromWebview, type ToWebview } from './explainPanel';

const SELECTOR: vscode.DocumentSelector = [{ language: 'python' }, { language: 'typescript' }];

/** What the extension offers other extensions (and its integration tests). */
export interface AttentionLensApi {
  /** The status bar text for the model class under the cursor, if one is shown. */
  modelStatus(): string | undefined;
  /** The explain panel's last message to its webview, and a way to send it what the webview would. */
  explainPanel: { message(): ToWebview | undefined; receive(message: FromWebview): Promise<void> };
}

export function activate(context: vscode.ExtensionContext): AttentionLensApi {
  const log = vscode.window.createOutputChannel('Attention Lens', { log: true });
  let settings: Settings = settingsFrom(vscode.workspace.getConfiguration(SECTION));
  const service = new AnalysisService(context.extensionUri, log);
  const lenses = new LayerCodeLensProvider(service, () => settings.codeLens);
  const diagnostics = new DiagnosticsPublisher(service, () => settings.diagnostics);
  const status = new ModelStatus(service);
  const sizeHints = new SizeHintsProvider(service, () => settings.inlayHints);
  const explainPanel = new ExplainPanel(service, context.extensionUri);
  context.subscriptions.push(
    explainPanel,
    status,
    sizeHints,
    vscode.languages.registerInlayHintsProvider(SELECTOR, sizeHints),
    log,
    service,
    lenses,
    diagnostics,
    vscode.languages.registerHoverProvider(SELECTOR, new LayerHoverProvider(service, () => settings.hover)),
    vscode.languages.registerCodeLensProvider(SELECTOR, lenses),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new FixProvider(service), { providedCodeActionKinds: FixProvider.kinds }),
    vscode.commands.registerCommand(SHOW_DETAILS_COMMAND, showDetails),
    vscode.commands.registerCommand(EXPLAIN_COMMAND, (target?: [string, number, number]) => explainShapes(service, explainPanel, target)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      settings = settingsFrom(vscode.workspace.getConfiguration(SECTION));
      lenses.refresh();
      sizeHints.refresh();
      diagnostics.refreshAll();
    }),
  );
  return {
    modelStatus: () => status.text,
    explainPanel: { message: () => explainPanel.message, receive: (m) => explainPanel.receive(m) },
  };
}

export function deactivate(): void {}
