import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, codeOf, describe, openFile, revert, waitForDiagnostics } from './helpers';

// test/integration/workspace/fixes.py (0-based lines)
//   3 half = nn.Linear(d, d / 3)       non-integer-size
//   4 norm = nn.GroupNorm(3, 64)       groups-divisibility
// test/integration/workspace/fixes.ts
//   2 export const layer = tf.layers.dense({ units: 7.5, inputShape: [4] });   non-integer-size (TF.js)

async function quickFixes(doc: vscode.TextDocument, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    doc.uri,
    diagnostic.range,
    vscode.CodeActionKind.QuickFix.value,
  );
  return (actions ?? []).filter((a): a is vscode.CodeAction => 'edit' in a && a.edit !== undefined);
}

async function applyFix(doc: vscode.TextDocument, code: string, title: string): Promise<void> {
  const diagnostic = (await waitForDiagnostics(doc.uri, (ds) => ds.some((d) => codeOf(d) === code))).find(
    (d) => codeOf(d) === code,
  );
  assert.ok(diagnostic, `no ${code}`);
  const fix = (await quickFixes(doc, diagnostic)).find((a) => a.title === title);
  assert.ok(fix?.edit, `no quick fix "${title}"`);
  assert.ok(await vscode.workspace.applyEdit(fix.edit));
}

suite('quick fixes for every diagnostic with a plain one, and ignoring a line', () => {
  teardown(async () => {
    for (const name of ['fixes.py', 'fixes.ts']) await revert(await openFile(name));
  });

  test('fixes.py: the fixes offered for each diagnostic', async () => {
    const doc = await openFile('fixes.py');
    await activateExtension();
    const diagnostics = await waitForDiagnostics(doc.uri, (ds) => ds.length === 2);
    const offered = await Promise.all(
      diagnostics.map(async (d) => `${codeOf(d)}: ${(await quickFixes(doc, d)).map((a) => a.title).join(' | ')}`),
    );
    assert.deepStrictEqual(offered.sort(), [
      'groups-divisibility: Use 2 groups (64 / 2 = 32 channels each) | Use 4 groups (64 / 4 = 16 channels each) | Ignore groups-divisibility on this line',
      'non-integer-size: Use // (integer division) | Ignore non-integer-size on this line',
    ]);
  });

  test('"Use //" rewrites the division, and the error goes', async () => {
    const doc = await openFile('fixes.py');
    await applyFix(doc, 'non-integer-size', 'Use // (integer division)');
    assert.strictEqual(doc.lineAt(3).text, 'half = nn.Linear(d, d // 3)');
    const left = await waitForDiagnostics(doc.uri, (ds) => !ds.some((d) => codeOf(d) === 'non-integer-size'));
    assert.deepStrictEqual(left.map(codeOf), ['groups-divisibility']);
  });

  test('"Ignore <code> on this line" writes the directive the analysis reads', async () => {
    const doc = await openFile('fixes.py');
    await applyFix(doc, 'groups-divisibility', 'Ignore groups-divisibility on this line');
    assert.strictEqual(doc.lineAt(4).text, 'norm = nn.GroupNorm(3, 64)  # attention-lens: ignore[groups-divisibility]');
    const left = await waitForDiagnostics(doc.uri, (ds) => !ds.some((d) => codeOf(d) === 'groups-divisibility'));
    assert.deepStrictEqual(left.map(codeOf), ['non-integer-size']);
  });

  test('TypeScript: an integer for a float literal, and the directive as a // comment', async () => {
    const doc = await openFile('fixes.ts');
    await activateExtension();
    const [diagnostic] = await waitForDiagnostics(doc.uri, (ds) => ds.length === 1);
    assert.deepStrictEqual(
      (await quickFixes(doc, diagnostic)).map((a) => a.title),
      ['Use 7', 'Use 8', 'Ignore non-integer-size on this line'],
    );
    await applyFix(doc, 'non-integer-size', 'Ignore non-integer-size on this line');
    assert.strictEqual(
      doc.lineAt(2).text,
      'export const layer = tf.layers.dense({ units: 7.5, inputShape: [4] });  // attention-lens: ignore[non-integer-size]',
    );
    assert.deepStrictEqual(await waitForDiagnostics(doc.uri, (ds) => ds.length === 0), []);
  });
});

suite('attentionLens.diagnostics.severity', () => {
  const set = (value: unknown) =>
    vscode.workspace
      .getConfiguration('attentionLens')
      .update('diagnostics.severity', value, vscode.ConfigurationTarget.Global);
  teardown(() => set(undefined));

  test('a level per code; "off" hides the code', async () => {
    const doc = await openFile('fixes.py');
    await activateExtension();
    const before = await waitForDiagnostics(doc.uri, (ds) => ds.length === 2);
    assert.deepStrictEqual(before.map(describe).sort(), [
      'groups-divisibility 4:7-4:26 Error',
      'non-integer-size 3:7-3:26 Error',
    ]);
    await set({ 'non-integer-size': 'warning', 'groups-divisibility': 'off' });
    const after = await waitForDiagnostics(
      doc.uri,
      (ds) => ds.length === 1 && ds[0].severity === vscode.DiagnosticSeverity.Warning,
    );
    assert.deepStrictEqual(after.map(describe), ['non-integer-size 3:7-3:26 Warning']);
    await set({ 'non-integer-size': 'hint' });
    const hint = await waitForDiagnostics(
      doc.uri,
      (ds) => ds.length === 2 && ds.some((d) => d.severity === vscode.DiagnosticSeverity.Hint),
    );
    assert.deepStrictEqual(hint.map(describe).sort(), [
      'groups-divisibility 4:7-4:26 Error',
      'non-integer-size 3:7-3:26 Hint',
    ]);
  });
});
