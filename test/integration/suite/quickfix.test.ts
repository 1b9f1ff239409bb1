import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  codeOf,
  fmtRange,
  lensTitles,
  openFile,
  poll,
  rangeOf,
  revert,
  waitForDiagnostics,
} from './helpers';

// test/integration/workspace/quickfix.py, line 2: attn = nn.MultiheadAttention(768, 10)
suite('quick fixes for heads-divisibility', () => {
  let doc: vscode.TextDocument;
  let diag: vscode.Diagnostic;
  suiteSetup(async () => {
    await activateExtension();
    doc = await openFile('quickfix.py');
    const diags = await waitForDiagnostics(doc.uri, (ds) => ds.some((d) => codeOf(d) === 'heads-divisibility'));
    assert.deepStrictEqual(
      diags.map((d) => codeOf(d)),
      ['heads-divisibility'],
    );
    diag = diags[0];
  });
  suiteTeardown(async () => {
    if (doc) await revert(doc);
  });

  async function quickFixes(): Promise<vscode.CodeAction[]> {
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    return (actions ?? []).filter((a): a is vscode.CodeAction => 'kind' in a || 'edit' in a || 'diagnostics' in a);
  }

  test('offers the nearest divisors below and above: 8 and 12 heads', async () => {
    const titles = (await quickFixes()).map((a) => a.title).sort();
    assert.deepStrictEqual(titles, [
      'Ignore heads-divisibility on this line',
      'Use 12 heads (768 / 12 = 64)',
      'Use 8 heads (768 / 8 = 96)',
    ]);
  });

  test('each fix is a quickfix that replaces only the heads literal', async () => {
    const literal = rangeOf(doc, '10)').with({ end: rangeOf(doc, '10)').start.translate(0, 2) });
    for (const action of (await quickFixes()).filter((a) => a.title.startsWith('Use '))) {
      assert.ok(
        action.kind && vscode.CodeActionKind.QuickFix.contains(action.kind),
        `${action.title}: kind ${action.kind?.value}`,
      );
      assert.ok(action.edit, `${action.title}: no edit`);
      const edits = action.edit.get(doc.uri);
      assert.deepStrictEqual(
        edits.map((e) => `${fmtRange(e.range)} ${e.newText}`),
        [`${fmtRange(literal)} ${/Use (\d+) heads/.exec(action.title)![1]}`],
        action.title,
      );
    }
  });

  test('applying "Use 12 heads" removes the error', async () => {
    const fix = (await quickFixes()).find((a) => a.title === 'Use 12 heads (768 / 12 = 64)');
    assert.ok(fix, 'quick fix "Use 12 heads (768 / 12 = 64)" not offered');
    if (fix.edit) assert.ok(await vscode.workspace.applyEdit(fix.edit));
    if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    assert.strictEqual(doc.lineAt(2).text, 'attn = nn.MultiheadAttention(768, 12)');
    const after = await waitForDiagnostics(doc.uri, (ds) => ds.length === 0);
    assert.deepStrictEqual(
      after.map((d) => codeOf(d)),
      [],
    );
    const lenses = await poll(
      () => lensTitles(doc.uri),
      (t) => t.length > 0,
    );
    assert.deepStrictEqual(lenses, ['2: 2,362,368 params · 12 heads × 64']);
  });
});
