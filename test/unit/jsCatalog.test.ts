/**
 * Single TF.js and js-pytorch layers against what the libraries build (test/fixtures/expected/js-catalog.json,
 * written by scripts/ground-truth/js_catalog.mjs): each case is analysed as the code that ran.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, expandTensors, paramsOf, ROOT } from './helpers';

interface Case {
  readonly code: string;
  readonly kind: string;
  readonly params?: number;
  readonly tensors?: [string, number[]][];
  readonly error?: { readonly type: string; readonly message: string };
}

const catalog = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/js-catalog.json'), 'utf8')) as {
  prelude: string;
  cases: Case[];
};
const CALL = 'const layer = ';

suite('TF.js and js-pytorch layers against the libraries (js-catalog.json)', () => {
  for (const c of catalog.cases) {
    test(c.code, async () => {
      const text = catalog.prelude + c.code;
      const start = catalog.prelude.length + CALL.length;
      assert.ok(c.code.startsWith(CALL), 'each case binds layer first');
      const analysis = await analyzeText(text, 'typescript');
      const layer = analysis.layers.find((l) => l.span.start === start);
      assert.ok(layer, 'layer found');
      assert.strictEqual(layer.layer.kind, c.kind);
      const errors = analysis.findings.filter((f) => f.severity === 'error');
      if (c.error) {
        const finding = errors.find((f) => f.span.start === start);
        assert.ok(finding, `the library throws ${c.error.type}: ${c.error.message}`);
        assert.ok(finding.message.includes(c.error.message), `in the library's words: ${finding.message}`);
        assert.ok(!/PyTorch|\/\//.test(finding.message), `no PyTorch wording: ${finding.message}`);
        assert.strictEqual(paramsOf(layer), null, 'no count for a layer the library refuses');
        return;
      }
      assert.deepStrictEqual(
        errors.map((f) => f.message),
        [],
        'the library builds it',
      );
      assert.strictEqual(paramsOf(layer), c.params);
      assert.deepStrictEqual(expandTensors(layer.layer.tensors), c.tensors);
    });
  }
});

suite('JavaScript numbers in TypeScript sizes', () => {
  const layerOf = async (code: string) => {
    const analysis = await analyzeText(`${catalog.prelude}${code}`, 'typescript');
    return { layer: analysis.layers[0], findings: analysis.findings };
  };

  test('2 ** 53 + 1 rounds to the double 2^53, as JavaScript computes it', async () => {
    const { layer } = await layerOf('const layer = tf.layers.dense({units: 2 ** 53 + 1, inputDim: 1});');
    assert.strictEqual(layer.layer.params?.constant, 2n * 2n ** 53n);
  });

  test('a whole literal above 2^53 is an integer (the double it rounds to), not a float', async () => {
    const { layer, findings } = await layerOf('const layer = tf.layers.dense({units: 9007199254740993, inputDim: 1});');
    assert.deepStrictEqual(findings, []);
    assert.strictEqual(layer.layer.params?.constant, 2n * 2n ** 53n);
  });

  for (const [written, shown] of [
    ['Infinity', 'Infinity'],
    ['NaN', 'NaN'],
    ['5 / 0', 'Infinity'],
  ]) {
    test(`${written} is a number TF.js refuses, not a name`, async () => {
      const { layer, findings } = await layerOf(`const layer = tf.layers.dense({units: ${written}, inputDim: 4});`);
      assert.strictEqual(layer.layer.params, undefined);
      assert.deepStrictEqual(
        findings.map((f) => f.message),
        [`units is ${shown}: TensorFlow.js throws "Expected units to be a positive integer, but got ${shown}."`],
      );
    });
  }

  test('% keeps the sign of the dividend', async () => {
    const { layer } = await layerOf('const layer = new nn.Linear(7 % -4, 8);');
    assert.strictEqual(layer.layer.params?.constant, 3n * 8n + 8n);
  });
});
