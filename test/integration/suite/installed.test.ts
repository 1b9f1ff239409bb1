import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, openFile, poll } from './helpers';

// test/integration/workspace/installed.py imports Mlp from lenslib, installed in the workspace's .venv
// (hidden 32) and in other_env/site-packages (hidden 64). PyTorch: Mlp(8) is 8·32 + 32 + 32·8 + 8 = 552
// with the first, 8·64 + 64 + 64·8 + 8 = 1,096 with the second.
suite('imports of installed packages', () => {
  test("the workspace's .venv is read, and the setting names another environment", async () => {
    const doc = await openFile('installed.py');
    await activateExtension();
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.includes('2: Mlp: 552 params (552)'),
    );
    assert.ok(titles.includes('2: Mlp: 552 params (552)'), titles.join(' | '));
    const settings = vscode.workspace.getConfiguration('attentionLens');
    // A relative path is the workspace folder's.
    await settings.update('pythonPackages', ['other_env/site-packages'], vscode.ConfigurationTarget.Global);
    try {
      const after = await poll(
        () => lensTitles(doc.uri),
        (t) => t.includes('2: Mlp: 1,096 params (1.1 K)'),
      );
      assert.ok(after.includes('2: Mlp: 1,096 params (1.1 K)'), after.join(' | '));
    } finally {
      await settings.update('pythonPackages', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
