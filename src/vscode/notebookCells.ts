/** Where a notebook cell sits among its notebook's code cells. */
import * as vscode from 'vscode';
import type { LineName } from '../core/source';

export function notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined {
  if (doc.uri.scheme !== 'vscode-notebook-cell') return undefined;
  return vscode.workspace.notebookDocuments.find((n) => n.getCells().some((c) => c.document === doc));
}

/** The code cells of the same language as `doc`, in order, with their place among all cells, and where `doc` is among them. */
function codeCells(notebook: vscode.NotebookDocument, doc: vscode.TextDocument): { cells: vscode.TextDocument[]; numbers: number[]; index: number } {
  const code = notebook.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === doc.languageId);
  const cells = code.map((c) => c.document);
  return { cells, numbers: code.map((c) => c.index + 1), index: cells.indexOf(doc) };
}

export interface NotebookContext {
  readonly before: string;
  /** Each code cell's number among all cells: when it changes, so do the names of lines. */
  readonly numbering: string;
  /** `cell 3, line 2` for a line of the text the cell is analysed in. */
  readonly lineName?: LineName;
}

const NO_NOTEBOOK: NotebookContext = { before: '', numbering: '' };

/**
 * The text of the code cells above `doc`: a cell is analysed as the notebook runs top to bottom, so it sees
 * the imports and constants above it.
 */
export function notebookContext(doc: vscode.TextDocument): NotebookContext {
  const notebook = notebookOf(doc);
  if (!notebook) return NO_NOTEBOOK;
  const { cells, numbers, index } = codeCells(notebook, doc);
  if (index < 0) return NO_NOTEBOOK;
  // Cells are joined by one line break: each starts on the line after the last line of the one before.
  const firstLines: number[] = [];
  let line = 0;
  for (const cell of cells) {
    firstLines.push(line);
    line += cell.lineCount;
  }
  const lineName: LineName = (l) => {
    let i = firstLines.length - 1;
    while (i > 0 && firstLines[i] > l) i--;
    return `cell ${numbers[i]}, line ${l - firstLines[i] + 1}`;
  };
  return {
    before: cells.slice(0, index).map((d) => `${d.getText()}\n`).join(''),
    numbering: numbers.join(','),
    lineName,
  };
}

/** The code cells below `doc`, whose analysis depends on it. */
export function laterCells(notebook: vscode.NotebookDocument, doc: vscode.TextDocument): vscode.TextDocument[] {
  const cells = notebook.getCells();
  const index = cells.findIndex((c) => c.document === doc);
  return cells.slice(index + 1).filter((c) => c.kind === vscode.NotebookCellKind.Code).map((c) => c.document);
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
