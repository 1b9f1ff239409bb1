/** A panel's link back to the code: the line in its editor, beside the panel rather than under it. */
import * as vscode from 'vscode';

export async function revealAt(uri: string, line: number, character: number): Promise<void> {
  const at = new vscode.Position(line, character);
  const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
  await vscode.window.showTextDocument(vscode.Uri.parse(uri), {
    selection: new vscode.Range(at, at),
    viewColumn: open?.viewColumn ?? vscode.ViewColumn.One,
  });
}
