import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  hoverText,
  lensTitles,
  openFile,
  poll,
  positionOf,
  revert,
  typeKeys,
  waitForDiagnostics,
} from './helpers';

// A statement typed key by key, with the editor's auto-closed brackets, is analysed once typing pauses:
// its CodeLens, hover and diagnostic appear without reopening the file.
suite('typing a layer key by key', () => {
  suiteSetup(activateExtension);

  // test/integration/workspace/typing.py
  //   0  import torch.nn as nn
  //   1
  //   2  attn = nn.MultiheadAttention(512, 8)
  test('in the middle of a file: lens, hover and diagnostic of the new lines', async () => {
    const doc = await openFile('typing.py');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document === doc);
    try {
      assert.deepStrictEqual(
        await poll(
          () => lensTitles(doc.uri),
          (t) => t.length > 0,
        ),
        ['2: 1,050,624 params · 8 heads × 64'],
      );
      editor.selection = new vscode.Selection(1, 0, 1, 0);
      await typeKeys('ff = nn.Linear(512, 2048)\nbad = nn.MultiheadAttention(768, 10)\n');
      assert.strictEqual(doc.lineAt(1).text, 'ff = nn.Linear(512, 2048)', 'auto-closing typed something else');
      assert.strictEqual(doc.lineAt(2).text, 'bad = nn.MultiheadAttention(768, 10)');
      const titles = await poll(
        () => lensTitles(doc.uri),
        (t) => t.some((l) => l.startsWith('1: 1,050,624 params')),
      );
      assert.ok(
        titles.some((l) => l.startsWith('1: 1,050,624 params')),
        titles.join(' | '),
      );
      assert.ok(
        titles.includes('4: 1,050,624 params · 8 heads × 64'),
        `the layer below did not move down: ${titles.join(' | ')}`,
      );
      const hover = await hoverText(doc.uri, positionOf(doc, 'Linear', 2));
      assert.ok(hover.includes('1,050,624'), hover);
      const diags = await waitForDiagnostics(doc.uri, (ds) => ds.length > 0);
      assert.deepStrictEqual(
        diags.map((d) => d.range.start.line),
        [2],
      );
    } finally {
      await revert(doc);
    }
  });

  test('in a new, untitled Python buffer', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'python', content: '' });
    await vscode.window.showTextDocument(doc);
    try {
      await typeKeys('import torch.nn as nn\nff = nn.Linear(512, 2048)');
      assert.strictEqual(doc.getText(), 'import torch.nn as nn\nff = nn.Linear(512, 2048)');
      const titles = await poll(
        () => lensTitles(doc.uri),
        (t) => t.length > 0,
      );
      assert.strictEqual(titles.length, 1, titles.join(' | '));
      assert.ok(titles[0].startsWith('1: 1,050,624 params'), titles[0]);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
