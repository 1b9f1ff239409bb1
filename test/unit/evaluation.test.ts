/** Values from constants, defaults, configs and arithmetic; formulas where a size is unknown. */
import * as assert from 'assert';
import { hoverMarkdown, lensTitle } from '../../src/core/present/format';
import { analyzeText, paramsOf, ROOT } from './helpers';

async function only(source: string) {
  const analysis = await analyzeText(source);
  assert.strictEqual(analysis.layers.length, 1, 'one layer');
  return { layer: analysis.layers[0], findings: analysis.findings };
}

suite('evaluation', () => {
  test('nn.MultiheadAttention(512, 8): count, formula and lens', async () => {
    const { layer } = await only('import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8)\n');
    assert.strictEqual(paramsOf(layer), 1050624);
    assert.strictEqual(layer.layer.formula, '4·E² + 4·E');
    assert.strictEqual(lensTitle(layer), '1,050,624 params · 8 heads × 64');
  });

  test('Linear lens and formula', async () => {
    const { layer } = await only('from torch import nn\nfc = nn.Linear(512, 512)\n');
    assert.strictEqual(lensTitle(layer), '262,656 params · 512 → 512');
    assert.strictEqual(layer.layer.formula, 'in·out + out');
  });

  test('an unknown size gives a formula over the missing name, never a number', async () => {
    const { layer } = await only(
      'import torch.nn as nn\ndef block(d_model):\n    return nn.MultiheadAttention(d_model, 8)\n',
    );
    assert.strictEqual(paramsOf(layer), null);
    assert.strictEqual(layer.layer.formula, '4·d_model² + 4·d_model');
  });

  test('exact at sizes beyond 2^53', async () => {
    const { layer } = await only('import torch.nn as nn\nhuge = nn.Linear(10**9, 10**9)\n');
    assert.strictEqual(layer.layer.params?.constant, 10n ** 18n + 10n ** 9n);
  });

  test('built-ins as Python computes them, or no number where a keyword is not followed', async () => {
    const analysis = await analyzeText(
      'import math\nimport torch\nimport torch.nn as nn\n' +
        'a = nn.Linear(round(2.5), 1)\n' +
        'b = nn.Linear(round(-2.5) + 5, 1)\n' +
        'c = nn.Linear(int(math.log(256, 2)), 1)\n' +
        'd = nn.Linear(sum([1, 2], start=4), 1)\n' +
        'e = nn.Linear([i for i, _ in enumerate("ab", start=5)][0], 1)\n' +
        'f = nn.Linear(int(abs(-2.5) * 2), 1)\n' +
        'g = nn.Linear(max([3, 5], key=lambda v: -v), 1)\n' +
        'h = nn.Linear(int("11", 2), 1)\n' +
        'i = nn.Linear(len(dict(zip(["a", "b"], [1, 2]))), 1)\n' +
        'j = nn.Linear(len({1, 2, 2, 3}) + (2 in {2, 3}), 1)\n' +
        'k = nn.Linear(len(torch.linspace(0, 0.1, 12).split([4, 8])[1].tolist()), 1)\n',
    );
    // PyTorch 1.13 on Python 3.11: 3, 4, 9, 8, 6, 6, then 4 and 4 (max by a key, int in base 2), not followed
    // here, then 3, 5 and 9.
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [3, 4, 9, 8, 6, 6, null, null, 3, 5, 9]);
  });

  test('config dataclass fields, dict entries and keyword spreading', async () => {
    const analysis = await analyzeText(
      [
        'from dataclasses import dataclass',
        'import torch.nn as nn',
        '@dataclass',
        'class Config:',
        '    n_embd: int = 768',
        '    n_head: int = 12',
        'cfg = {"d_model": 256}',
        'kw = dict(embed_dim=cfg["d_model"] * 2, num_heads=4)',
        'class Attn(nn.Module):',
        '    def __init__(self, config: Config):',
        '        super().__init__()',
        '        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)',
        '        self.mha = nn.MultiheadAttention(**kw, bias=False)',
        '        self.head = nn.Linear(max(config.n_embd // 2, 64), cfg.get("classes", 10) or 3)',
        'attn = Attn(Config())',
        '',
      ].join('\n'),
    );
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [1771776, 4 * 512 * 512, 384 * 10 + 10]);
  });

  test('heads that do not divide: error with the framework words and two fixes', async () => {
    const { findings } = await only('import torch.nn as nn\nbad = nn.MultiheadAttention(768, 10)\n');
    assert.strictEqual(findings.length, 1);
    assert.strictEqual(findings[0].code, 'heads-divisibility');
    assert.match(findings[0].message, /embed_dim must be divisible by num_heads/);
    assert.deepStrictEqual(
      findings[0].fixes.map((f) => f.title),
      ['Use 8 heads (768 / 8 = 96)', 'Use 12 heads (768 / 12 = 64)'],
    );
    assert.deepStrictEqual(
      findings[0].fixes[0].edits.map((e) => [e.span.startChar, e.text]),
      [[33, '8']],
    );
  });

  test('a layer the framework rejects gets no count in its lens', async () => {
    const { layer } = await only('import torch.nn as nn\nbad = nn.Linear(-1, 768)\n');
    assert.strictEqual(lensTitle(layer), '✖ PyTorch would not build this Linear · negative-size');
  });

  test('the hover table prints shapes as the framework does', async () => {
    const { layer } = await only('import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8)\n');
    const md = hoverMarkdown(layer.layer, 'nn.MultiheadAttention');
    assert.ok(md.includes('| `in_proj_weight` | \\[1536, 512\\] | 786,432 |'), md);
    assert.ok(md.includes('d_k = 512 / 8 = 64'), md);
  });

  test('no quick fix rewrites a shared constant', async () => {
    const analysis = await analyzeText('import torch.nn as nn\nH = 10\nbad = nn.MultiheadAttention(768, H)\n');
    assert.strictEqual(analysis.findings[0].fixes.length, 0);
  });

  test('half-typed code gives no exception and no guess', async () => {
    for (const text of [
      'import torch.nn as nn\nx = nn.MultiheadAttention(',
      'import torch.nn as nn\nx = nn.Linear(512, \n',
      'x = (((',
    ]) {
      const analysis = await analyzeText(text);
      assert.ok(analysis.layers.every((l) => l.layer.params === undefined || l.layer.params.isConstant));
    }
  });

  test('TF.js dense takes its input size from the layer before it', async () => {
    const analysis = await analyzeText(
      [
        "import * as tf from '@tensorflow/tfjs';",
        'const model = tf.sequential();',
        'model.add(tf.layers.dense({ units: 32, inputShape: [784] }));',
        'model.add(tf.layers.dense({ units: 10 }));',
        '',
      ].join('\n'),
      'typescript',
    );
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [784 * 32 + 32, 32 * 10 + 10]);
    assert.strictEqual(lensTitle(analysis.layers[1]), '330 params · 32 → 10');
  });
});

