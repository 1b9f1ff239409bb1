import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  codeOf,
  describe,
  documentClosed,
  fmtRange,
  lensTitles,
  openFile,
  ours,
  poll,
  rangeOf,
  revert,
  waitForDiagnostics,
  workspaceUri,
} from './helpers';

suite('diagnostics', () => {
  suiteSetup(activateExtension);

  // test/integration/workspace/errors.py
  test('shape errors: heads-divisibility, negative-size, non-integer-size, none for a zero size', async () => {
    const doc = await openFile('errors.py');
    const diags = await waitForDiagnostics(doc.uri, (ds) => ds.length >= 3);
    const byLine = [...diags].sort((a, b) => a.range.start.line - b.range.start.line);
    assert.deepStrictEqual(
      byLine.map((d) => `${d.range.start.line} ${codeOf(d)}`),
      [
        '2 heads-divisibility', // bad_heads = nn.MultiheadAttention(768, 10)
        '3 negative-size', //      negative = nn.Linear(-1, 5)
        '4 non-integer-size', //   fractional = nn.Linear(512 / 2, 10)
      ],
    ); //                        zero = nn.Linear(0, 8): no diagnostic
    const heads = byLine[0];
    assert.strictEqual(
      typeof heads.code === 'string' ? heads.code : heads.code,
      'heads-divisibility',
      'code is a plain string',
    );
    assert.strictEqual(heads.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(
      fmtRange(heads.range),
      fmtRange(rangeOf(doc, 'nn.MultiheadAttention(768, 10)')),
      'range = the whole call',
    );
    for (const d of byLine) assert.ok(d.message.length > 0, `empty message for ${codeOf(d)}`);
  });

  // test/integration/workspace/editing.py starts valid: attn = nn.MultiheadAttention(768, 12)
  test('an edit introduces the error and a second edit removes it', async () => {
    const doc = await openFile('editing.py');
    try {
      // The lens shows the file has been analysed, so "no diagnostics" below is a real answer.
      const lenses = await poll(
        () => lensTitles(doc.uri),
        (t) => t.length > 0,
      );
      assert.deepStrictEqual(lenses, ['2: 2,362,368 params · 12 heads × 64']);
      assert.deepStrictEqual(ours(doc.uri).map(describe), []);

      const heads = rangeOf(doc, '12)').with({ end: rangeOf(doc, '12)').start.translate(0, 2) });
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, heads, '10');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const broken = await waitForDiagnostics(doc.uri, (ds) => ds.length > 0);
      assert.deepStrictEqual(broken.map(describe), [
        `heads-divisibility ${fmtRange(rangeOf(doc, 'nn.MultiheadAttention(768, 10)'))} Error`,
      ]);

      const fix = new vscode.WorkspaceEdit();
      fix.replace(doc.uri, heads, '12');
      assert.ok(await vscode.workspace.applyEdit(fix));
      const fixed = await waitForDiagnostics(doc.uri, (ds) => ds.length === 0);
      assert.deepStrictEqual(fixed.map(describe), []);
    } finally {
      await revert(doc);
    }
  });

  // test/integration/workspace/closing.py: attn = nn.MultiheadAttention(100, 3)
  test('closing a document leaves no diagnostics behind', async () => {
    const uri = workspaceUri('closing.py');
    // Opened like a user does (vscode.open), not with workspace.openTextDocument: the extension host
    // keeps documents it opened itself alive for minutes after their editor closes.
    await vscode.commands.executeCommand('vscode.open', uri);
    const before = await waitForDiagnostics(uri, (ds) => ds.length > 0);
    assert.deepStrictEqual(
      before.map((d) => codeOf(d)),
      ['heads-divisibility'],
    );

    const closed = documentClosed(uri);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(await closed, 'VS Code did not close closing.py');
    const after = await waitForDiagnostics(uri, (ds) => ds.length === 0);
    assert.deepStrictEqual(after.map(describe), [], 'diagnostics left behind for a closed file');
  });
});
