/** Settings read through one pure function, with defaults for missing or malformed values. */
import * as assert from 'assert';
import { Settings } from '../../src/vscode/settings';

const raw = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });

suite('settings', () => {
  test('defaults when nothing is set: every surface on except inlay hints', () => {
    assert.deepStrictEqual(Settings.from(raw({})), { hover: true, codeLens: true, diagnostics: true, inlayHints: false });
  });

  test('each switch is read from its own key', () => {
    const s = Settings.from(raw({ 'hover.enabled': false, 'codeLens.enabled': false, 'diagnostics.enabled': false, 'inlayHints.enabled': true }));
    assert.deepStrictEqual(s, { hover: false, codeLens: false, diagnostics: false, inlayHints: true });
  });

  test('a value that is not a boolean falls back to the default', () => {
    assert.deepStrictEqual(Settings.from(raw({ 'codeLens.enabled': 'false', 'inlayHints.enabled': 1 })), { hover: true, codeLens: true, diagnostics: true, inlayHints: false });
  });
});
