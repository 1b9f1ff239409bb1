import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, openFile, poll } from './helpers';

suite('activation and contributions', () => {
  test('activates when a Python file is opened (onLanguage:python)', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
    await openFile('attention.py');
    // Not ext.activate(): this checks that the activation event alone wakes the extension.
    const active = await poll(
      () => ext.isActive,
      (a) => a,
    );
    assert.strictEqual(active, true, 'extension did not activate on a Python file');
  });

  test('registers its commands', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of ['attentionLens.explainShapes', 'attentionLens.showDetails']) {
      assert.ok(all.includes(id), `command ${id} is not registered`);
    }
  });

  test('contributes "Attention Lens: Explain attention shapes" to the palette for Python and TypeScript', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    const cmd = pkg.contributes.commands.find((c: { command: string }) => c.command === 'attentionLens.explainShapes');
    assert.deepStrictEqual(
      { title: cmd?.title, category: cmd?.category },
      { title: 'Explain attention shapes', category: 'Attention Lens' },
    );
    const when: string | undefined = (pkg.contributes.menus?.commandPalette ?? []).find(
      (m: { command: string }) => m.command === 'attentionLens.explainShapes',
    )?.when;
    if (when !== undefined) {
      assert.match(when, /python/);
      assert.match(when, /typescript/);
    }
  });

  test('declares the three on/off settings, default true', () => {
    const config = vscode.workspace.getConfiguration('attentionLens');
    for (const key of ['hover.enabled', 'codeLens.enabled', 'diagnostics.enabled']) {
      assert.strictEqual(config.inspect<boolean>(key)?.defaultValue, true, `attentionLens.${key} default`);
    }
  });
});
