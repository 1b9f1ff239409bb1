/**
 * The KV cache per token and the attention layers of the models the fixtures build, against the keys and values
 * PyTorch 1.13 really multiplies when they run (pytorch-kv.json, from scripts/ground-truth/pytorch_kv.py).
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, ROOT } from './helpers';

interface Measured {
  readonly attentionLayers: number;
  readonly kvNumbersPerToken: number;
}

const truth = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-kv.json'), 'utf8')) as { files: Record<string, Record<string, Measured>> };

suite('KV cache against the keys and values PyTorch computes', () => {
  for (const [file, models] of Object.entries(truth.files)) {
    for (const [name, real] of Object.entries(models)) {
      test(`${path.basename(file)} ${name}: ${real.attentionLayers} attention layer${real.attentionLayers === 1 ? '' : 's'}, ${real.kvNumbersPerToken} numbers a token`, async () => {
        const analysis = await analyzeText(readFileSync(path.join(ROOT, file), 'utf8'), 'python', path.join(ROOT, file));
        const sizing = analysis.instances.find((i) => i.className === name)?.sizing;
        assert.ok(sizing, `${name} is built and sized`);
        assert.strictEqual(sizing.attentionLayers.constant, BigInt(real.attentionLayers));
        assert.strictEqual(sizing.kvPerToken?.constant, BigInt(real.kvNumbersPerToken));
      });
    }
  }
});
