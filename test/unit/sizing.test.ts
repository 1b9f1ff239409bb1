/**
 * Sizing a model from its source: non-embedding and trainable parameters, training memory, the KV cache and
 * the FLOPs, against the reference numbers engineers size GPT-2 and Llama-2 with.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { sizingMarkdown } from '../../src/core/present/format';
import { bytesOf, DEFAULT_SIZING, TRAINING_BYTES } from '../../src/core/sizing/memory';
import { sizingFigures } from '../../src/core/sizing/sizingFigures';
import { analyzeText, ROOT } from './helpers';

const fixture = (name: string) => readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', name), 'utf8');

suite('sizing', () => {
  test('GPT-2 small: 124,439,808 parameters, 85,056,000 without the embeddings, 36,864 bytes of KV cache a token in fp16', async () => {
    const analysis = await analyzeText(fixture('gpt.py'));
    const gpt = analysis.instances.find((i) => i.className === 'GPT')!;
    const s = gpt.sizing!;
    assert.strictEqual(s.params.constant, 124_439_808n);
    assert.strictEqual(s.nonEmbedding.constant, 85_056_000n);
    assert.strictEqual(s.trainable?.constant, 124_439_808n);
    assert.strictEqual(s.frozen?.constant, 0n);
    assert.strictEqual(s.attentionLayers.constant, 12n);
    assert.strictEqual(bytesOf(s.kvPerToken!, 2)?.constant, 36_864n);
    // Mixed-precision AdamW: 16 bytes a trainable parameter.
    assert.strictEqual(bytesOf(s.params, TRAINING_BYTES.adamwMixed.trainable)?.constant, 16n * 124_439_808n);
    const f = sizingFigures(s, { ...DEFAULT_SIZING, dtype: 'fp16', sequence: 1024 });
    assert.strictEqual(f.trainingBytes, 16n * 124_439_808n);
    // 2 · 12 layers · 12 kv heads · 64 · 2 bytes · 1,024 tokens.
    assert.strictEqual(f.kvCacheBytes, 2n * 12n * 12n * 64n * 2n * 1024n);
    const text = sizingMarkdown(s, { ...DEFAULT_SIZING, dtype: 'fp16' });
    assert.ok(
      text.includes('KV cache: 36,864 bytes a token in fp16 (12 attention layers), 36.0 MiB for 1,024 tokens'),
      text,
    );
  });

  test('GPT-2 small forward FLOPs a token at a context of 1,024: 284,812,800, Kaplan et al.’s 2N + 2·n_layer·n_ctx·d_model with the de-embedding and the values', async () => {
    const s = (await analyzeText(fixture('gpt.py'))).instances.find((i) => i.className === 'GPT')!.sizing!;
    const f = sizingFigures(s, { ...DEFAULT_SIZING, batch: 8, sequence: 1024 });
    // Kaplan et al. (2020): C_forward ≈ 2N + 2·n_layer·n_ctx·d_attn, N = 85,056,000 non-embedding parameters:
    // 170,112,000 + 2·12·1,024·768 = 188,986,368. The convention here counts matrix products only, every
    // nn.Linear once a token, at 2·in·out:
    //   the 12 blocks' c_attn, c_proj, c_fc, mlp.c_proj: 12 · 768 · (2,304 + 768 + 3,072 + 3,072) = 84,934,656
    //     (N less its 121,344 biases and LayerNorm weights, which take part in no product), times 2;
    //   lm_head, the de-embedding Kaplan leaves out: 2 · 768 · 50,257 = 77,194,752;
    //   and in each of the 12 attentions both context terms at the full context T = 1,024: the scores Q·Kᵀ and
    //   the weighted sum of V, 2·T·(h·d_k) + 2·T·(h·d_v) = 2·2·1,024·768 (Kaplan counts the scores only).
    // 169,869,312 + 77,194,752 + 12 · 3,145,728 = 284,812,800.
    assert.strictEqual(s.matmulPerToken?.constant, 84_934_656n + 38_597_376n);
    assert.strictEqual(f.flops?.forwardPerToken, 2n * 84_934_656n + 77_194_752n + 12n * 2n * 2n * 1024n * 768n);
    assert.strictEqual(f.flops?.forwardPerToken, 284_812_800n);
    // Training is forward and backward: 3 × forward, for every token of the step's 8 × 1,024.
    assert.strictEqual(f.flops?.trainingPerToken, 854_438_400n);
    assert.strictEqual(f.flops?.trainingStep, 854_438_400n * 8n * 1024n);
  });

  test('Llama-2-7B: 6,738,415,616 parameters and 524,288 bytes of KV cache a token in fp16', async () => {
    const text = fixture('handwritten_attention.py');
    const analysis = await analyzeText(
      `${text}\nllama2_7b = Llama(ModelArgs(dim=4096, n_layers=32, n_heads=32, n_kv_heads=None, vocab_size=32000))\n`,
    );
    const llama = analysis.instances.find((i) => i.span.startLine + 1 === text.split('\n').length + 1)!;
    assert.strictEqual(llama.sizing?.params.constant, 6_738_415_616n);
    assert.strictEqual(llama.sizing?.attentionLayers.constant, 32n);
    assert.strictEqual(bytesOf(llama.sizing!.kvPerToken!, 2)?.constant, 524_288n);
    // Its RMSNorm and rotary embeddings are written by hand with operations the activations do not follow.
    assert.ok('unknown' in llama.sizing!.activations);
  });

  test('grouped-query attention keeps a quarter of the keys and values: 2 kv heads for 8', async () => {
    const analysis = await analyzeText(fixture('handwritten_attention.py'));
    const layer = analysis.instances.find((i) => i.className === 'LlamaLayer')!;
    // 2 kv heads × (64 + 64) numbers a token, in the one attention layer.
    assert.strictEqual(layer.sizing?.kvPerToken?.constant, 256n);
  });

  test('training memory counts optimizer state for trainable parameters only: a LoRA adapter written by hand', async () => {
    const s = (await analyzeText(fixture('sizing.py'))).instances.find((i) => i.className === 'LoRAMLP')!.sizing!;
    // 1,320 adapter parameters train; the 9,610 of the two frozen nn.Linear keep their 16-bit weights only.
    assert.strictEqual(sizingFigures(s, DEFAULT_SIZING).trainingBytes, 16n * 1320n + 2n * 9610n);
    assert.strictEqual(
      sizingFigures(s, { ...DEFAULT_SIZING, optimizer: 'sgdMomentum' }).trainingBytes,
      12n * 1320n + 4n * 9610n,
    );
    // Its adapters multiply by parameters of their own in forward(): the FLOPs are not given.
    assert.strictEqual(sizingFigures(s, DEFAULT_SIZING).flops, undefined);
    const text = sizingMarkdown(s, { ...DEFAULT_SIZING, batch: 2, sequence: 16 });
    assert.ok(text.includes('- Trainable: 1,320 (frozen: 9,610)'), text);
    assert.ok(
      text.includes(
        '- Activations kept for backward (batch 2 × 16 tokens, bf16, as PyTorch 1.13 on the CPU): 20.5 KiB',
      ),
      text,
    );
  });

  test('activations past what the model can run are not known: 1,024 positions into an embedding of 64', async () => {
    const s = (await analyzeText(fixture('sizing.py'))).instances.find((i) => i.className === 'TinyLM')!.sizing!;
    assert.deepStrictEqual(sizingFigures(s, { ...DEFAULT_SIZING, sequence: 1024 }).activations, {
      unknown: 'an embedding of 64 rows indexed up to 1,023, where PyTorch raises IndexError',
    });
    assert.ok('bytes' in sizingFigures(s, { ...DEFAULT_SIZING, sequence: 64 }).activations);
    // GPT-2 small slices its causal mask to the sequence: 2,048 tokens do not fit its 1,024.
    const gpt = (await analyzeText(fixture('gpt.py'))).instances[0].sizing!;
    assert.ok('unknown' in sizingFigures(gpt, { ...DEFAULT_SIZING, sequence: 2048 }).activations);
  });

  test('activations in a storage type PyTorch does not train in are not known', async () => {
    const s = (await analyzeText(fixture('sizing.py'))).instances.find((i) => i.className === 'MLP')!.sizing!;
    assert.ok('unknown' in sizingFigures(s, { ...DEFAULT_SIZING, dtype: 'int8' }).activations);
    assert.ok('unknown' in sizingFigures(s, { ...DEFAULT_SIZING, dtype: 'fp16' }).activations);
    assert.deepStrictEqual(sizingFigures(s, { ...DEFAULT_SIZING, dtype: 'int8' }).activations, {
      unknown: 'training keeps activations in floating point, not int8',
    });
    const fp32 = sizingFigures(s, { ...DEFAULT_SIZING, dtype: 'fp32', batch: 1, sequence: 16 }).activations;
    assert.strictEqual('bytes' in fp32 && fp32.bytes, 53_248n);
  });
});
