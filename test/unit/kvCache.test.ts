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

const truth = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-kv.json'), 'utf8')) as {
  files: Record<string, Record<string, Measured>>;
};

suite('KV cache against the keys and values PyTorch computes', () => {
  for (const [file, models] of Object.entries(truth.files)) {
    for (const [name, real] of Object.entries(models)) {
      test(`${path.basename(file)} ${name}: ${real.attentionLayers} attention layer${real.attentionLayers === 1 ? '' : 's'}, ${real.kvNumbersPerToken} numbers a token`, async () => {
        const analysis = await analyzeText(
          readFileSync(path.join(ROOT, file), 'utf8'),
          'python',
          path.join(ROOT, file),
        );
        const sizing = analysis.instances.find((i) => i.className === name)?.sizing;
        assert.ok(sizing, `${name} is built and sized`);
        assert.strictEqual(sizing.attentionLayers.constant, BigInt(real.attentionLayers));
        assert.strictEqual(sizing.kvPerToken?.constant, BigInt(real.kvNumbersPerToken));
      });
    }
  }

  test('a forward() that multiplies by a softmax not recognised as attention leaves the KV cache not known, not 0', async () => {
    // DeepViT's re-attention: PyTorch 1.13 runs 3 softmaxes over (batch, 4 heads, tokens, tokens), one per layer.
    const code = [
      'import torch',
      'from torch import nn, einsum',
      '',
      'class ReAttention(nn.Module):',
      '    def __init__(self, dim=64, heads=4):',
      '        super().__init__()',
      '        self.heads = heads',
      '        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)',
      '        self.reattn_weights = nn.Parameter(torch.randn(heads, heads))',
      '        self.to_out = nn.Linear(dim, dim)',
      '',
      '    def forward(self, x):',
      '        q, k, v = self.to_qkv(x).chunk(3, dim=-1)',
      '        attn = einsum("b i d, b j d -> b i j", q, k).softmax(dim=-1)',
      '        attn = einsum("b i j, h g -> b i j", attn, self.reattn_weights)',
      '        return self.to_out(einsum("b i j, b j d -> b i d", attn, v))',
      '',
      'class Net(nn.Module):',
      '    def __init__(self, depth=3):',
      '        super().__init__()',
      '        self.layers = nn.ModuleList([ReAttention() for _ in range(depth)])',
      '',
      'model = Net()',
    ].join('\n');
    const sizing = (await analyzeText(code)).instances[0].sizing!;
    assert.strictEqual(sizing.attentionLayers.constant, 3n);
    assert.strictEqual(sizing.kvPerToken, undefined);
  });
});
