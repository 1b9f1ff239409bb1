import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, openFile, poll, revert } from './helpers';

// checkpoint/net.py (0-based lines): 12 class Net, 15 self.embed, 16 self.proj; params.json beside it.
suite('a configuration file beside the model', () => {
  test('params.json sizes the class whose defaults build nothing; editing it counts again', async () => {
    const doc = await openFile('checkpoint/net.py');
    await activateExtension();
    // 10×32 + 32×32 + 32.
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('12: 1,376 params')),
    );
    assert.ok(titles.includes('15: 320 params · 10 × 32 · in Net(Args(**params.json))'), titles.join('\n'));
    const params = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(doc.uri, '..', 'params.json'));
    const edit = new vscode.WorkspaceEdit();
    const at = params.getText().indexOf('32');
    edit.replace(params.uri, new vscode.Range(params.positionAt(at), params.positionAt(at + 2)), '16');
    await vscode.workspace.applyEdit(edit);
    try {
      // Unsaved: the editor's text is read, as for an imported file. 10×16 + 16×16 + 16.
      const after = await poll(
        () => lensTitles(doc.uri),
        (t) => t.some((x) => x.startsWith('12: 432 params')),
      );
      assert.ok(after.includes('15: 160 params · 10 × 16 · in Net(Args(**params.json))'), after.join('\n'));
    } finally {
      await revert(params);
    }
  });
});
