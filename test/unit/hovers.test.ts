/** Short hovers (facts, one line each) and the full ones behind "More"; the hover on a sub-module's call. */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { hoverMarkdown } from '../../src/core/present/format';
import { factNotes, hasMore } from '../../src/core/present/hoverFacts';
import { shortHoverMarkdown } from '../../src/core/present/shortHover';
import { Poly } from '../../src/core/values/symbolic';
import { partHoverMarkdown } from '../../src/core/present/partHover';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { analyzeText, loadGrammars, ROOT } from './helpers';

/** Markdown as it reads rendered: backslash escapes of text from the file gone. */
const read = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

async function firstLayer(source: string, language: 'python' | 'typescript' = 'python') {
  const analysis = await analyzeText(source, language);
  assert.ok(analysis.layers[0], 'a layer');
  return analysis.layers[0].layer;
}

suite('short hovers', () => {
  test('attention: count, formula, tensors and d_k; what the numbers mean waits behind More', async () => {
    const layer = await firstLayer('import torch.nn as nn\nattn = nn.MultiheadAttention(512, 8)\n');
    const short = read(shortHoverMarkdown(layer, 'nn.MultiheadAttention'));
    const full = hoverMarkdown(layer, 'nn.MultiheadAttention');
    assert.strictEqual(
      short,
      [
        '**nn.MultiheadAttention**: 1,050,624 parameters · `4·E² + 4·E`',
        '',
        '| tensor | shape | count |',
        '|---|---|---:|',
        '| `in_proj_weight` | [1536, 512] | 786,432 |',
        '| `in_proj_bias` | [1536] | 1,536 |',
        '| `out_proj.weight` | [512, 512] | 262,144 |',
        '| `out_proj.bias` | [512] | 512 |',
        '',
        '- d_k = 512 / 8 = 64 features per head',
        '- Weights: 4.0 MiB in fp32, 2.0 MiB in bf16',
      ].join('\n'),
    );
    assert.ok(full.includes('holds no parameters'), 'the teaching note is in the full hover');
    assert.ok(hasMore(layer));
  });

  test('a layer without facts of its own shows no notes; Keras-style attention names its keyDim', async () => {
    const linear = await firstLayer('import torch.nn as nn\nlin = nn.Linear(512, 512)\n');
    assert.deepStrictEqual(factNotes(linear), []);
    assert.ok(!shortHoverMarkdown(linear, 'nn.Linear').includes('y = x·Wᵀ'));
    // A site built by several models names three of them, then counts the rest.
    const values = [1, 2, 3, 4, 5].map((i) => ({ params: Poly.int(i), context: `M${i} (line ${i})`, contexts: 1 }));
    const many = read(
      shortHoverMarkdown(
        { ...linear, params: undefined, unknownReason: 'Built with 5 different sizes here.' },
        'nn.Linear',
        values,
      ),
    );
    assert.ok(many.includes('- in M3 (line 3): 3\n- and 2 more sizes'), many);
    assert.ok(many.startsWith('**nn.Linear**: Built with 5 different sizes here.\n\nFormula: `in·out + out`'), many);
    assert.ok(hasMore(linear), 'its formula note is behind More');
    const keras = await firstLayer(
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
    assert.deepStrictEqual(factNotes(keras), ['8 heads, each with its own keyDim 64, valueDim 32']);
  });
});

suite('hover on a call building a sub-module', () => {
  test('nanoGPT: `self.attn = CausalSelfAttention(config)` has the total GPT builds it with, and where its class is', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py');
    const analysis = await analyzeText(readFileSync(file, 'utf8'), 'python', file);
    const part = analysis.parts.find((p) => p.className === 'CausalSelfAttention');
    assert.ok(part, 'the call building CausalSelfAttention');
    assert.strictEqual(part.span.startLine + 1, 97);
    const cls = analysis.modules.find((m) => m.name === 'CausalSelfAttention')!;
    const md = read(partHoverMarkdown(part, cls.span.startLine + 1));
    assert.ok(
      md.startsWith('**CausalSelfAttention**: 2,362,368 parameters (2.4 M), as built in GPT (line 202) via Block ×12'),
      md,
    );
    assert.ok(md.includes('Class defined on line 30.'), md);
    assert.deepStrictEqual(
      analysis.parts.map((p) => `${p.span.startLine + 1} ${p.className}`),
      ['97 CausalSelfAttention', '99 MLP', '119 Block'],
    );
  });

  test('built with two totals, each is listed; built only with names, its total over them', async () => {
    const analysis = await analyzeText(
      [
        'import torch.nn as nn',
        'class Head(nn.Module):',
        '    def __init__(self, d):',
        '        super().__init__()',
        '        self.proj = nn.Linear(d, d)',
        'class Two(nn.Module):',
        '    def __init__(self):',
        '        super().__init__()',
        '        self.heads = nn.ModuleList([Head(d) for d in (8, 16)])',
        'class Alone(nn.Module):',
        '    def __init__(self, d):',
        '        super().__init__()',
        '        self.head = Head(d)',
        '',
      ].join('\n'),
    );
    const [two, alone] = analysis.parts;
    assert.deepStrictEqual(
      two.values.map((v) => v.params.toString()),
      ['72', '272'],
    );
    assert.ok(
      read(partHoverMarkdown(two)).startsWith(
        '**Head**: built with 2 different totals\n\n- in Two(): 72\n- in Two(): 272',
      ),
      partHoverMarkdown(two),
    );
    assert.ok(
      read(partHoverMarkdown(alone, 2)).startsWith('**Head**: `d² + d` parameters, over the names it is built with'),
      partHoverMarkdown(alone, 2),
    );
  });
});

