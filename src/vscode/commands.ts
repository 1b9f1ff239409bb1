/** Command ids, and the commands that move to a layer and show its details. */
import * as vscode from 'vscode';
import { attentionLayers, type Analysis, type LayerResult } from '../core/analysis/analyze';
import type { Span } from '../core/ir/expr';
import type { AnalysisService } from './documents';
import type { ExplainPanel } from './explainPanel';
import type { ModelPanel } from './modelPanel';

export const SHOW_DETAILS_COMMAND = 'attentionLens.showDetails';
export const EXPLAIN_COMMAND = 'attentionLens.explainShapes';
export const MORE_COMMAND = 'attentionLens.moreDetails';
export const EXPLAIN_MODEL_COMMAND = 'attentionLens.explainModel';

/** Puts the cursor on the layer and opens its hover, which holds the details. */
export async function showDetails(uri: vscode.Uri, position: vscode.Position): Promise<void> {
  const editor = await vscode.window.showTextDocument(uri);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.commands.executeCommand('editor.action.showHover');
}

/** The hover's "More" link: the same hover again, with the notes that teach what its numbers mean. */
export async function moreDetails(
  hover: { expand(uri: string, start: vscode.Position): void },
  arg: unknown,
): Promise<void> {
  const target = explainTarget(arg);
  // Only a document already open: the arguments arrive through a link, and a link opens nothing new.
  const doc = target && vscode.workspace.textDocuments.find((d) => d.uri.toString() === target[0]);
  if (!target || !doc) return;
  const start = new vscode.Position(target[1], target[2]);
  hover.expand(target[0], start);
  // A hover still showing would only take the focus (showHover focuses an open hover): close it first.
  await vscode.commands.executeCommand('editor.action.hideHover');
  await showDetails(doc.uri, start);
}

/**
 * Opens the explain panel on the attention layer the cursor (or `target`) is in, else on one picked from
 * the file's attention layers. Returns the chosen layer's line.
 */
export async function explainShapes(
  service: AnalysisService,
  panel: ExplainPanel,
  arg?: unknown,
): Promise<number | undefined> {
  const editor = vscode.window.activeTextEditor;
  const target = explainTarget(arg);
  // Only a document already open: the arguments arrive through a link, and a link opens nothing new.
  const doc = target ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === target[0]) : editor?.document;
  if (!doc) return undefined;
  const analysis = await service.analysis(doc);
  const attention = analysis ? attentionLayers(analysis) : [];
  if (!attention.length) {
    void vscode.window.showInformationMessage('Attention Lens: no attention layer in this file.');
    return undefined;
  }
  const position = target ? new vscode.Position(target[1], target[2]) : editor?.selection.active;
  let chosen = attentionAround(
    attention,
    analysis!.modules,
    (span) => position !== undefined && service.range(doc, span).contains(position),
  );
  if (!chosen) {
    const picked = await vscode.window.showQuickPick(
      attention.map((l) => ({
        label: `${l.layer.kind} · line ${service.range(doc, l.span).start.line + 1}`,
        description: l.layer.summary,
        layer: l,
      })),
      { placeHolder: 'Which attention layer?' },
    );
    chosen = picked?.layer;
  }
  if (!chosen) return undefined;
  const start = service.range(doc, chosen.span).start;
  await panel.show({ uri: doc.uri.toString(), line: start.line, character: start.character });
  return start.line;
}

/**
 * The attention layer the cursor is in: the innermost attention call or attention class around it, else
 * the one attention layer of the class around it, else the file's only one; undefined when the choice is
 * the user's.
 */
function attentionAround(
  attention: readonly LayerResult[],
  modules: Analysis['modules'],
  contains: (span: Span) => boolean,
): LayerResult | undefined {
  const size = (span: Span) => span.end - span.start;
  const innermost = <T>(xs: readonly T[], spanOf: (x: T) => Span) =>
    xs.reduce<T | undefined>(
      (best, x) => (best === undefined || size(spanOf(x)) < size(spanOf(best)) ? x : best),
      undefined,
    );
  const site = innermost(
    attention.filter((l) => contains(l.span)),
    (l) => l.span,
  );
  if (site) return site;
  const cls = innermost(
    modules.filter((m) => contains(m.extent)),
    (m) => m.extent,
  );
  if (cls?.attention) return attention.find((l) => l.span.start === cls.span.start);
  const inClass = cls ? attention.filter((l) => l.span.start >= cls.extent.start && l.span.end <= cls.extent.end) : [];
  if (inClass.length === 1) return inClass[0];
  return attention.length === 1 ? attention[0] : undefined;
}

/**
 * Opens the model sizing panel on the model built under the cursor (or at `target`); on a model class, on the
 * first model the file builds of it; else on one picked from the models the file builds. Only models built
 * with their sizes (`model = GPT(GPTConfig())`) have figures: a class alone has names for its sizes.
 * Returns the chosen model's line.
 */
export async function explainModel(
  service: AnalysisService,
  panel: ModelPanel,
  arg?: unknown,
): Promise<number | undefined> {
  const editor = vscode.window.activeTextEditor;
  const target = explainTarget(arg);
  const doc = target ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === target[0]) : editor?.document;
  if (!doc) return undefined;
  const analysis = await service.analysis(doc);
  const sized = (analysis?.instances ?? []).filter((i) => i.sizing);
  const position = target ? new vscode.Position(target[1], target[2]) : editor?.selection.active;
  const contains = (span: Parameters<AnalysisService['range']>[1]) =>
    position !== undefined && service.range(doc, span).contains(position);
  const cls = analysis?.modules.find((m) => contains(m.extent));
  let chosen =
    sized.find((i) => contains(i.span)) ??
    (cls &&
      (sized.find((i) => i.className === cls.name && i.configuration) ?? sized.find((i) => i.className === cls.name)));
  if (!chosen && cls && !analysis?.instances.some((i) => contains(i.span))) {
    void vscode.window.showInformationMessage(
      `Attention Lens: this file builds no ${cls.name} with its sizes (such as \`model = ${cls.name}(...)\` at module level), so there is nothing to size.`,
    );
    return undefined;
  }
  if (!chosen && !sized.length) {
    void vscode.window.showInformationMessage(
      'Attention Lens: this file builds no model with its sizes (such as `model = GPT(GPTConfig())` at module level).',
    );
    return undefined;
  }
  if (!chosen) {
    const picked = await vscode.window.showQuickPick(
      sized.map((i) => ({
        label: `${i.className} · line ${service.range(doc, i.span).start.line + 1}`,
        description: i.summary.params?.constant?.toLocaleString('en-US'),
        instance: i,
      })),
      { placeHolder: 'Which model?' },
    );
    chosen = picked?.instance;
  }
  if (!chosen) return undefined;
  const start = service.range(doc, chosen.span).start;
  await panel.show({ uri: doc.uri.toString(), line: start.line, character: start.character });
  return start.line;
}

/** `[uri, line, character]` as the extension's lenses and hover links pass it; anything else is ignored. */
export function explainTarget(arg: unknown): [string, number, number] | undefined {
  if (!Array.isArray(arg) || arg.length !== 3) return undefined;
  const [uri, line, character] = arg as unknown[];
  const position = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return typeof uri === 'string' && position(line) && position(character)
    ? [uri, line as number, character as number]
    : undefined;
}
