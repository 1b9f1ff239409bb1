/** Settings read through one pure function, with defaults for missing or malformed values. */
import * as assert from 'assert';
import { DEFAULT_SIZING } from '../../src/core/memory';
import { Settings } from '../../src/vscode/settings';

const raw = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });

suite('settings', () => {
  test('defaults when nothing is set: every surface on except inlay hints', () => {
    assert.deepStrictEqual(Settings.from(raw({})), { hover: true, codeLens: true, diagnostics: true, inlayHints: false, sizing: { dtype: 'bf16', optimizer: 'adamwMixed', batch: 1, sequence: 1024 } });
  });

  test('each switch is read from its own key', () => {
    const s = Settings.from(raw({ 'hover.enabled': false, 'codeLens.enabled': false, 'diagnostics.enabled': false, 'inlayHints.enabled': true }));
    assert.deepStrictEqual(s, { hover: false, codeLens: false, diagnostics: false, inlayHints: true, sizing: DEFAULT_SIZING });
  });

  test('a value that is not a boolean falls back to the default', () => {
    assert.deepStrictEqual(Settings.from(raw({ 'codeLens.enabled': 'false', 'inlayHints.enabled': 1 })), { hover: true, codeLens: true, diagnostics: true, inlayHints: false, sizing: DEFAULT_SIZING });
  });

  test('sizing: a storage type, an optimizer, a batch size and a sequence length', () => {
    const s = Settings.from(raw({ 'sizing.dtype': 'fp32', 'sizing.optimizer': 'sgdMomentum', 'sizing.batchSize': 8, 'sizing.sequenceLength': 2048 }));
    assert.deepStrictEqual(s.sizing, { dtype: 'fp32', optimizer: 'sgdMomentum', batch: 8, sequence: 2048 });
  });

  test('sizing: an unknown choice, or a size that is not a positive whole number, falls back to the default', () => {
    for (const bad of [0, -4, 1.5, '8', Number.NaN, 2 ** 60, null]) {
      const s = Settings.from(raw({ 'sizing.dtype': 'fp8', 'sizing.optimizer': 'adam', 'sizing.batchSize': bad, 'sizing.sequenceLength': bad }));
      assert.deepStrictEqual(s.sizing, DEFAULT_SIZING, String(bad));
    }
  });
});
