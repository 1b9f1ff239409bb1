/**
 * Layers of libraries beside torch.nn against the libraries' own counts and named_parameters() (library-layers.json,
 * from scripts/ground-truth/library_layers.py): fairscale's model-parallel layers as one process holds them, and
 * the fixtures of libraries/ that build them, Meta's Llama among them.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, classTotals, expandTensors, paramsOf, ROOT } from './helpers';

const TRUTH = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/library-layers.json'), 'utf8')) as {
  calls: { call: string; kind: string; params: number; tensors: [string, number[]][] }[];
  fixtures: Record<string, Record<string, number>>;
  caches: Record<string, Record<string, { per_token: number; heads: [number, number, number][] }>>;
};

const IMPORTS =
  'from fairscale.nn.model_parallel.layers import ColumnParallelLinear, RowParallelLinear, ParallelEmbedding, VocabParallelEmbedding\n';

suite("libraries' layers against the libraries", () => {
  for (const r of TRUTH.calls)
    test(r.call, async () => {
      const analysis = await analyzeText(`${IMPORTS}layer = ${r.call}\n`);
      const layer = analysis.layers.find((l) => l.span.startLine === 1 && l.span.startChar === 8);
      assert.strictEqual(layer?.layer.kind, r.kind);
      assert.strictEqual(paramsOf(layer), r.params);
      assert.deepStrictEqual(expandTensors(layer.layer.tensors), r.tensors);
    });

  for (const [file, classes] of Object.entries(TRUTH.fixtures))
    test(`${file}: every class's total in the models the file builds`, async () => {
      assert.deepStrictEqual(await classTotals(file), classes);
    });

  for (const [file, models] of Object.entries(TRUTH.caches))
    test(`${file}: the attention writing its keys and values to a cache, and the numbers a token adds`, async () => {
      const full = path.join(ROOT, 'test/fixtures/models/pytorch', file);
      const analysis = await analyzeText(readFileSync(full, 'utf8'), 'python', full);
      for (const [name, truth] of Object.entries(models)) {
        const model = analysis.instances.find((i) => i.className === name);
        assert.strictEqual(Number(model?.sizing?.kvPerToken?.constant), truth.per_token, name);
        const heads = analysis.modules.flatMap((m) => {
          const a = m.attention?.attention;
          return a ? [[a.heads, a.kvHeads ?? a.heads, a.headDim].map((p) => Number(p?.constant))] : [];
        });
        assert.deepStrictEqual(heads, truth.heads);
      }
    });
});
