import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  codeOf,
  fmtRange,
  hoverText,
  lensTitles,
  poll,
  positionOf,
  waitForDiagnostics,
  workspaceUri,
} from './helpers';

// test/integration/workspace/notebook.ipynb: a markdown cell, then a Python cell with
//   2  attn = nn.MultiheadAttention(512, 8)
//   3  bad = nn.MultiheadAttention(768, 10)
suite('Jupyter notebook: Python cell', () => {
  let cell: vscode.TextDocument;
  suiteSetup(async () => {
    const nb = await vscode.workspace.openNotebookDocument(workspaceUri('notebook.ipynb'));
    assert.strictEqual(nb.notebookType, 'jupyter-notebook');
    await vscode.window.showNotebookDocument(nb);
    await activateExtension();
    const code = nb.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.ok(code, 'no code cell');
    cell = code.document;
    assert.strictEqual(cell.languageId, 'python');
    assert.strictEqual(cell.uri.scheme, 'vscode-notebook-cell');
  });

  test('CodeLens on the attention line of the cell', async () => {
    const titles = await poll(
      () => lensTitles(cell.uri),
      (t) => t.length > 0,
    );
    // (The invalid layer on line 3 may have a lens of its own: not part of the contract.)
    assert.deepStrictEqual(
      titles.filter((t) => !t.startsWith('3:')),
      ['2: 1,050,624 params · 8 heads × 64'],
    );
  });

  test('hover in the cell', async () => {
    const text = await poll(
      () => hoverText(cell.uri, positionOf(cell, 'MultiheadAttention', 3)),
      (t) => t.includes('1,050,624'),
    );
    assert.ok(text.includes('1,050,624'), `hover lacks 1,050,624:\n${text}`);
    assert.ok(text.includes('d_k = 512 / 8 = 64'), `hover lacks d_k:\n${text}`);
  });

  test('heads-divisibility diagnostic on the cell', async () => {
    const diags = await waitForDiagnostics(cell.uri, (ds) => ds.length > 0);
    const start = positionOf(cell, 'nn.MultiheadAttention(768, 10)');
    const call = new vscode.Range(start, start.translate(0, 'nn.MultiheadAttention(768, 10)'.length));
    assert.deepStrictEqual(
      diags.map((d) => `${codeOf(d)} ${fmtRange(d.range)}`),
      [`heads-divisibility ${fmtRange(call)}`],
    );
  });
});
