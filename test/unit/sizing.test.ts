/**
 * Sizing a model from its source: non-embedding parameters, training memory, and the KV cache per token,
 * against the reference numbers engineers size GPT-2 and Llama-2 with.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { sizingMarkdown } from '../../src/core/format';
import { bytesOf, TRAINING_BYTES } from '../../src/core/sizing';
import { analyzeText, ROOT } from './helpers';

const fixture = (name: string) => readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', name), 'utf8');

suite('sizing', () => {
  test('GPT-2 small: 124,439,808 parameters, 85,056,000 without the embeddings, 36,864 bytes of KV cache a token in fp16', async () => {
    const analysis = await analyzeText(fixture('gpt.py'));
    const gpt = analysis.instances.find((i) => i.className === 'GPT')!;
    const s = gpt.sizing!;
    assert.strictEqual(s.params.constant, 124_439_808n);
    assert.strictEqual(s.nonEmbedding.constant, 85_056_000n);
    assert.strictEqual(s.attentionLayers.constant, 12n);
    assert.strictEqual(bytesOf(s.kvPerToken!, 2)?.constant, 36_864n);
    // Mixed-precision AdamW: 16 bytes a trainable parameter.
    assert.strictEqual(bytesOf(s.params, TRAINING_BYTES.adamwMixed)?.constant, 16n * 124_439_808n);
    assert.ok(sizingMarkdown(s).includes('KV cache: 36,864 bytes a token in fp16 (12 attention layers)'), sizingMarkdown(s));
  });

  test('Llama-2-7B: 6,738,415,616 parameters and 524,288 bytes of KV cache a token in fp16', async () => {
    const text = fixture('handwritten_attention.py');
    const analysis = await analyzeText(`${text}\nllama2_7b = Llama(ModelArgs(dim=4096, n_layers=32, n_heads=32, n_kv_heads=None, vocab_size=32000))\n`);
    const llama = analysis.instances.find((i) => i.span.startLine + 1 === text.split('\n').length + 1)!;
    assert.strictEqual(llama.sizing?.params.constant, 6_738_415_616n);
    assert.strictEqual(llama.sizing?.attentionLayers.constant, 32n);
    assert.strictEqual(bytesOf(llama.sizing!.kvPerToken!, 2)?.constant, 524_288n);
  });

  test('grouped-query attention keeps a quarter of the keys and values: 2 kv heads for 8', async () => {
    const analysis = await analyzeText(fixture('handwritten_attention.py'));
    const layer = analysis.instances.find((i) => i.className === 'LlamaLayer')!;
    // 2 kv heads × (64 + 64) numbers a token, in the one attention layer.
    assert.strictEqual(layer.sizing?.kvPerToken?.constant, 256n);
  });
});