suite('sub-module calls after an edit', () => {
  test('a class build replayed from the cache moves its parts with the edit', async () => {
    const text = [
      'import torch.nn as nn',
      '',
      'class Other(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.proj = nn.Linear(2, 2)',
      '',
      'class Head(nn.Module):',
      '    def __init__(self, d=8):',
      '        super().__init__()',
      '        self.proj = nn.Linear(d, d)',
      '',
      'class Two(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.a = Head(4)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    try {
      analyzer.update(text);
      // Lines typed in another class above: Two's build is replayed, not run again.
      const at = text.indexOf('        self.proj = nn.Linear(2, 2)');
      const typed = '        x = 3\n        y = 4\n';
      const next = `${text.slice(0, at)}${typed}${text.slice(at)}`;
      const parts = analyzer.update(next, [{ rangeOffset: at, rangeLength: 0, text: typed }])!.parts;
      const fresh = (await analyzeText(next)).parts;
      assert.deepStrictEqual(
        parts.map((p) => [p.className, p.span.start, p.span.startLine, p.summary.params?.toString()]),
        [['Head', next.indexOf('Head(4)'), 17, '20']],
      );
      assert.deepStrictEqual(parts, fresh);
    } finally {
      analyzer.dispose();
    }
  });
});

suite('sub-module calls without one total', () => {
  test('a model building the part with a size not followed: no total, and which model says why', async () => {
    const analysis = await analyzeText(
      [
        'import torch.nn as nn',
        'class Head(nn.Module):',
        '    def __init__(self, d):',
        '        super().__init__()',
        '        self.proj = nn.Linear(d, d)',
        'class Pair(nn.Module):',
        '    def __init__(self, d):',
        '        super().__init__()',
        '        self.head = Head(d)',
        'small = Pair(8)',
        'other = Pair(int(input()))',
        '',
      ].join('\n'),
    );
    const [part] = analysis.parts;
    assert.deepStrictEqual(
      part.values.map((v) => [v.params.toString(), v.context]),
      [['72', 'Pair (line 10)']],
    );
    assert.strictEqual(part.summary.params, undefined);
    assert.ok(
      partHoverMarkdown(part).startsWith('**Head**: Pair \\(line 11\\) builds it with a total not known here'),
      partHoverMarkdown(part),
    );
  });
});
