import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, openFile, poll, revert } from './helpers';

// builder/modeling/blocks.py (0-based lines): 3 class Tower, 6 its Linear; ../build.py builds it twice.
suite('configurations stated by the files importing a model file', () => {
  test("the class shows its importer's first model, named where it is stated; editing the importer counts again", async () => {
    const doc = await openFile('builder/modeling/blocks.py');
    await activateExtension();
    // build_tower_small(): 2 × (8×8 + 8).
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('3: 144 params')),
    );
    assert.ok(
      titles.some((t) => t.startsWith('3: 144 params') && t.includes('2 configurations')),
      titles.join('\n'),
    );
    assert.ok(titles.includes('6: 72 params · 8 → 8 · in build_tower_small()'), titles.join('\n'));
    const build = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(doc.uri, '..', '..', 'build.py'));
    const edit = new vscode.WorkspaceEdit();
    const at = build.getText().indexOf('dim=8');
    edit.replace(build.uri, new vscode.Range(build.positionAt(at), build.positionAt(at + 5)), 'dim=4');
    await vscode.workspace.applyEdit(edit);
    try {
      // Unsaved: the editor's text is read. 2 × (4×4 + 4).
      const after = await poll(
        () => lensTitles(doc.uri),
        (t) => t.some((x) => x.startsWith('3: 40 params')),
      );
      assert.ok(after.includes('6: 20 params · 4 → 4 · in build_tower_small()'), after.join('\n'));
    } finally {
      await revert(build);
    }
  });
});
