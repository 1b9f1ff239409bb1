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

const catalog = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/js-catalog.json'), 'utf8')) as { prelude: string; cases: Case[] };
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
      assert.deepStrictEqual(errors.map((f) => f.message), [], 'the library builds it');
      assert.strictEqual(paramsOf(layer), c.params);
      assert.deepStrictEqual(expandTensors(layer.layer.tensors), c.tensors);
    });
  }
});
