import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  codeOf,
  hoverText,
  lensTitles,
  openFile,
  poll,
  positionOf,
  waitForDiagnostics,
} from './helpers';

// test/integration/workspace/settings.py
//   2  attn = nn.MultiheadAttention(512, 8)
//   3  bad = nn.MultiheadAttention(768, 10)
suite('settings switch each surface off and on', () => {
  let doc: vscode.TextDocument;
  const set = (key: string, value: boolean | undefined) =>
    // User (global) settings: the throwaway profile's, never a file in the repository.
    vscode.workspace.getConfiguration('attentionLens').update(key, value, vscode.ConfigurationTarget.Global);

  suiteSetup(async () => {
    doc = await openFile('settings.py');
    await activateExtension();
  });
  teardown(async () => {
    for (const key of ['hover.enabled', 'codeLens.enabled', 'diagnostics.enabled']) await set(key, undefined);
  });

  test('attentionLens.hover.enabled', async () => {
    const pos = positionOf(doc, 'MultiheadAttention', 3);
    const has = (t: string) => t.includes('1,050,624');
    assert.ok(has(await poll(() => hoverText(doc.uri, pos), has)), 'no hover to start with');
    await set('hover.enabled', false);
    const off = await poll(
      () => hoverText(doc.uri, pos),
      (t) => !has(t),
    );
    assert.strictEqual(off, '', 'hover still shown with attentionLens.hover.enabled = false');
    await set('hover.enabled', true);
    const on = await poll(() => hoverText(doc.uri, pos), has);
    assert.ok(has(on), `hover not back after re-enabling:\n${on}`);
  });

  test('attentionLens.codeLens.enabled', async () => {
    // Line 2 only: whether the invalid layer on line 3 gets a lens is not part of the contract.
    const line2 = async () => (await lensTitles(doc.uri)).filter((t) => t.startsWith('2:'));
    const expected = ['2: 1,050,624 params · 8 heads × 64'];
    assert.deepStrictEqual(await poll(line2, (t) => t.length > 0), expected);
    await set('codeLens.enabled', false);
    assert.deepStrictEqual(
      await poll(
        () => lensTitles(doc.uri),
        (t) => t.length === 0,
      ),
      [],
      'lenses left with the setting off',
    );
    await set('codeLens.enabled', true);
    assert.deepStrictEqual(await poll(line2, (t) => t.length > 0), expected);
  });

  test('a language override ("[python]") switches CodeLens off for Python only', async () => {
    const ts = await openFile('mnist.ts');
    const tsTitles = await poll(
      () => lensTitles(ts.uri),
      (t) => t.length > 0,
    );
    assert.ok(tsTitles.length > 0, 'no TypeScript lens to start with');
    const python = vscode.workspace.getConfiguration('attentionLens', { languageId: 'python' });
    await python.update('codeLens.enabled', false, vscode.ConfigurationTarget.Global, true);
    try {
      assert.deepStrictEqual(
        await poll(
          () => lensTitles(doc.uri),
          (t) => t.length === 0,
        ),
        [],
        'Python lenses left with the override off',
      );
      assert.deepStrictEqual(await lensTitles(ts.uri), tsTitles, 'the Python override changed TypeScript lenses');
    } finally {
      await python.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global, true);
    }
    assert.ok(
      (
        await poll(
          () => lensTitles(doc.uri),
          (t) => t.length > 0,
        )
      ).length > 0,
      'Python lenses not back after removing the override',
    );
  });

  test('attentionLens.diagnostics.enabled', async () => {
    const codes = (ds: vscode.Diagnostic[]) => ds.map((d) => `${d.range.start.line} ${codeOf(d)}`);
    assert.deepStrictEqual(codes(await waitForDiagnostics(doc.uri, (ds) => ds.length > 0)), ['3 heads-divisibility']);
    await set('diagnostics.enabled', false);
    assert.deepStrictEqual(codes(await waitForDiagnostics(doc.uri, (ds) => ds.length === 0)), []);
    await set('diagnostics.enabled', true);
    assert.deepStrictEqual(codes(await waitForDiagnostics(doc.uri, (ds) => ds.length > 0)), ['3 heads-divisibility']);
  });
});
