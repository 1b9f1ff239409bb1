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

  test('a YAML file of configs/ beside it is one of its configurations; editing it unsaved counts again', async () => {
    const doc = await openFile('checkpoint/net.py');
    await activateExtension();
    const yaml = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(doc.uri, '..', 'configs', 'narrow.yaml'));
    // dim: 0x10 is 16, as PyYAML reads it: 10×16 + 16×16 + 16.
    await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('12: 1,376 params') && x.endsWith('· 2 configurations')),
    );
    assert.strictEqual(
      await vscode.commands.executeCommand(
        'attentionLens.chooseConfiguration',
        [doc.uri.toString(), 12, 6],
        'configs/narrow.yaml',
      ),
      // Named as the CLI's --config names it; the command answers with the configuration it picked.
      'Net(Args(**configs/narrow.yaml))',
    );
    await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('12: 432 params')),
    );
    const edit = new vscode.WorkspaceEdit();
    const at = yaml.getText().indexOf('0x10');
    edit.replace(yaml.uri, new vscode.Range(yaml.positionAt(at), yaml.positionAt(at + 4)), '0x8');
    await vscode.workspace.applyEdit(edit);
    try {
      // 10×8 + 8×8 + 8.
      await poll(
        () => lensTitles(doc.uri),
        (t) => t.some((x) => x.startsWith('12: 152 params')),
      );
    } finally {
      await revert(yaml);
      await vscode.commands.executeCommand('attentionLens.chooseConfiguration', [doc.uri.toString(), 12, 6], '');
    }
  });
});
