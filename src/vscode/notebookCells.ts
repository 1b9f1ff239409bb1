/** Where a notebook cell sits among its notebook's code cells. */
import * as vscode from 'vscode';

export function notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined {
  if (doc.uri.scheme !== 'vscode-notebook-cell') return undefined;
  return vscode.workspace.notebookDocuments.find((n) => n.getCells().some((c) => c.document === doc));
}

/** The code cells of the same language above `doc`, in order. */
function codeCellsAbove(notebook: vscode.NotebookDocument, doc: vscode.TextDocument): vscode.TextDocument[] {
  const cells = notebook.getCells();
  const index = cells.findIndex((c) => c.document === doc);
  return cells.slice(0, Math.max(index, 0)).filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === doc.languageId).map((c) => c.document);
}

/** The text of the code cells above `doc`, so the cell sees their imports and constants. */
export function notebookPreamble(doc: vscode.TextDocument): string {
  const notebook = notebookOf(doc);
  return notebook ? codeCellsAbove(notebook, doc).map((d) => `${d.getText()}\n`).join('') : '';
}

/** The code cells below `doc`, whose analysis depends on it. */
export function laterCells(notebook: vscode.NotebookDocument, doc: vscode.TextDocument): vscode.TextDocument[] {
  const cells = notebook.getCells();
  const index = cells.findIndex((c) => c.document === doc);
  return cells.slice(index + 1).filter((c) => c.kind === vscode.NotebookCellKind.Code).map((c) => c.document);
}
