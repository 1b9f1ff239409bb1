/** The explain walkthrough's numbers, against arithmetic written out independently here. */
import * as assert from 'assert';
import { explain, explainMarkdown } from '../../src/core/explain';
import { hoverMarkdown } from '../../src/core/format';
import { analyzeText } from './helpers';

const fmt = (x: number) => x.toLocaleString('en-US');

async function attentionLayer(source: string, language: 'python' | 'typescript' = 'python') {
  const analysis = await analyzeText(source, language);
  const layer = analysis.layers.find((l) => l.layer.attention);
  assert.ok(layer, 'an attention layer');
  return layer.layer;
}

suite('explain attention shapes', () => {
  test('nn.MultiheadAttention(512, 8, batch_first=True) with N=2, L=10, S=12', async () => {
    const layer = await attentionLayer('import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8, batch_first=True)\n');
    const d = explain(layer, 'line 2', { batch: 2, queryLength: 10, keyLength: 12, dtype: 'float32' })!;
    const [E, h, dk, N, L, S] = [512, 8, 64, 2, 10, 12];
    const flops = [
      2 * N * L * E * E + N * L * E, // Q
      2 * N * S * E * E + N * S * E, // K
      2 * N * S * E * E + N * S * E, // V
      0,
      2 * N * h * L * S * dk + N * h * L * S, // scores and scaling
      5 * N * h * L * S, // softmax
      2 * N * h * L * S * dk, // weights · V
      0,
      2 * N * L * E * E + N * L * E, // output projection
    ];
    assert.deepStrictEqual(d.steps.map((s) => s.flops), flops.map(fmt));
    assert.strictEqual(d.totalFlops, fmt(flops.reduce((a, b) => a + b, 0)));
    assert.deepStrictEqual(d.steps.map((s) => s.shape), [
      '(N, L, 512)', '(N, S, 512)', '(N, S, 512)', 'Q (N, 8, L, 64), K (N, 8, S, 64), V (N, 8, S, 64)',
      '(N, 8, L, S)', '(N, 8, L, S)', '(N, 8, L, 64)', '(N, L, 512)', '(N, L, 512)',
    ]);
    assert.deepStrictEqual(d.scores, { elements: fmt(N * h * L * S), bytes: fmt(N * h * L * S * 4) });
    assert.deepStrictEqual(d.parameters.map((p) => [p.name, p.role, p.shape, p.count]), [
      ['in_proj_weight', 'W_Q, W_K, W_V stacked', '[1536, 512]', '786,432'],
      ['in_proj_bias', 'b_Q, b_K, b_V stacked', '[1536]', '1,536'],
      ['out_proj.weight', 'W_O', '[512, 512]', '262,144'],
      ['out_proj.bias', 'b_O', '[512]', '512'],
    ]);
    // One source of truth: the panel's total is the hover's count.
    assert.strictEqual(d.totalParameters, '1,050,624');
    assert.ok(hoverMarkdown(layer, 'nn.MultiheadAttention').includes('1,050,624 parameters'));
    assert.strictEqual(d.totalBytes, fmt(1050624 * 4));
    // Kept for backward: X_q, X_k, X_v, Q and K, the weights and the dropout mask, V, the concatenated heads.
    const saved = N * L * E + N * S * E + N * S * E + (N * h * L * dk + N * h * S * dk) + N * h * L * S + N * h * S * dk + N * L * E;
    assert.strictEqual(d.savedElements, fmt(saved));
    assert.strictEqual(d.lowRank?.merged, fmt(E * E));
    assert.strictEqual(d.lowRank?.separate, fmt(2 * E * dk));
    assert.strictEqual(d.lowRank?.rank, '64');
  });

  test('sequence first by default; kdim/vdim change the K and V projections', async () => {
    const layer = await attentionLayer('import torch.nn as nn\nattn = nn.MultiheadAttention(256, 4, kdim=128, vdim=64, bias=False)\n');
    const d = explain(layer, 'line 2', { batch: 1, queryLength: 3, keyLength: 5, dtype: 'bfloat16' })!;
    assert.strictEqual(d.steps[0].shape, '(L, N, 256)');
    assert.strictEqual(d.steps[1].flops, fmt(2 * 1 * 5 * 128 * 256));
    assert.strictEqual(d.steps[2].flops, fmt(2 * 1 * 5 * 64 * 256));
    assert.deepStrictEqual(d.parameters.map((p) => `${p.name} ${p.role} ${p.shape}`), ['q_proj_weight W_Q [256, 256]', 'k_proj_weight W_K [256, 128]', 'v_proj_weight W_V [256, 64]', 'out_proj.weight W_O [256, 256]']);
    assert.strictEqual(d.totalBytes, fmt((256 * 256 + 256 * 128 + 256 * 64 + 256 * 256) * 2));
  });

  test('Keras-style: keyDim per head, and a symbolic size stays a formula', async () => {
    const layer = await attentionLayer([
      "import * as tf from '@tensorflow/tfjs';",
      "import { MultiHeadAttention } from '@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention';",
      'const x = tf.randomNormal([2, 10, 512]);',
      'const mha = new MultiHeadAttention({ numHeads: 8, keyDim: 64, valueDim: 32 });',
      'const y = mha.call(x, { value: x });',
      '',
    ].join('\n'), 'typescript');
    const d = explain(layer, 'line 4')!;
    assert.strictEqual(d.totalParameters, '788,224');
    assert.strictEqual(d.steps[7].shape, '(N, L, 8, 32)');
    const symbolic = await attentionLayer('import torch.nn as nn\ndef f(d):\n    return nn.MultiheadAttention(d, 8)\n');
    assert.strictEqual(explain(symbolic, 'line 3')!.totalParameters, '4·d² + 4·d');
    assert.ok(explainMarkdown(explain(symbolic, 'line 3')!).includes('| total | | | 4·d² + 4·d |'));
  });
});
