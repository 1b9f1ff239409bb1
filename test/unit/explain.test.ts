/** The explain walkthrough's numbers, against arithmetic written out independently here. */
import * as assert from 'assert';
import { explain, type ExplainData } from '../../src/core/present/explain';
import { explainMarkdown } from '../../src/core/present/explainMarkdown';
import { hoverMarkdown } from '../../src/core/present/format';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, ROOT } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: object) => { render(src: string): string };

const fmt = (x: number) => x.toLocaleString('en-US');

async function attentionLayer(source: string, language: 'python' | 'typescript' = 'python') {
  const analysis = await analyzeText(source, language);
  const layer = analysis.layers.find((l) => l.layer.attention);
  assert.ok(layer, 'an attention layer');
  return layer.layer;
}

suite('explain attention shapes', () => {
  test('nn.MultiheadAttention(512, 8, batch_first=True) with N=2, L=10, S=12', async () => {
    const layer = await attentionLayer(
      'import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8, batch_first=True)\n',
    );
    const d = explain(layer, 'line 2', {
      batch: 2,
      queryLength: 10,
      keyLength: 12,
      dtype: 'float32',
      selfAttention: false,
    })!;
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
    assert.deepStrictEqual(
      d.steps.map((s) => s.flops.exact),
      flops.map(fmt),
    );
    assert.strictEqual(d.totalFlops.exact, fmt(flops.reduce((a, b) => a + b, 0)));
    assert.deepStrictEqual(
      d.steps.map((s) => s.shape),
      [
        '(N, L, 512)',
        '(N, S, 512)',
        '(N, S, 512)',
        'Q (N, 8, L, 64), K (N, 8, S, 64), V (N, 8, S, 64)',
        '(N, 8, L, S)',
        '(N, 8, L, S)',
        '(N, 8, L, 64)',
        '(N, L, 512)',
        '(N, L, 512)',
      ],
    );
    assert.deepStrictEqual(d.scores, {
      elements: fmt(N * h * L * S),
      bytes: { exact: fmt(N * h * L * S * 4), text: '7.5 KiB' },
    });
    assert.deepStrictEqual(
      d.parameters.map((p) => [p.name, p.role, p.shape, p.count]),
      [
        ['in_proj_weight', 'W_Q, W_K, W_V stacked', '[1536, 512]', '786,432'],
        ['in_proj_bias', 'b_Q, b_K, b_V stacked', '[1536]', '1,536'],
        ['out_proj.weight', 'W_O', '[512, 512]', '262,144'],
        ['out_proj.bias', 'b_O', '[512]', '512'],
      ],
    );
    // One source of truth: the panel's total is the hover's count.
    assert.strictEqual(d.totalParameters, '1,050,624');
    assert.ok(hoverMarkdown(layer, 'nn.MultiheadAttention').includes('1,050,624 parameters'));
    assert.deepStrictEqual(d.totalBytes, { exact: fmt(1050624 * 4), text: '4.0 MiB' });
    // Kept for backward: X_q, X_k, X_v, Q and K, the weights and the dropout mask, V, the concatenated heads.
    const saved =
      N * L * E +
      N * S * E +
      N * S * E +
      (N * h * L * dk + N * h * S * dk) +
      N * h * L * S +
      N * h * S * dk +
      N * L * E;
    assert.strictEqual(d.savedElements, fmt(saved));
    assert.strictEqual(d.lowRank?.merged, fmt(E * E));
    assert.strictEqual(d.lowRank?.separate, fmt(2 * E * dk));
    assert.strictEqual(d.lowRank?.rank, '64');
  });

  test('sequence first by default; kdim/vdim change the K and V projections', async () => {
    const layer = await attentionLayer(
      'import torch.nn as nn\nattn = nn.MultiheadAttention(256, 4, kdim=128, vdim=64, bias=False)\n',
    );
    const d = explain(layer, 'line 2', {
      batch: 1,
      queryLength: 3,
      keyLength: 5,
      dtype: 'bfloat16',
      selfAttention: true,
    })!;
    // kdim and vdim differ from E: keys and values cannot be the query's own input.
    assert.deepStrictEqual(d.selfAttention, { possible: false, on: false });
    assert.strictEqual(d.steps[0].shape, '(L, N, 256)');
    assert.strictEqual(d.steps[1].flops.exact, fmt(2 * 1 * 5 * 128 * 256));
    assert.strictEqual(d.steps[2].flops.exact, fmt(2 * 1 * 5 * 64 * 256));
    assert.deepStrictEqual(
      d.parameters.map((p) => `${p.name} ${p.role} ${p.shape}`),
      [
        'q_proj_weight W_Q [256, 256]',
        'k_proj_weight W_K [256, 128]',
        'v_proj_weight W_V [256, 64]',
        'out_proj.weight W_O [256, 256]',
      ],
    );
    assert.strictEqual(d.totalBytes.exact, fmt((256 * 256 + 256 * 128 + 256 * 64 + 256 * 256) * 2));
  });

  test('Keras-style: keyDim per head, and a symbolic size stays a formula', async () => {
    const layer = await attentionLayer(
      [
        "import * as tf from '@tensorflow/tfjs';",
        "import { MultiHeadAttention } from '@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention';",
        'const x = tf.randomNormal([2, 10, 512]);',
        'const mha = new MultiHeadAttention({ numHeads: 8, keyDim: 64, valueDim: 32 });',
        'const y = mha.call(x, { value: x });',
        '',
      ].join('\n'),
      'typescript',
    );
    const d = explain(layer, 'line 4')!;
    assert.strictEqual(d.totalParameters, '788,224');
    assert.strictEqual(d.steps[7].shape, '(N, L, 8, 32)');
    const symbolic = await attentionLayer('import torch.nn as nn\ndef f(d):\n    return nn.MultiheadAttention(d, 8)\n');
    assert.strictEqual(explain(symbolic, 'line 3')!.totalParameters, '4·d² + 4·d');
    assert.ok(
      explainMarkdown(explain(symbolic, 'line 3')!).includes('| total | | | `4·d² + 4·d` | `16·d² + 16·d` bytes |'),
    );
    // The batch and length are names in a formula over names, not 8 × 128 folded into its coefficient.
    const q = explain(symbolic, 'line 3', {
      batch: 8,
      queryLength: 128,
      keyLength: 128,
      dtype: 'float32',
      selfAttention: true,
    })!.steps[0].flops.exact;
    assert.ok(/\bL\b/.test(q) && /\bN\b/.test(q) && !q.includes('2,048') && !q.includes('2048'), q);
  });

  test('self-attention: the one input X is kept once for backward, and S is L', async () => {
    const layer = await attentionLayer(
      'import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8, batch_first=True)\n',
    );
    const [E, h, dk, N, L] = [512, 8, 64, 2, 10];
    const apart = explain(layer, 'line 2', {
      batch: N,
      queryLength: L,
      keyLength: L,
      dtype: 'float32',
      selfAttention: false,
    })!;
    const self = explain(layer, 'line 2', {
      batch: N,
      queryLength: L,
      keyLength: 99,
      dtype: 'float32',
      selfAttention: true,
    })!;
    assert.deepStrictEqual(self.selfAttention, { possible: true, on: true });
    assert.strictEqual(self.inputs.keyLength, L, 'the keys are the queries: S follows L');
    assert.deepStrictEqual(
      self.steps.slice(0, 3).map((s) => s.name),
      ['Q = X · W_Q + b_Q', 'K = X · W_K + b_K', 'V = X · W_V + b_V'],
    );
    assert.deepStrictEqual(
      self.steps.slice(0, 3).map((s) => s.savedElements),
      [fmt(N * L * E), '0', '0'],
    );
    // Everything else is as with three inputs of the same length; only X_k and X_v are not kept again.
    const parse = (x: string) => Number(x.replace(/,/g, ''));
    assert.strictEqual(parse(apart.savedElements) - parse(self.savedElements), 2 * N * L * E);
    assert.strictEqual(
      self.savedElements,
      fmt(N * L * E + (N * h * L * dk + N * h * L * dk) + N * h * L * L + N * h * L * dk + N * L * E),
    );
    assert.strictEqual(self.totalFlops.exact, apart.totalFlops.exact);
  });

  test('FLOPs and bytes in units people read, exact digits beside them', async () => {
    const layer = await attentionLayer(
      'import torch.nn as nn\nattn = nn.MultiheadAttention(768, 12, batch_first=True)\n',
    );
    const d = explain(layer, 'line 2', {
      batch: 8,
      queryLength: 512,
      keyLength: 512,
      dtype: 'float32',
      selfAttention: true,
    })!;
    const [E, h, dk, N, L] = [768, 12, 64, 8, 512];
    const total =
      4 * (2 * N * L * E * E + N * L * E) +
      (2 * N * h * L * L * dk + N * h * L * L) +
      5 * N * h * L * L +
      2 * N * h * L * L * dk;
    assert.strictEqual(d.totalFlops.exact, fmt(total));
    assert.strictEqual(d.totalFlops.text, `${(total / 1e9).toPrecision(3)} GFLOP`);
    assert.strictEqual(d.scores.bytes.text, `${((N * h * L * L * 4) / 2 ** 20).toFixed(1)} MiB`);
    assert.match(d.savedBytes.text, /^\d+\.\d MiB$/);
  });

  test('the output step names both operands, in the data the panel shows and in the Markdown', async () => {
    for (const source of ['attn = nn.MultiheadAttention(512, 8)', 'attn = nn.MultiheadAttention(512, 8, bias=False)']) {
      const d = explain(await attentionLayer(`import torch.nn as nn\n${source}\n`), 'line 2')!;
      const output = d.steps[d.steps.length - 1].name;
      assert.match(output, /^output = heads · W_O( \+ b_O)?$/);
      assert.ok(explainMarkdown(d).includes(`| \`${output}\` |`));
      assert.ok(!/= ·|· ·/.test(explainMarkdown(d)), 'an operator with no operand');
    }
  });

  test("attention written by hand adds a bias only where its projection has one (Whisper's keys have none)", async () => {
    const source = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/whisper_style.py'), 'utf8');
    const analysis = await analyzeText(source);
    const whisper = analysis.modules.find((m) => m.name === 'MultiHeadAttention')?.attention;
    assert.ok(whisper, 'the attention of MultiHeadAttention');
    const d = explain(whisper, 'whisper_style.py', {
      batch: 1,
      queryLength: 4,
      keyLength: 4,
      dtype: 'float32',
      selfAttention: true,
    })!;
    assert.deepStrictEqual(
      d.steps.slice(0, 3).map((s) => s.name),
      ['Q = X · W_Q + b_Q', 'K = X · W_K', 'V = X · W_V + b_V'],
    );
    assert.strictEqual(d.steps[d.steps.length - 1].name, 'output = heads · W_O + b_O');
  });

  test("nanoGPT's attention alone: the head size is Python's floor quotient of the names, never their exact division", async () => {
    // In nanoGPT's style, written for this test: C is x.size()'s, not known, and the config is not known either
    // (a field without a default: the class is not counted with Config()'s defaults).
    const source = (headSize: string, build = '') =>
      [
        'import math',
        'import torch.nn as nn',
        'from torch.nn import functional as F',
        'from dataclasses import dataclass',
        '@dataclass',
        'class Config:',
        '    vocab_size: int',
        '    n_embd: int = 10',
        '    n_head: int = 3',
        'class CausalSelfAttention(nn.Module):',
        '    def __init__(self, config):',
        '        super().__init__()',
        '        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)',
        '        self.c_proj = nn.Linear(config.n_embd, config.n_embd)',
        '        self.n_head = config.n_head',
        '        self.n_embd = config.n_embd',
        '    def forward(self, x):',
        '        B, T, C = x.size()',
        '        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)',
        `        k = k.view(B, T, self.n_head, ${headSize}).transpose(1, 2)`,
        `        q = q.view(B, T, self.n_head, ${headSize}).transpose(1, 2)`,
        `        v = v.view(B, T, self.n_head, ${headSize}).transpose(1, 2)`,
        '        att = F.softmax((q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1))), dim=-1)',
        '        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)',
        '        return self.c_proj(y)',
        build,
      ].join('\n');
    const explained = async (text: string) => {
      const attention = (await analyzeText(text)).modules.find((m) => m.name === 'CausalSelfAttention')?.attention;
      assert.ok(attention, 'the attention of CausalSelfAttention');
      return explain(attention, 'model.py')!;
    };
    const headSize = (d: ExplainData) => d.settings.find(([name]) => name === 'head size d_k')?.[1];
    const dk = '(config.n_embd // config.n_head)';
    const d = await explained(source('C // self.n_head'));
    assert.strictEqual(headSize(d), dk);
    assert.strictEqual(
      d.steps[3].shape,
      `Q (N, config.n_head, L, ${dk}), K (N, config.n_head, S, ${dk}), V (N, config.n_head, S, ${dk})`,
    );
    // (a // b)·b is not a: the heads' features stay that product, never n_embd.
    assert.strictEqual(d.steps[7].shape, `(N, L, ${dk}·config.n_head)`);
    assert.ok(!/n_embd \/(?!\/)/.test(JSON.stringify(d)), 'no exact division of the names');
    assert.ok(explainMarkdown(d).includes(`| head size d_k | \`${dk}\` |`));
    // The same one name however the code spells the quotient, and wherever it appears.
    for (const spelled of ['-1', 'self.n_embd // self.n_head'])
      assert.strictEqual(headSize(await explained(source(spelled))), dk, spelled);
    assert.strictEqual(
      headSize(await explained(source('C // 4').replace(/self\.n_head, C/g, '4, C'))),
      '(config.n_embd // 4)',
    );
    const einops = [
      'import torch',
      'from torch import nn',
      'from einops import rearrange',
      'class Attention(nn.Module):',
      '    def __init__(self, dim, heads):',
      '        super().__init__()',
      '        self.heads = heads',
      '        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)',
      '        self.to_out = nn.Linear(dim, dim)',
      '    def forward(self, x):',
      '        qkv = self.to_qkv(x).chunk(3, dim=-1)',
      "        q, k, v = map(lambda t: rearrange(t, 'b n (h d) -> b h n d', h=self.heads), qkv)",
      '        attn = torch.matmul(q, k.transpose(-1, -2)).softmax(dim=-1)',
      "        return self.to_out(rearrange(torch.matmul(attn, v), 'b h n d -> b n (h d)'))",
    ].join('\n');
    const rearranged = (await analyzeText(einops)).modules.find((m) => m.name === 'Attention')?.attention;
    assert.ok(rearranged, 'the attention of Attention');
    assert.strictEqual(headSize(explain(rearranged, 'model.py')!), '(dim // heads)');
    // vit-pytorch's inner_dim = dim_head * heads split into heads: a multiple of heads, whose quotient is exact.
    const inner = einops
      .replace('def __init__(self, dim, heads):', 'def __init__(self, dim, heads, dim_head):')
      .replace('nn.Linear(dim, dim * 3, bias=False)', 'nn.Linear(dim, dim_head * heads * 3, bias=False)')
      .replace('nn.Linear(dim, dim)', 'nn.Linear(dim_head * heads, dim)');
    const split = (await analyzeText(inner)).modules.find((m) => m.name === 'Attention')?.attention;
    assert.ok(split, 'the attention of Attention with dim_head');
    assert.strictEqual(headSize(explain(split, 'model.py')!), 'dim_head');
    // Known sizes fold as Python does; ones that do not divide make a view PyTorch refuses: no head size.
    assert.strictEqual(
      headSize(
        await explained(source('C // self.n_head', 'm = CausalSelfAttention(Config(1, n_embd=768, n_head=12))')),
      ),
      '64',
    );
    assert.strictEqual(
      headSize(await explained(source('C // self.n_head', 'm = CausalSelfAttention(Config(1))'))),
      'not known',
    );
  });

  test('Copy as Markdown: text from the file stays literal (code spans and escapes)', async () => {
    const d = explain(await attentionLayer('import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8)\n'), 'line 2')!;
    const hostile = {
      ...d,
      name: 'Evil`|<img src=x>',
      where: 'a|b.py:2',
      settings: [['embed_dim (E)', '![x](https://host/x.png) | <b>']] as const,
    };
    const markdown = explainMarkdown(hostile);
    const html = new MarkdownIt({ html: true, linkify: true }).render(markdown);
    assert.ok(!/<img|<b>|<a /.test(html), html);
    assert.ok(markdown.startsWith('# ``Evil`|<img src=x>`` at `a|b.py:2`'), markdown.split('\n')[0]);
    assert.ok(markdown.includes('| embed_dim \\(E\\) | `![x](https://host/x.png) \\| <b>` |'), markdown);
  });
});
