import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, openFile, poll, revert } from './helpers';

// test/integration/workspace/gpt_variants.py imports Block, GPTConfig and MLP from gpt.py beside it.
// PyTorch: BlockStack (24 GPT-2 medium blocks) 302,311,424; AdapterHead 4,726,277, and 4,722,437 once
// GPTConfig.bias is False (MLP loses its biases).
suite('classes imported from other files of the workspace', () => {
  test('class lenses count the imported blocks, and follow an edit of the file they come from', async () => {
    const variants = await openFile('gpt_variants.py');
    await activateExtension();
    const titles = await poll(
      () => lensTitles(variants.uri),
      (t) => t.some((x) => x.startsWith('8:')),
    );
    assert.ok(titles.includes('8: 302,311,424 params (302.3 M) · 24 × Block'), titles.join(' | '));
    assert.ok(titles.includes('22: 4,726,277 params (4.7 M)'), titles.join(' | '));

    const gpt = await openFile('gpt.py');
    const line = gpt.lineAt(26);
    assert.ok(line.text.includes('bias: bool = True'), line.text);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(gpt.uri, line.range, line.text.replace('True', 'False'));
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const after = await poll(
        () => lensTitles(variants.uri),
        (t) => t.includes('22: 4,722,437 params (4.7 M)'),
      );
      assert.ok(after.includes('22: 4,722,437 params (4.7 M)'), after.join(' | '));
    } finally {
      await revert(gpt);
    }
  });
});
