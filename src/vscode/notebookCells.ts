/** A notebook cell's notebook, the program its code cells make, and the names of its places. */
import * as vscode from 'vscode';
import type { CellLines } from '../core/ir/cellLines';

export function notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined {
  if (doc.uri.scheme !== 'vscode-notebook-cell') return undefined;
  return vscode.workspace.notebookDocuments.find((n) => n.getCells().some((c) => c.document === doc));
}

/**
 * What a document is analysed as: a file alone, or its notebook's code cells of its language, joined by one
 * line break each in order (each cell starts on the line after the last line of the one before).
 */
export interface Program {
  /** The file's URI, or the notebook's with the language. */
  readonly key: string;
  readonly docs: readonly vscode.TextDocument[];
  /** Changes with any document's version and with `numbering`. */
  readonly signature: string;
  /** The code cells' places among all cells, which name lines. */
  readonly numbering: string;
  /** For a notebook, where its cells lie in the joined text, which names its lines (`cell 3, line 2`). */
  readonly cells?: CellLines;
}

export function notebookKey(notebook: vscode.NotebookDocument, language: string): string {
  return `${notebook.uri.toString()}#${language}`;
}

/** The key of the program `doc` belongs to (Program.key), found without reading every cell. */
export function programKey(doc: vscode.TextDocument): string {
  const notebook = notebookOf(doc);
  return notebook ? notebookKey(notebook, doc.languageId) : doc.uri.toString();
}

export function programOf(doc: vscode.TextDocument): Program {
  const notebook = notebookOf(doc);
  if (!notebook) return { key: doc.uri.toString(), docs: [doc], signature: `${doc.version}`, numbering: '' };
  const code = notebook
    .getCells()
    .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === doc.languageId);
  const docs = code.map((c) => c.document);
  const numbers = code.map((c) => c.index + 1);
  const firstLines: number[] = [];
  let line = 0;
  for (const cell of docs) {
    firstLines.push(line);
    line += cell.lineCount;
  }
  return {
    key: notebookKey(notebook, doc.languageId),
    docs,
    signature: code.map((c) => `${c.index}:${c.document.uri.toString()}@${c.document.version}`).join(','),
    numbering: numbers.join(','),
    cells: { firstLines, numbers },
  };
}

/**
 * Where a line of a document is, as a panel's title says it: `gpt.py:202` relative to the workspace, and
 * for a notebook cell `vit.ipynb, cell 3:5` (the cell's own URI is no path a user knows).
 */
export function placeOf(doc: vscode.TextDocument, line: number): string {
  const notebook = notebookOf(doc);
  if (!notebook) return `${vscode.workspace.asRelativePath(doc.uri)}:${line + 1}`;
  const cell = notebook.getCells().findIndex((c) => c.document === doc);
  return `${vscode.workspace.asRelativePath(notebook.uri)}, cell ${cell + 1}:${line + 1}`;
}
