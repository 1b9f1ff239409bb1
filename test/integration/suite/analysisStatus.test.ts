import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, openFile, poll } from './helpers';

interface Api {
  analysisStatus(): { text: string; detail: string | undefined };
}

// A file the extension does not analyse says so in its language status, instead of showing nothing.
suite('language status: whether the file was analysed', () => {
  let api: Api;
  suiteSetup(async () => {
    api = (await activateExtension()).exports as Api;
  });

  test('an analysed file', async () => {
    const doc = await openFile('attention.py');
    await poll(
      () => lensTitles(doc.uri),
      (t) => t.length > 0,
    );
    assert.deepStrictEqual(
      await poll(
        () => api.analysisStatus(),
        (s) => s.detail === undefined,
      ),
      { text: 'Attention Lens', detail: undefined },
    );
  });

  test('a file over the size limit', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'python', content: 'x = 1\n'.repeat(900_000) });
    await vscode.window.showTextDocument(doc);
    try {
      assert.deepStrictEqual(await lensTitles(doc.uri), []);
      const status = await poll(
        () => api.analysisStatus(),
        (s) => s.detail !== undefined,
      );
      assert.strictEqual(status.text, '$(warning) Attention Lens: not analysed');
      assert.match(status.detail ?? '', /too large to analyse \(5,400,000 characters; the limit is 5,000,000\)/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
