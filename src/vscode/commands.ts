/** Command ids, and the commands that move to a layer and show its details. */
import * as vscode from 'vscode';
import { attentionLayers } from '../core/analysis';
import type { AnalysisService } from './documents';
import type { ExplainPanel } from './explainPanel';

export const SHOW_DETAILS_COMMAND = 'attentionLens.showDetails';
export const EXPLAIN_COMMAND = 'attentionLens.explainShapes';
export const MORE_COMMAND = 'attentionLens.moreDetails';

/** Puts the cursor on the layer and opens its hover, which holds the details. */
export async function showDetails(uri: vscode.Uri, position: vscode.Position): Promise<void> {
  const editor = await vscode.window.showTextDocument(uri);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.commands.executeCommand('editor.action.showHover');
}

/** The hover's "More" link: the same hover again, with the notes that teach what its numbers mean. */
export async function moreDetails(hover: { expand(uri: string, start: vscode.Position): void }, arg: unknown): Promise<void> {
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
 * Opens the explain panel on the attention layer under the cursor (or at `target`), else on one picked
 * from the file's attention layers. Returns the chosen layer's line.
 */
export async function explainShapes(service: AnalysisService, panel: ExplainPanel, arg?: unknown): Promise<number | undefined> {
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
  let chosen = position ? attention.find((l) => service.range(doc, l.span).contains(position)) : undefined;
  if (!chosen) {
    const picked = await vscode.window.showQuickPick(
      attention.map((l) => ({ label: `${l.layer.kind} · line ${service.range(doc, l.span).start.line + 1}`, description: l.layer.summary, layer: l })),
      { placeHolder: 'Which attention layer?' },
    );
    chosen = picked?.layer;
  }
  if (!chosen) return undefined;
  const start = service.range(doc, chosen.span).start;
  await panel.show({ uri: doc.uri.toString(), line: start.line, character: start.character });
  return start.line;
}

/** `[uri, line, character]` as the extension's lenses and hover links pass it; anything else is ignored. */
function explainTarget(arg: unknown): [string, number, number] | undefined {
  if (!Array.isArray(arg) || arg.length !== 3) return undefined;
  const [uri, line, character] = arg as unknown[];
  const position = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return typeof uri === 'string' && position(line) && position(character) ? [uri, line as number, character as number] : undefined;
}
