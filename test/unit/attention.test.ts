/**
 * Attention written by hand, recognised in the styles of handwritten_attention.py and checked against what
 * PyTorch 1.13 does when it runs them (test/fixtures/expected/pytorch-attention.json, written by
 * scripts/ground-truth/pytorch_attention.py): the heads of the real scores, the real projection widths, and
 * no error where every forward() runs.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { attentionLayers } from '../../src/core/analysis/analyze';
import { explain } from '../../src/core/present/explain';
import { analyzeText, ROOT, widthsByRole } from './helpers';

const FIXTURE = 'test/fixtures/models/pytorch/handwritten_attention.py';

interface Truth {
  readonly classes: Record<
    string,
    { heads: number; queries: number; keys: number; projections: Record<string, number> }
  >;
  readonly forward: Record<string, string | null>;
  readonly mistakes: Record<string, { line: number; error: string }>;
  readonly realistic: Record<string, Record<string, string | null>>;
  readonly second: Record<string, { expression: string; heads: number; headDim: number | null }>;
}

/** What each error PyTorch raises in attention_mistakes.py is reported as. */
const CODE_OF = [
  [/^RuntimeError: mat1 and mat2 shapes cannot be multiplied/, 'feature-mismatch'],
  [/^RuntimeError: The size of tensor a \(\d+\) must match the size of tensor b/, 'feature-mismatch'],
  [/^RuntimeError: shape '.*' is invalid for input of size/, 'view-mismatch'],
  [/^(AssertionError|ValueError):/, 'constructor-raises'],
] as const;

const truth = JSON.parse(
  readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-attention.json'), 'utf8'),
) as Truth;

