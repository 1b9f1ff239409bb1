/**
 * Text from the user's file that would act instead of showing (terminal escape sequences, invisible and
 * bidirectional marks, icon syntax in a CodeLens title) is shown as text on every surface.
 */
import * as assert from 'assert';
import { lensText, visibleControls, visibleStrings } from '../../src/core/present/controls';
import { codeSpan, escapeMarkdown } from '../../src/core/present/markdown';
import { buildCli, runCli, tempFiles } from './cliRun';

suite('controls from the file are shown, not run', () => {
  test('C0 (but tab and newline), DEL, C1 and bidi or invisible marks become \\u{..}; other text stays', () => {
    assert.strictEqual(
      visibleControls('a\u001b[2Kb\u0007c\u007f\u009b\u202e\u2066\u200b\ufeff\td\ne — ü'),
      'a\\u{1b}[2Kb\\u{7}c\\u{7f}\\u{9b}\\u{202e}\\u{2066}\\u{200b}\\u{feff}\td\ne — ü',
    );
  });

  test('hover markdown and code spans show them', () => {
    assert.ok(escapeMarkdown('key\u202e').includes('u\\{202e\\}'));
    assert.strictEqual(codeSpan('k\u202ey'), '`k\\u{202e}y`');
  });

  test('a CodeLens title shows $(icon) written in the file as text', () => {
    assert.strictEqual(lensText('4 params · $(alert) key\u001b'), '4 params · \\$(alert) key\\u{1b}');
  });

  test('a webview message keeps its shape, its strings made visible', () => {
    assert.deepStrictEqual(visibleStrings({ a: ['x\u202e', 2, { b: 'y\u0007' }], n: null }), {
      a: ['x\\u{202e}', 2, { b: 'y\\u{7}' }],
      n: null,
    });
  });

  test('the CLI text output prints no escape sequence from a string in the file', () => {
    buildCli();
    const { dir, remove } = tempFiles({
      'inj.py':
        'import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(4, 4)\n        raise ValueError("\u001b[2K\u001b]52;c;aGk=\u0007hidden")\nm = M()\n',
    });
    try {
      const out = runCli(['inj.py'], { cwd: dir }).stdout;
      assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(out), JSON.stringify(out));
      assert.ok(out.includes('"\\u{1b}[2K\\u{1b}]52;c;aGk=\\u{7}hidden"'), out);
    } finally {
      remove();
    }
  });
});
