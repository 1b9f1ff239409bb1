/**
 * Quick fixes the core offers with its findings, applied to the text and analysed again: each one removes
 * its finding. And the edit that silences a code on one line, in either language.
 */
import * as assert from 'assert';
import type { Fix } from '../../src/core/values/layer';
import type { Language } from '../../src/core/ir/source';
import { ignoreEdit } from '../../src/syntax/ignores';
import { analyzeText } from './helpers';

const PY = 'import torch.nn as nn\n';
const TS = "import * as tf from '@tensorflow/tfjs';\nimport { torch } from 'js-pytorch';\nconst nn = torch.nn;\n";

function apply(text: string, fix: Fix): string {
  let out = text;
  for (const e of [...fix.edits].sort((a, b) => b.span.start - a.span.start))
    out = out.slice(0, e.span.start) + e.text + out.slice(e.span.end);
  return out;
}

/** The fixes offered for `code`, and the text after each, with the codes the analysis still finds there. */
async function fixes(text: string, code: string, language: Language = 'python') {
  const finding = (await analyzeText(text, language)).findings.find((f) => f.code === code);
  assert.ok(finding, `${code} expected in:\n${text}`);
  return Promise.all(
    finding.fixes.map(async (fix) => {
      const fixed = apply(text, fix);
      return { title: fix.title, fixed, left: (await analyzeText(fixed, language)).findings.map((f) => f.code) };
    }),
  );
}

suite('quick fixes of the core', () => {
  test('non-integer-size in PyTorch: a division written in the call becomes //', async () => {
    const [fix, ...more] = await fixes(`${PY}d = 512\nlin = nn.Linear(d, d / 3)\n`, 'non-integer-size');
    assert.deepStrictEqual(
      [fix.title, fix.fixed.split('\n')[2], fix.left, more.length],
      ['Use // (integer division)', 'lin = nn.Linear(d, d // 3)', [], 0],
    );
    // The operator is found where it is, whatever the brackets and spaces around it.
    const [spaced] = await fixes(`${PY}d = 512\nlin = nn.Linear(d, (d + 1)/(3))\n`, 'non-integer-size');
    assert.strictEqual(spaced.fixed.split('\n')[2], 'lin = nn.Linear(d, (d + 1)//(3))');
  });

  test('non-integer-size in PyTorch: a float literal becomes the integers next to it; a name is converted with int()', async () => {
    assert.deepStrictEqual(
      (await fixes(`${PY}lin = nn.Linear(384.0, 10)\n`, 'non-integer-size')).map((f) => [
        f.title,
        f.fixed.split('\n')[1],
        f.left,
      ]),
      [['Use 384', 'lin = nn.Linear(384, 10)', []]],
    );
    assert.deepStrictEqual(
      (await fixes(`${PY}lin = nn.Linear(10, 7.5)\n`, 'non-integer-size')).map((f) => f.title),
      ['Use 7', 'Use 8'],
    );
    const [named] = await fixes(`${PY}hidden = 512 / 3\nlin = nn.Linear(10, hidden)\n`, 'non-integer-size');
    assert.deepStrictEqual(
      [named.title, named.fixed.split('\n')[2], named.left],
      ['Convert with int(…)', 'lin = nn.Linear(10, int(hidden))', []],
    );
  });

  test('non-integer-size in js-pytorch and TF.js: Math.floor, or the integer for a literal', async () => {
    const [js] = await fixes(
      `${TS}const d = 10;\nconst layer = new nn.Linear(4, d / 4);\n`,
      'non-integer-size',
      'typescript',
    );
    assert.deepStrictEqual(
      [js.title, js.fixed.split('\n')[4], js.left],
      ['Round down with Math.floor(…)', 'const layer = new nn.Linear(4, Math.floor(d / 4));', []],
    );
    const dense = await fixes(
      `${TS}const layer = tf.layers.dense({units: 7.5, inputShape: [4]});\n`,
      'non-integer-size',
      'typescript',
    );
    assert.deepStrictEqual(
      dense.map((f) => [f.title, f.fixed.split('\n')[3], f.left]),
      [
        ['Use 7', 'const layer = tf.layers.dense({units: 7, inputShape: [4]});', []],
        ['Use 8', 'const layer = tf.layers.dense({units: 8, inputShape: [4]});', []],
      ],
    );
    const [computed] = await fixes(
      `${TS}const n = 15;\nconst layer = tf.layers.dense({units: n / 2, inputShape: [4]});\n`,
      'non-integer-size',
      'typescript',
    );
    assert.strictEqual(
      computed.fixed.split('\n')[4],
      'const layer = tf.layers.dense({units: Math.floor(n / 2), inputShape: [4]});',
    );
  });

  test('negative-size: a negative literal loses its sign, in each framework', async () => {
    assert.deepStrictEqual(
      (await fixes(`${PY}lin = nn.Linear(-512, 10)\n`, 'negative-size')).map((f) => [
        f.title,
        f.fixed.split('\n')[1],
        f.left,
      ]),
      [['Use 512', 'lin = nn.Linear(512, 10)', []]],
    );
    assert.deepStrictEqual(
      (await fixes(`${PY}attn = nn.MultiheadAttention(512, -8)\n`, 'negative-size')).map((f) => [f.title, f.left]),
      [['Use 8', []]],
    );
    assert.deepStrictEqual(
      (
        await fixes(
          `${TS}const layer = tf.layers.dense({units: -3, inputShape: [4]});\n`,
          'negative-size',
          'typescript',
        )
      ).map((f) => [f.title, f.left]),
      [['Use 3', []]],
    );
    // A negative size computed elsewhere has no plain fix.
    assert.deepStrictEqual(await fixes(`${PY}d = 2 - 10\nlin = nn.Linear(d, 10)\n`, 'negative-size'), []);
  });

  test('groups-divisibility and js-pytorch heads-divisibility: the nearest counts that divide', async () => {
    assert.deepStrictEqual(
      (await fixes(`${PY}norm = nn.GroupNorm(3, 64)\n`, 'groups-divisibility')).map((f) => [f.title, f.left]),
      [
        ['Use 2 groups (64 / 2 = 32 channels each)', []],
        ['Use 4 groups (64 / 4 = 16 channels each)', []],
      ],
    );
    assert.deepStrictEqual(
      (
        await fixes(
          `${TS}const layer = new nn.MultiHeadSelfAttention(50, 50, 8, 4);\n`,
          'heads-divisibility',
          'typescript',
        )
      ).map((f) => [f.title, f.left]),
      [
        ['Use 5 heads (50 / 5 = 10)', []],
        ['Use 10 heads (50 / 10 = 5)', []],
      ],
    );
  });

  test('unregistered-layers: a plain list or dict written in the assignment is wrapped in nn.ModuleList / nn.ModuleDict, and the layers count', async () => {
    const cls = (value: string) =>
      `${PY}class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.parts = ${value}\nm = M()\n`;
    const [list] = await fixes(cls('[nn.Linear(4, 4) for _ in range(3)]'), 'unregistered-layers');
    assert.deepStrictEqual(
      [list.title, list.fixed.split('\n')[4], list.left],
      ['Wrap in nn.ModuleList(…)', '        self.parts = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])', []],
    );
    // PyTorch: three Linear(4, 4) once registered, 60 parameters; none before.
    assert.strictEqual((await analyzeText(list.fixed)).instances[0].summary.params?.constant, 60n);
    assert.strictEqual(
      (await analyzeText(cls('[nn.Linear(4, 4) for _ in range(3)]'))).instances[0].summary.params?.constant,
      0n,
    );
    const [dict] = await fixes(cls("{'a': nn.Linear(4, 2)}"), 'unregistered-layers');
    assert.deepStrictEqual(
      [dict.title, dict.fixed.split('\n')[4], dict.left],
      ['Wrap in nn.ModuleDict(…)', "        self.parts = nn.ModuleDict({'a': nn.Linear(4, 2)})", []],
    );
    // A list built elsewhere has nothing to wrap here.
    assert.deepStrictEqual(
      await fixes(
        `${PY}layers = [nn.Linear(4, 4)]\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.parts = layers\nm = M()\n`,
        'unregistered-layers',
      ),
      [],
    );
  });
});