suite('attention written by hand', () => {
  test('every class whose forward() PyTorch runs a softmax over heads in is recognised, with the heads of its real scores', async () => {
    const analysis = await analyzeText(readFileSync(path.join(ROOT, FIXTURE), 'utf8'));
    const found = new Map(analysis.modules.filter((m) => m.attention).map((m) => [m.name, m.attention!]));
    assert.deepStrictEqual([...found.keys()].sort(), Object.keys(truth.classes).sort());
    for (const [name, real] of Object.entries(truth.classes)) {
      const a = found.get(name)!.attention!;
      assert.strictEqual(a.heads.constant, BigInt(real.heads), `${name} heads`);
      const widths = widthsByRole(found.get(name)!, real.projections);
      const headDim = Number(a.headDim!.constant);
      const kvHeads = Number((a.kvHeads ?? a.heads).constant);
      assert.strictEqual(widths.get('W_Q'), real.heads * headDim, `${name}: W_Q is heads × d_k wide`);
      assert.strictEqual(widths.get('W_K'), kvHeads * headDim, `${name}: W_K is kv heads × d_k wide`);
      assert.strictEqual(
        widths.get('W_V'),
        kvHeads * Number((a.valueHeadDim ?? a.headDim!).constant),
        `${name}: W_V is kv heads × d_v wide`,
      );
      assert.ok(widths.has('W_O'), `${name} has its output projection`);
    }
  });

  test('each class built with a second configuration shows that build, with the heads and head size of its real scores', async () => {
    const built = Object.entries(truth.second).map(([cls, c]) => `second_${cls.toLowerCase()} = ${c.expression}`);
    const analysis = await analyzeText(`${readFileSync(path.join(ROOT, FIXTURE), 'utf8')}\n${built.join('\n')}\n`);
    for (const [cls, real] of Object.entries(truth.second)) {
      const found = analysis.modules.find((m) => m.name === cls)?.attention;
      assert.ok(found, `${cls} is recognised`);
      const builds = (found.builds ?? [found]).map((b) => [
        Number(b.attention!.heads.constant),
        b.attention!.headDim && Number(b.attention!.headDim.constant),
      ]);
      assert.ok(
        builds.some(([h, d]) => h === real.heads && (real.headDim === null || d === real.headDim)),
        `${cls}: ${JSON.stringify(builds)} holds ${real.heads} heads × ${real.headDim}`,
      );
    }
  });

  test('builds whose totals are not known but whose heads differ are each listed, not one of them for all', async () => {
    // Swin with timm's helpers not followed: its stages build one attention class with 2 and 4 heads of 16.
    const code = [
      'import torch',
      'from torch import nn',
      'from timm.layers import trunc_normal_, table_size',
      '',
      'class WindowAttention(nn.Module):',
      '    def __init__(self, dim, num_heads):',
      '        super().__init__()',
      '        self.num_heads = num_heads',
      '        self.table = nn.Parameter(torch.zeros(table_size(), num_heads))',
      '        self.qkv = nn.Linear(dim, dim * 3)',
      '        self.proj = nn.Linear(dim, dim)',
      '',
      '    def forward(self, x):',
      '        B, N, C = x.shape',
      '        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)',
      '        q, k, v = qkv[0], qkv[1], qkv[2]',
      '        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)',
      '        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))',
      '',
      'class Net(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.stages = nn.ModuleList([WindowAttention(32, 2), WindowAttention(64, 4)])',
      '',
      '    def forward(self, x):',
      '        return self.stages[0](x)',
      '',
      'model = Net()',
    ].join('\n');
    const found = (await analyzeText(code)).modules.find((m) => m.name === 'WindowAttention')!.attention!;
    assert.deepStrictEqual((found.builds ?? []).map((b) => Number(b.attention!.heads.constant)).sort(), [2, 4]);
    assert.strictEqual(found.summary, '2 or 4 heads × 16');
  });

  test('the lens line of each style', async () => {
    const analysis = await analyzeText(readFileSync(path.join(ROOT, FIXTURE), 'utf8'));
    const summaries = Object.fromEntries(
      analysis.modules.filter((m) => m.attention).map((m) => [m.name, m.attention!.summary]),
    );
    assert.deepStrictEqual(summaries, {
      CausalSelfAttention: '12 heads × 64',
      MultiHeadAttention: '8 heads × 64, values × 32',
      Attention: '8 heads × 64 · GQA 8 q / 2 kv heads',
      TimmAttention: '6 heads × 64',
      LucidAttention: '4 heads × 32',
      CrossAttention: '8 heads × 40 · cross',
      T5Attention: '8 heads × 64',
    });
  });

  test('no error where PyTorch runs every forward()', async () => {
    assert.ok(
      Object.values(truth.forward).every((e) => e === null),
      'the fixture runs in PyTorch',
    );
    const analysis = await analyzeText(readFileSync(path.join(ROOT, FIXTURE), 'utf8'));
    assert.deepStrictEqual(
      analysis.findings.map((f) => `${f.span.startLine + 1} ${f.code}`),
      [],
    );
  });

  test("each mistake is reported at the line where PyTorch raises, with the user's own message where there is one", async () => {
    const analysis = await analyzeText(
      readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/attention_mistakes.py'), 'utf8'),
    );
    const reported = analysis.findings.map((f) => `${f.span.startLine + 1} ${f.code}`);
    for (const [where, raised] of Object.entries(truth.mistakes)) {
      const code = CODE_OF.find(([pattern]) => pattern.test(raised.error))?.[1];
      assert.ok(code, `${where}: ${raised.error}`);
      // An nn.Sequential's mismatch is reported at the layer that reads the wrong size, a few lines above the call.
      const at =
        reported.includes(`${raised.line} ${code}`) ||
        (code === 'feature-mismatch' &&
          reported.some((r) => r.endsWith('sequential-mismatch') && raised.line - Number(r.split(' ')[0]) < 4));
      assert.ok(at, `${where} raises at line ${raised.line} (${raised.error}); reported: ${reported.join(', ')}`);
      if (code === 'constructor-raises')
        assert.ok(
          analysis.findings.some((f) => f.message.includes(raised.error.slice(raised.error.indexOf(': ') + 2))),
          raised.error,
        );
    }
    // The two other views of the same wrong head size would raise too, had the first not.
    assert.deepStrictEqual(reported, [
      '26 feature-mismatch',
      '40 view-mismatch',
      '41 view-mismatch',
      '42 view-mismatch',
      '62 view-mismatch',
      '81 constructor-raises',
      '95 constructor-raises',
      '112 sequential-mismatch',
      '135 feature-mismatch',
      '136 feature-mismatch',
      '150 feature-mismatch',
    ]);
  });

  test('Llama-2-7B in the Llama style of the fixture has its published count, 6,738,415,616', async () => {
    // Too large to build here (27 GB in float32): the published count is the truth.
    const text = readFileSync(path.join(ROOT, FIXTURE), 'utf8');
    const analysis = await analyzeText(
      `${text}\nllama2_7b = Llama(ModelArgs(dim=4096, n_layers=32, n_heads=32, n_kv_heads=None, vocab_size=32000))\n`,
    );
    const built = analysis.instances.find((i) => i.span.startLine + 1 === text.split('\n').length + 1);
    assert.strictEqual(built?.summary.params?.constant, 6_738_415_616n);
  });

  test('the Explain panel walks grouped-query attention with its smaller K and V and its KV cache', async () => {
    const analysis = await analyzeText(readFileSync(path.join(ROOT, FIXTURE), 'utf8'));
    const llama = attentionLayers(analysis).find((l) => l.layer.kind === 'Attention')!;
    const data = explain(llama.layer, 'line 106', {
      batch: 1,
      queryLength: 10,
      keyLength: 10,
      dtype: 'float32',
      selfAttention: true,
    })!;
    assert.strictEqual(data.title, 'Attention at line 106');
    const step = (name: string) => data.steps.find((s) => s.name.startsWith(name))!;
    // 10 tokens of 512 features into 8 × 64 queries and 2 × 64 keys and values.
    assert.strictEqual(step('Q =').shape, '(N, L, 512)');
    assert.strictEqual(step('K =').shape, '(N, S, 128)');
    assert.strictEqual(step('K =').flops.exact, (2 * 10 * 512 * 128).toLocaleString('en-US'));
    assert.strictEqual(
      data.parameters.map((p) => `${p.name} ${p.role} ${p.count}`).join('; '),
      'wq.weight W_Q 262,144; wk.weight W_K 65,536; wv.weight W_V 65,536; wo.weight W_O 262,144',
    );
    // 10 positions × 2 kv heads × (64 + 64) numbers, 4 bytes each.
    assert.ok(
      data.notes.some((n) => n.includes('= 2,560 numbers (10.0 KiB)') && n.includes('2 / 8')),
      data.notes.join('\n'),
    );
  });

  test('a comment silences the findings of its line: all of them, or the codes it lists', async () => {
    const text = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/attention_mistakes.py'), 'utf8').split(
      '\n',
    );
    // Line 26 (feature-mismatch) silenced by code, line 40 by a directive for every code, line 41 by another code only.
    text[25] += '  # attention-lens: ignore[feature-mismatch]';
    text[39] += '  # attention-lens: ignore';
    text[40] += '  # attention-lens: ignore[heads-divisibility]';
    // A directive inside a string is no comment: line 42 keeps its finding.
    text[41] += '; note = "# attention-lens: ignore"';
    const analysis = await analyzeText(text.join('\n'));
    assert.deepStrictEqual(
      analysis.findings.map((f) => `${f.span.startLine + 1} ${f.code}`),
      [
        '41 view-mismatch',
        '42 view-mismatch',
        '62 view-mismatch',
        '81 constructor-raises',
        '95 constructor-raises',
        '112 sequential-mismatch',
        '135 feature-mismatch',
        '136 feature-mismatch',
        '150 feature-mismatch',
      ],
    );
  });

  test('Whisper style: a Linear subclass with its own forward() is still the projection; tiny as PyTorch counts it, and no KV cache total across cross attention', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/whisper_style.py');
    const analysis = await analyzeText(readFileSync(file, 'utf8'));
    const mha = analysis.modules.find((m) => m.name === 'MultiHeadAttention')!;
    assert.strictEqual(mha.attention?.summary, '6 heads × 64');
    assert.deepStrictEqual(
      mha.attention?.tensors.filter((t) => t.role).map((t) => `${t.name} ${t.role}`),
      [
        'query.weight W_Q',
        'query.bias b_Q',
        'key.weight W_K',
        'value.weight W_V',
        'value.bias b_V',
        'out.weight W_O',
        'out.bias b_O',
      ],
    );
    const tiny = analysis.instances[0];
    // 37,184,640: PyTorch's count of this fixture (pytorch-layers.json), and Whisper tiny's published one.
    assert.strictEqual(tiny.summary.params?.constant, 37_184_640n);
    assert.strictEqual(tiny.sizing?.attentionLayers.constant, 12n);
    assert.strictEqual(tiny.sizing?.kvPerToken, undefined);
  });

  test("the realistic models PyTorch runs (GPT, the examples' GPT, a Perceiver) get no error", async () => {
    for (const [file, runs] of Object.entries(truth.realistic)) {
      assert.deepStrictEqual(Object.values(runs), [null], `${file}: PyTorch runs it`);
      const analysis = await analyzeText(readFileSync(path.join(ROOT, file), 'utf8'), 'python', path.join(ROOT, file));
      assert.deepStrictEqual(
        analysis.findings.map((f) => `${f.span.startLine + 1} ${f.code}`),
        [],
        file,
      );
      assert.ok(analysis.instances.length > 0, `${file} builds its model`);
    }
  });

  test('js-pytorch: attention written by hand is recognised as in PyTorch, its tensors W and b by role', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/jspytorch/attention.ts');
    const analysis = await analyzeText(readFileSync(file, 'utf8'), 'typescript', file);
    const cls = analysis.modules.find((m) => m.name === 'HandAttention')!;
    // 16,640 is js-pytorch's own parameters() count (js-modules.json); the heads are the code's.
    assert.strictEqual(cls.summary.params?.constant, 16_640n);
    assert.strictEqual(cls.attention?.summary, '4 heads × 16');
    assert.strictEqual(cls.attention?.framework, 'js-pytorch');
    assert.deepStrictEqual(
      cls.attention?.tensors.map((t) => t.role),
      ['W_Q', 'b_Q', 'W_K', 'b_K', 'W_V', 'b_V', 'W_O', 'b_O'],
    );
    assert.strictEqual(analysis.instances[0].sizing?.kvPerToken?.constant, 4n * 16n * 2n);
    assert.deepStrictEqual(analysis.findings, []);
  });

  test('TF.js: attention written by hand in tf.layers.Layer subclasses, with the heads of its real scores and the weights TF.js creates', async () => {
    const truth = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/js-attention.json'), 'utf8')) as {
      files: Record<
        string,
        Record<
          string,
          {
            heads: number;
            projections: Record<string, number>;
            weights: Record<string, number>;
            inputs: Record<string, number>;
            countParams: number;
          }
        >
      >;
    };
    const [[file, classes]] = Object.entries(truth.files);
    const analysis = await analyzeText(
      readFileSync(path.join(ROOT, file), 'utf8'),
      'typescript',
      path.join(ROOT, file),
    );
    const summaries = Object.fromEntries(
      analysis.modules.filter((m) => m.attention).map((m) => [m.name, m.attention!.summary]),
    );
    assert.deepStrictEqual(summaries, {
      SelfAttention: '4 heads × 16',
      CrossAttention: '8 heads × 16 · GQA 8 q / 2 kv heads · cross',
    });
    for (const [name, real] of Object.entries(classes)) {
      const module = analysis.modules.find((m) => m.name === name)!;
      const found = module.attention!;
      assert.strictEqual(found.framework, 'tfjs');
      assert.strictEqual(found.attention!.heads.constant, BigInt(real.heads), `${name} heads`);
      const headDim = Number(found.attention!.headDim!.constant);
      const kvHeads = Number((found.attention!.kvHeads ?? found.attention!.heads).constant);
      const widths = widthsByRole(found, real.projections);
      assert.strictEqual(widths.get('W_Q'), real.heads * headDim, `${name}: W_Q`);
      assert.strictEqual(widths.get('W_K'), kvHeads * headDim, `${name}: W_K`);
      assert.strictEqual(widths.get('W_V'), kvHeads * headDim, `${name}: W_V`);
      assert.ok(widths.has('W_O'), `${name} has its output projection`);
      // The features each projection reads, as TF.js built its kernel on the first apply().
      const field = (role: string) => found.tensors.find((t) => t.role?.startsWith(role))!.name.split('.')[0];
      assert.strictEqual(found.attention!.embed.constant, BigInt(real.inputs[field('W_Q')]), `${name} query features`);
      assert.strictEqual(found.attention!.kdim.constant, BigInt(real.inputs[field('W_K')]), `${name} key features`);
      // The weights its dense layers create on their first apply(); the subclass's own countParams() leaves them out.
      assert.strictEqual(
        found.params?.constant,
        BigInt(Object.values(real.weights).reduce((a, b) => a + b, 0)),
        `${name} weights`,
      );
      assert.strictEqual(module.built?.summary.params?.constant, BigInt(real.countParams), `${name} countParams()`);
      assert.strictEqual(
        module.built?.summary.untracked?.params?.constant,
        BigInt(Object.values(real.weights).reduce((a, b) => a + b, 0)),
        `${name} untracked weights`,
      );
      assert.ok(
        found.notes.some((n) => n.includes('countParams() leaves them out')),
        found.notes.join('\n'),
      );
    }
    // Each dense layer kept in a field is one TF.js does not track.
    const fields = Object.values(classes).reduce((n, c) => n + Object.keys(c.weights).length, 0);
    assert.deepStrictEqual(
      analysis.findings.map((f) => [f.code, f.severity]),
      Array.from({ length: fields }, () => ['untracked-sublayers', 'warning']),
    );
  });

  test('Hugging Face GPT-2 style: Conv1D projections and heads split from x.size()[:-1], as GPT2Model(GPT2Config())', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/hf_modeling_gpt2.py');
    const analysis = await analyzeText(readFileSync(file, 'utf8'), 'python', file);
    const model = analysis.modules.find((m) => m.name === 'GPT2Model')!;
    // 124,439,808: PyTorch's count of the fixture (pytorch-layers.json, configured) and GPT-2 small's published one.
    assert.strictEqual(model.built?.summary.params?.constant, 124_439_808n);
    const attention = analysis.modules.find((m) => m.name === 'GPT2Attention')!.attention!;
    assert.strictEqual(attention.summary, '12 heads × 64');
    assert.deepStrictEqual(
      attention.tensors.filter((t) => t.role).map((t) => `${t.name} ${t.role}`),
      [
        'c_attn.weight W_Q, W_K, W_V stacked',
        'c_attn.bias b_Q, b_K, b_V stacked',
        'c_proj.weight W_O',
        'c_proj.bias b_O',
      ],
    );
  });

  test('lucidrains style: pair()/default() helpers and Rearrange in an nn.Sequential, as PyTorch counts the ViT', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/vit_lucid.py');
    const analysis = await analyzeText(readFileSync(file, 'utf8'));
    // 54,630,376: PyTorch's count of the fixture's model (pytorch-layers.json).
    assert.strictEqual(analysis.instances[0].summary.params?.constant, 54_630_376n);
    assert.strictEqual(analysis.modules.find((m) => m.name === 'Attention')?.attention?.summary, '16 heads × 64');
  });

  test('Falcon style: a fused projection viewed as (heads + 2) and sliced into queries, one key and one value head is no (heads + 2) heads', async () => {
    const falcon = (kv: string) => `import torch
import torch.nn as nn
import torch.nn.functional as F

class FalconAttention(nn.Module):
    def __init__(self, hidden=4544, heads=71):
        super().__init__()
        self.heads = heads
        self.head_dim = hidden // heads
        self.query_key_value = nn.Linear(hidden, hidden + 2 * self.head_dim, bias=False)
        self.dense = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        fused = self.query_key_value(x).view(b, t, self.heads + 2, self.head_dim)
        q, k, v = fused[..., :-2, :], fused[..., [-2], :], fused[..., [-1], :]
        q = q.transpose(1, 2).reshape(b, self.heads, t, self.head_dim)
        k = k.transpose(1, 2).reshape(b, ${kv}, t, self.head_dim)
        v = v.transpose(1, 2).reshape(b, ${kv}, t, self.head_dim)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.dense(out.transpose(1, 2).reshape(b, t, -1))
`;
    for (const kv of ['1', 'self.heads + 2 - 2 - 70']) {
      const analysis = await analyzeText(falcon(kv));
      const attention = analysis.modules.find((m) => m.name === 'FalconAttention')!;
      // PyTorch: 4,544 × 4,672 + 4,544 × 4,544 = 41,877,504; its scores have 71 query heads and one key head.
      assert.strictEqual(attention.summary.params?.constant, 41_877_504n);
      assert.strictEqual(attention.attention?.summary, 'heads not known', kv);
    }
  });

  test("attention through xformers' and flash-attn's kernels: the heads of the views their inputs take", async () => {
    const analysis = await analyzeText(`import torch
from torch import nn
import xformers.ops as xops
from flash_attn import flash_attn_func


class XAttention(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).unbind(2)
        out = xops.memory_efficient_attention(q, k, v)
        return self.proj(out.reshape(B, N, C))


class FlashAttention(nn.Module):
    def __init__(self, dim=256, heads=4):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        B, S, C = x.shape
        q = self.q(x).view(B, S, self.heads, C // self.heads)
        k = self.k(x).view(B, S, self.heads, C // self.heads)
        v = self.v(x).view(B, S, self.heads, C // self.heads)
        return self.o(flash_attn_func(q, k, v, causal=True).reshape(B, S, C))


xa = XAttention()
fa = FlashAttention()
`);
    // XAttention's reshape(B, N, 3, 8, 64).unbind(2), FlashAttention's view(B, S, 4, 64).
    assert.deepStrictEqual(
      analysis.modules.map((m) => [m.name, m.attention?.summary]),
      [
        ['XAttention', '8 heads × 64'],
        ['FlashAttention', '4 heads × 64'],
      ],
    );
  });
});
