/**
 * The tensors autograd keeps for backward, and the parameters that train, against PyTorch itself:
 * test/fixtures/expected/pytorch-activations.json is what scripts/ground-truth/pytorch_activations.py measured
 * for every model the fixtures build, in fp32 and bf16, at several batch sizes and sequence lengths.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import type { Analysis } from '../../src/core/analysis/analyze';
import { DEFAULT_SIZING } from '../../src/core/sizing/memory';
import { sizingFigures } from '../../src/core/sizing/sizingFigures';
import { analyzeText, ROOT } from './helpers';

interface Run {
  readonly batch: number;
  readonly sequence: number;
  readonly dtype: 'float32' | 'bfloat16';
  readonly bytes: number;
  readonly layers: Readonly<Record<string, number>>;
}

interface Expected {
  readonly params: number;
  readonly trainable: number;
  readonly frozen: number;
  readonly input: { readonly kind: 'tokens' } | { readonly kind: 'features'; readonly width: number };
  readonly runs: readonly Run[];
}

const truth = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-activations.json'), 'utf8')) as {
  models: Record<string, Expected>;
};

/** Models whose forward() uses an operation the activations do not follow: no figure, and why. */
const NOT_FOLLOWED: Readonly<Record<string, string>> = { rms: 'Tensor.pow()' };

const analyses = new Map<string, Promise<Analysis>>();
function analysisOf(fixture: string): Promise<Analysis> {
  let a = analyses.get(fixture);
  if (!a)
    analyses.set(
      fixture,
      (a = analyzeText(readFileSync(path.join(ROOT, fixture), 'utf8'), 'python', path.join(ROOT, fixture))),
    );
  return a;
}

suite('activations kept for backward, against PyTorch 1.13', () => {
  for (const [key, expected] of Object.entries(truth.models)) {
    const [fixture, name] = key.split(':');
    test(`${path.basename(fixture)} ${name}: ${expected.trainable.toLocaleString('en-US')} of ${expected.params.toLocaleString('en-US')} parameters train; ${expected.runs.map((r) => `${r.batch} × ${r.sequence} ${r.dtype}: ${r.bytes.toLocaleString('en-US')} bytes`).join(', ')}`, async () => {
      const analysis = await analysisOf(fixture);
      const lines = readFileSync(path.join(ROOT, fixture), 'utf8').split('\n');
      const model = analysis.instances.find((i) => lines[i.span.startLine].startsWith(`${name} = `));
      const s = model?.sizing;
      assert.ok(s, `${key}: no sizing`);
      assert.deepStrictEqual(
        [s.params.constant, s.trainable?.constant, s.frozen?.constant],
        [BigInt(expected.params), BigInt(expected.trainable), BigInt(expected.frozen)],
        key,
      );
      if (NOT_FOLLOWED[name]) {
        assert.deepStrictEqual(s.activations, { unknown: NOT_FOLLOWED[name] });
        return;
      }
      assert.ok('program' in s.activations, `${key}: ${'unknown' in s.activations ? s.activations.unknown : ''}`);
      const input = s.activations.program.input;
      assert.deepStrictEqual(
        input.kind === 'features' ? { kind: 'features', width: Number(input.width) } : input,
        expected.input,
      );
      for (const run of expected.runs) {
        const where = `${key} at ${run.batch} × ${run.sequence} in ${run.dtype}`;
        const f = sizingFigures(s, {
          ...DEFAULT_SIZING,
          dtype: run.dtype === 'float32' ? 'fp32' : 'bf16',
          batch: run.batch,
          sequence: run.sequence,
        });
        assert.ok(
          !('unknown' in f.activations),
          `${where}: ${'unknown' in f.activations ? f.activations.unknown : ''}`,
        );
        assert.strictEqual(f.activations.bytes, BigInt(run.bytes), where);
        // PyTorch names each copy of a repeated block (`blocks.0`, `blocks.1`); here they are one layer, `blocks.{i}`.
        const measured = new Map<string, { bytes: number; calls: number }>();
        for (const [layer, bytes] of Object.entries(run.layers)) {
          const at = layer.replace(/\.\d+$/, '.{i}');
          const known = f.activations.layers.some((l) => l.path === at) ? at : layer;
          const entry = measured.get(known) ?? { bytes: 0, calls: 0 };
          measured.set(known, { bytes: entry.bytes + bytes, calls: entry.calls + 1 });
        }
        const ours = f.activations.layers.filter((l) => l.bytes > 0n);
        assert.deepStrictEqual(
          new Map(ours.map((l) => [l.path, { bytes: Number(l.bytes), calls: l.path.endsWith('{i}') ? l.calls : 1 }])),
          measured,
          where,
        );
      }
    });
  }
});