suite('imports of other workspace files', () => {
  test('a relative import reaches the same class as an absolute one', async () => {
    const { mkdtempSync, writeFileSync, copyFileSync, mkdirSync, rmSync } = await import('fs');
    const { tmpdir } = await import('os');
    const path = await import('path');
    const dir = mkdtempSync(path.join(tmpdir(), 'attention-lens-'));
    try {
      mkdirSync(path.join(dir, 'models'));
      copyFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), path.join(dir, 'models', 'gpt.py'));
      writeFileSync(path.join(dir, 'models', '__init__.py'), '');
      const source =
        'import torch.nn as nn\nfrom .gpt import MLP, GPTConfig\n\nclass Head(nn.Module):\n    def __init__(self, c: GPTConfig = GPTConfig(n_embd=512)):\n        super().__init__()\n        self.mlp = MLP(c)\n';
      const file = path.join(dir, 'models', 'head.py');
      writeFileSync(file, source);
      const analysis = await analyzeText(source, 'python', file);
      // MLP(n_embd=512, bias=True): c_fc 512 -> 2048 and c_proj 2048 -> 512, with biases.
      assert.strictEqual(analysis.modules[0].summary.params?.constant, BigInt(512 * 2048 + 2048 + 2048 * 512 + 512));
      const alone = await analyzeText(source);
      assert.strictEqual(
        alone.modules[0].summary.params,
        undefined,
        'without the workspace the import cannot be followed',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
