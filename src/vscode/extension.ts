/** activate(): builds the shared analysis service and registers the thin providers over it. */
import * as vscode from 'vscode';
import { AnalysisService, languageOf } from './documents';
import { LayerHoverProvider } from './hover';
import { LayerCodeLensProvider } from './codeLens';
import { DiagnosticsPublisher } from './diagnostics';
import { FixProvider } from './codeActions';
import {
  EXPLAIN_COMMAND,
  EXPLAIN_MODEL_COMMAND,
  MORE_COMMAND,
  SHOW_DETAILS_COMMAND,
  explainModel,
  explainShapes,
  moreDetails,
  showDetails,
} from './commands';
import { SECTION, Settings, placement } from './settings';
import { CHOOSE_CONFIGURATION_COMMAND, ConfigurationChoices, chooseConfiguration } from './configurationChoice';
import { ModelStatus } from './statusBar';
import { AnalysisStatus } from './analysisStatus';
import { SizeHintsProvider } from './inlayHints';
import { InlineCountsProvider } from './inlineCounts';
import { ExplainPanel, type FromWebview, type ToWebview } from './explainPanel';
import { ModelPanel, type FromModelWebview, type ToModelWebview } from './modelPanel';
import { guarded, guardedCodeActions, guardedCodeLens, guardedHover, guardedInlayHints } from './guarded';
import { hostTurns } from '../service/hostTurns';

const SELECTOR: vscode.DocumentSelector = [{ language: 'python' }, { language: 'typescript' }];

/** What the extension offers other extensions (and its integration tests). */
export interface AttentionLensApi {
  /** The status bar text for the model class under the cursor, if one is shown. */
  modelStatus(): string | undefined;
  /** The language status of the active document: whether it was analysed, and why not. */
  analysisStatus(): { text: string; detail: string | undefined };
  /** The explain panel's last message to its webview, and a way to send it what the webview would. */
  explainPanel: { message(): ToWebview | undefined; receive(message: FromWebview): Promise<void> };
  /** The same for the model sizing panel. */
  modelPanel: { message(): ToModelWebview | undefined; receive(message: FromModelWebview): Promise<void> };
  /** Times the turns of this thread the extension's work takes, until `stopTimingTurns`. */
  startTimingTurns(): void;
  /** The longest turn each kind of the extension's work took since `startTimingTurns`, in ms (hostTurns.ts). */
  stopTimingTurns(): Record<string, number>;
}

/**
 * Settings by document, read once until the configuration changes: each surface asks after every analysis,
 * and one read of a language-scoped configuration took the extension host's thread milliseconds.
 */
const settingsRead = new Map<string, Settings>();

/** The settings for the document's language: `"[python]": { ... }` overrides the plain values. */
function settingsFor(doc: vscode.TextDocument): Settings {
  const key = `${doc.languageId} ${doc.uri.toString()}`;
  let settings = settingsRead.get(key);
  if (!settings) {
    if (settingsRead.size > 1_000) settingsRead.clear();
    settings = Settings.from(vscode.workspace.getConfiguration(SECTION, { languageId: doc.languageId, uri: doc.uri }));
    settingsRead.set(key, settings);
  }
  return settings;
}

export function activate(context: vscode.ExtensionContext): AttentionLensApi {
  const log = vscode.window.createOutputChannel('Attention Lens', { log: true });
  const choices = new ConfigurationChoices(context.workspaceState);
  const service = new AnalysisService(context.extensionUri, log, (key, doc) => ({
    ...choices.request(key),
    listed: Object.values(settingsFor(doc).configurations).flat(),
  }));
  const lenses = new LayerCodeLensProvider(service, (doc) => placement(settingsFor(doc)).lens);
  const inline = new InlineCountsProvider(service, (doc) => placement(settingsFor(doc)).inline);
  const diagnostics = new DiagnosticsPublisher(service, settingsFor, log);
  const status = new ModelStatus(service);
  const analysisStatus = new AnalysisStatus(service);
  const sizeHints = new SizeHintsProvider(service, (doc) => settingsFor(doc).inlayHints);
  const explainPanel = new ExplainPanel(service, context.extensionUri, (doc) => settingsFor(doc).sizing);
  const modelPanel = new ModelPanel(service, context.extensionUri, (doc) => settingsFor(doc).sizing);
  const hover = new LayerHoverProvider(
    service,
    (doc) => settingsFor(doc).hover,
    (doc) => settingsFor(doc).sizing,
  );
  context.subscriptions.push(
    log,
    choices,
    choices.onDidChange((key) => service.choiceChanged(key)),
    explainPanel,
    modelPanel,
    status,
    analysisStatus,
    sizeHints,
    inline,
    service,
    lenses,
    diagnostics,
    vscode.languages.registerInlayHintsProvider(SELECTOR, guardedInlayHints(log, 'size hints', sizeHints)),
    vscode.languages.registerInlayHintsProvider(SELECTOR, guardedInlayHints(log, 'inline counts', inline)),
    vscode.languages.registerHoverProvider(SELECTOR, guardedHover(log, hover)),
    vscode.languages.registerCodeLensProvider(SELECTOR, guardedCodeLens(log, lenses)),
    vscode.languages.registerCodeActionsProvider(SELECTOR, guardedCodeActions(log, new FixProvider(service)), {
      providedCodeActionKinds: FixProvider.kinds,
    }),
    vscode.commands.registerCommand(SHOW_DETAILS_COMMAND, guarded(log, 'show details', showDetails, undefined)),
    vscode.commands.registerCommand(
      MORE_COMMAND,
      guarded(log, 'more details', (target?: unknown) => moreDetails(hover, target), undefined),
    ),
    vscode.commands.registerCommand(
      EXPLAIN_COMMAND,
      guarded(log, 'explain shapes', (target?: unknown) => explainShapes(service, explainPanel, target), undefined),
    ),
    vscode.commands.registerCommand(
      CHOOSE_CONFIGURATION_COMMAND,
      guarded(
        log,
        'choose configuration',
        (target?: unknown, pick?: unknown) => chooseConfiguration(service, choices, target, pick),
        undefined,
      ),
    ),
    vscode.commands.registerCommand(
      EXPLAIN_MODEL_COMMAND,
      guarded(log, 'explain model sizing', (target?: unknown) => explainModel(service, modelPanel, target), undefined),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      const languages = vscode.workspace.textDocuments.filter(languageOf).map((d) => ({ languageId: d.languageId }));
      if (!e.affectsConfiguration(SECTION) && !languages.some((scope) => e.affectsConfiguration(SECTION, scope)))
        return;
      settingsRead.clear();
      if (e.affectsConfiguration(`${SECTION}.configurations`)) service.settingsChanged();
      lenses.refresh();
      sizeHints.refresh();
      inline.refresh();
      diagnostics.refreshAll();
    }),
  );
  return {
    modelStatus: () => status.text,
    analysisStatus: () => analysisStatus.state,
    explainPanel: { message: () => explainPanel.message, receive: (m) => explainPanel.receive(m) },
    modelPanel: { message: () => modelPanel.message, receive: (m) => modelPanel.receive(m) },
    startTimingTurns: () => hostTurns.start(),
    stopTimingTurns: () => hostTurns.stop(),
  };
}

export function deactivate(): void {}
