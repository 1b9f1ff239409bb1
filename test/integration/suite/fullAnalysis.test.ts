import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, ours, openFile, poll, revert } from './helpers';

// many_factories.py (0-based lines): 5 class M; forty factories, each M(i + 2) after 3,000 passes of a loop.
suite('a file whose factories take more than a first analysis gives them', () => {
  const M = (t: readonly string[]) => t.find((x) => x.startsWith('5: ')) ?? '';

  test('every factory is listed once the full analysis follows, and again after the class is edited', async () => {
    const doc = await openFile('many_factories.py');
    await activateExtension();
    // nn.Linear(1, 3,000): 6,000 with its defaults; each factory's total differs, so 41 in all.
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => M(t).endsWith(' · 41 configurations'),
    );
    assert.strictEqual(M(titles), '5: 6,000 params (6.0 K) · 41 configurations', titles.join('\n'));
    assert.deepStrictEqual(
      ours(doc.uri).map((d) => d.message),
      [],
    );
    const edit = new vscode.WorkspaceEdit();
    const at = doc.getText().indexOf('range(30)');
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 9)), 'range(20)');
    await vscode.workspace.applyEdit(edit);
    try {
      // nn.Linear(1, 2,000): the first analysis of the edit lists the factories its budget reached, the full
      // one that follows once typing pauses lists them all.
      const seen = new Set<string>();
      const after = await poll(
        async () => {
          const t = await lensTitles(doc.uri);
          seen.add(M(t));
          return t;
        },
        (t) => M(t) === '5: 4,000 params (4.0 K) · 41 configurations',
      );
      assert.strictEqual(M(after), '5: 4,000 params (4.0 K) · 41 configurations', after.join('\n'));
      assert.ok(
        [...seen].some((t) => /^5: 4,000 params \(4\.0 K\) · at least \d+ configurations$/.test(t)),
        [...seen].join('\n'),
      );
    } finally {
      await revert(doc);
    }
  });
});
