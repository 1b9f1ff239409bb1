/** Each catalog entry against PyTorch's own count and named_parameters() (pytorch-catalog.json). */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, expandTensors, paramsOf, ROOT } from './helpers';

interface Record_ {
  readonly call: string;
  readonly kind?: string;
  readonly params?: number | null;
  readonly lazy?: boolean;
  readonly tensors?: [string, number[] | null][];
  readonly error?: { type: string; message: string };
}

const records = JSON.parse(
  readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-catalog.json'), 'utf8'),
) as Record_[];

/** PyTorch accepts these although no sensible model has them; we report them anyway (see the message). */
const STRICTER_THAN_PYTORCH = new Set(['nn.MultiheadAttention(512, -8)']);

suite('PyTorch catalog against torch 1.13', () => {
  for (const r of records) {
    test(r.call, async () => {
      const analysis = await analyzeText(`import torch.nn as nn\nlayer = ${r.call}\n`);
      const outer = analysis.layers.filter((l) => l.span.startLine === 1 && l.span.startChar === 8);
      assert.strictEqual(outer.length, 1, 'one layer at the call');
      const findings = analysis.findings.filter((f) => f.span.startLine === 1);
      if (r.error) {
        assert.ok(
          findings.some((f) => f.severity === 'error'),
          `PyTorch raises ${r.error.type}: ${r.error.message}`,
        );
        return;
      }
      if (STRICTER_THAN_PYTORCH.has(r.call)) assert.strictEqual(findings.length, 1);
      else
        assert.deepStrictEqual(
          findings.map((f) => f.message),
          [],
        );
      assert.strictEqual(paramsOf(outer[0]), r.lazy ? null : r.params);
      if (!r.lazy && r.tensors) assert.deepStrictEqual(expandTensors(outer[0].layer.tensors), r.tensors);
    });
  }
});