suite('ignore a code on one line', () => {
  test("a directive at the end of the line, after any comment, in the language's comment syntax", () => {
    assert.deepStrictEqual(ignoreEdit('x = nn.Linear(d, d / 2)', 'non-integer-size', 'python'), {
      start: 23,
      end: 23,
      text: '  # attention-lens: ignore[non-integer-size]',
    });
    assert.deepStrictEqual(ignoreEdit('x = nn.Linear(d, d / 2)   ', 'non-integer-size', 'python'), {
      start: 23,
      end: 26,
      text: '  # attention-lens: ignore[non-integer-size]',
    });
    assert.deepStrictEqual(ignoreEdit('const l = new nn.Linear(4, 4.5); // note', 'non-integer-size', 'typescript'), {
      start: 40,
      end: 40,
      text: '  // attention-lens: ignore[non-integer-size]',
    });
  });

  test("a code added to the line's list; nothing where every code is silenced already or no comment can go", () => {
    assert.deepStrictEqual(
      ignoreEdit('y = f(x)  # attention-lens: ignore[view-mismatch]', 'feature-mismatch', 'python'),
      { start: 48, end: 48, text: ', feature-mismatch' },
    );
    assert.deepStrictEqual(ignoreEdit('y = f(x)  # attention-lens: ignore[]', 'feature-mismatch', 'python'), {
      start: 35,
      end: 35,
      text: 'feature-mismatch',
    });
    assert.strictEqual(ignoreEdit('y = f(x)  # attention-lens: ignore', 'feature-mismatch', 'python'), undefined);
    assert.strictEqual(ignoreEdit('y = a + \\', 'feature-mismatch', 'python'), undefined);
  });

  test('the directive it writes silences the finding, and only that code', async () => {
    const text = `${PY}lin = nn.Linear(-512, 7.5)\n`;
    const before = (await analyzeText(text)).findings.map((f) => f.code).sort();
    assert.deepStrictEqual(before, ['negative-size', 'non-integer-size']);
    const line = text.split('\n')[1];
    const edit = ignoreEdit(line, 'negative-size', 'python')!;
    const after = text.replace(line, line.slice(0, edit.start) + edit.text + line.slice(edit.end));
    assert.deepStrictEqual(
      (await analyzeText(after)).findings.map((f) => f.code),
      ['non-integer-size'],
    );
  });
});
