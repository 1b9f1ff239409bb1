/**
 * Sizes no framework builds: negative (PyTorch and TensorFlow.js), divided by zero in a constructor, past
 * 2^53, past 1e308 and infinite. Where the framework raises no count may be printed; where the size is a
 * real integer the count and the heads are exact.
 */
import { Lines, type ExpectedCount, type FuzzInput } from './input';
import type { Choices } from './random';

const linear = (i: bigint, o: bigint) => i * o + o;

/** A PyTorch layer with one dimension negative: PyTorch raises creating its weight. */
function negativeLayer(c: Choices, n: string): string {
  return c.pick([
    `nn.Linear(${n}, 8)`,
    `nn.Linear(8, ${n})`,
    `nn.Conv2d(3, 8, kernel_size=${n})`,
    `nn.Conv1d(${n}, 4, 3)`,
    `nn.Embedding(${n}, 16)`,
    `nn.Embedding(100, ${n})`,
    `nn.MultiheadAttention(${n}, 2)`,
    `nn.LayerNorm(${n})`,
    `nn.BatchNorm2d(${n})`,
    `nn.GRU(${n}, 4)`,
    `nn.LSTM(4, ${n})`,
    `nn.TransformerEncoderLayer(d_model=${n}, nhead=2)`,
  ]);
}

function negativeInput(c: Choices, index: number): FuzzInput {
  const k = c.int(1, 1000);
  const lines = new Lines();
  lines.add('import torch', 'import torch.nn as nn');
  const head = lines.add('head = nn.Linear(3, 5)');
  // Written as a literal, computed from a default, or passed in by the model built.
  const [n, d] = c.pick([
    [`-${k}`, 4],
    ['d - 1000', c.int(1, 999)],
    ['d', -k],
  ]);
  const layer = negativeLayer(c, n);
  const cls = lines.add(
    'class M(nn.Module):',
    `    def __init__(self, d=${d}):`,
    '        super().__init__()',
    '        self.ok = nn.Linear(2, 2)',
  );
  const bad = lines.add(`        self.bad = ${layer}`);
  const model = lines.add('m = M()');
  const none = (line: number): ExpectedCount => ({ line, params: undefined, required: false });
  return {
    name: `negative size: ${layer} with d=${d} #${index}`,
    language: 'python',
    text: lines.text,
    expect: { counts: [{ line: head, params: 20n, required: true }, none(cls), none(bad), none(model)] },
  };
}

/** TensorFlow.js: negative units, filters or input sizes (the issue saw a model total of -756 beside a 36-parameter layer). */
function negativeTfjsInput(c: Choices, index: number): FuzzInput {
  const k = c.int(1, 1000);
  const layer = c.pick([
    `tf.layers.dense({ units: -${k}, inputShape: [4] })`,
    `tf.layers.dense({ units: 4, inputShape: [-${k}] })`,
    `tf.layers.dense({ units: 4, inputDim: -${k} })`,
    `tf.layers.conv2d({ filters: -${k}, kernelSize: 3, inputShape: [8, 8, 3] })`,
    `tf.layers.conv2d({ filters: 2, kernelSize: 3, inputShape: [8, 8, -${k}] })`,
    `tf.layers.embedding({ inputDim: -${k}, outputDim: 4 })`,
    `tf.layers.simpleRNN({ units: -${k}, inputShape: [5, 3] })`,
  ]);
  const lines = new Lines();
  lines.add("import * as tf from '@tensorflow/tfjs';");
  const model = lines.add('const model = tf.sequential();');
  const bad = lines.add(`model.add(${layer});`);
  lines.add('model.add(tf.layers.dense({ units: 4 }));');
  const ok = lines.add('const ok = tf.layers.dense({ units: 4, inputDim: 8 });');
  // TensorFlow.js throws at the bad layer: neither it nor the model has a count.
  const none = (line: number): ExpectedCount => ({ line, params: undefined, required: false });
  return {
    name: `negative TF.js size: ${layer} #${index}`,
    language: 'typescript',
    text: lines.text,
    expect: { counts: [{ line: ok, params: 36n, required: true }, none(bad), none(model)] },
  };
}

/** `// 0` and `% 0` in a constructor: Python raises ZeroDivisionError, so the model has no count. */
function divisionInput(c: Choices, index: number): FuzzInput {
  // Each a divisor of 0 whatever precedes it: `d // h - 4` would be `(d // h) - 4`, which Python computes.
  const zero = c.pick(['0', '(h - 4)', '(d - 16)', '(h * 0)', 'int(0.0)']);
  const op = c.pick(['//', '%']);
  const lines = new Lines();
  lines.add('import torch.nn as nn');
  const head = lines.add('head = nn.Linear(3, 5)');
  const cls = lines.add('class M(nn.Module):', '    def __init__(self, d=16, h=4):', '        super().__init__()');
  lines.add(`        k = ${c.pick(['d', 'h', 'd * h'])} ${op} ${zero}`);
  const layer = lines.add(
    `        self.l = ${c.pick(['nn.Linear(d, k)', 'nn.MultiheadAttention(d, k)', 'nn.Embedding(k, d)', 'nn.MultiheadAttention(d, h, kdim=k)'])}`,
  );
  const model = lines.add('m = M()');
  const none = (line: number): ExpectedCount => ({ line, params: undefined, required: false });
  return {
    name: `division by zero: ${op} ${zero} #${index}`,
    language: 'python',
    text: lines.text,
    expect: { counts: [{ line: head, params: 20n, required: true }, none(cls), none(layer), none(model)] },
  };
}

/** A size, and its value where it is an integer Python computes in no time. */
function hugeSize(c: Choices): [string, bigint | undefined] {
  const k = c.int(54, 4096);
  const odd = c.int(1, 9);
  return c.pick<[string, bigint | undefined]>([
    [`2**${k}`, 2n ** BigInt(k)],
    [`2**53 + ${odd}`, 2n ** 53n + BigInt(odd)],
    ['9007199254740993', 9007199254740993n],
    ['int(1e308)', BigInt(1e308)],
    ['10**308', 10n ** 308n],
    ['1e308', undefined],
    ['1e309', undefined],
    ['float("inf")', undefined],
    ['int(1e309)', undefined],
    ['-1e308', undefined],
    ['10**10**10', undefined],
  ]);
}

/**
 * A model with hand-written attention, catalog attention, an embedding and a head at huge sizes: the
 * sizing (bytes, FLOPs, shares) is where "NaN %" and "Infinity B" were printed.
 */
function hugeInput(c: Choices, index: number): FuzzInput {
  const heads = BigInt(c.pick([1, 2, 3, 8, 12, 64]));
  const headDim = c.chance(0.3) ? 64n : 2n ** BigInt(c.int(30, 1100));
  const embed = heads * headDim;
  const [vocab, vocabValue] = c.chance(0.5) ? hugeSize(c) : ['50257', 50257n];
  const lines = new Lines();
  lines.add('import math', 'import torch.nn as nn', 'from torch.nn import functional as F');
  const attn = lines.add('class Attn(nn.Module):');
  lines.add(
    `    def __init__(self, n_embd=${heads} * 2**${headDim.toString(2).length - 1}, n_head=${heads}):`,
    '        super().__init__()',
    '        self.n_head = n_head',
    '        self.n_embd = n_embd',
    '        self.c_attn = nn.Linear(n_embd, 3 * n_embd)',
    '        self.c_proj = nn.Linear(n_embd, n_embd)',
    '    def forward(self, x):',
    '        B, T, C = x.size()',
    '        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)',
    '        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)',
    '        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)',
    '        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)',
    '        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))',
    '        att = F.softmax(att, dim=-1)',
    '        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)',
    '        return self.c_proj(y)',
  );
  const model = lines.add('class Model(nn.Module):', '    def __init__(self):', '        super().__init__()');
  const emb = lines.add(`        self.emb = nn.Embedding(${vocab}, ${embed})`);
  lines.add('        self.attn = Attn()');
  const mha = lines.add(`        self.mha = nn.MultiheadAttention(${embed}, ${heads})`);
  const out = lines.add(`        self.head = nn.Linear(${embed}, ${vocab})`);
  lines.add(
    '    def forward(self, idx):',
    '        x = self.emb(idx)',
    '        x = self.attn(x)',
    '        return self.head(x)',
  );
  const built = lines.add('model = Model()');
  const attention = 4n * embed * embed + 4n * embed;
  const total = vocabValue === undefined ? undefined : vocabValue * embed + 2n * attention + linear(embed, vocabValue);
  return {
    name: `huge sizes: ${heads} heads × 2^${headDim.toString(2).length - 1}, vocabulary ${vocab} #${index}`,
    language: 'python',
    text: lines.text,
    expect: {
      counts: [
        { line: attn, params: attention, required: false },
        { line: mha, params: attention, required: false },
        { line: emb, params: vocabValue === undefined ? undefined : vocabValue * embed, required: false },
        { line: out, params: vocabValue === undefined ? undefined : linear(embed, vocabValue), required: false },
        { line: model, params: total, required: false },
        { line: built, params: total, required: false },
      ],
      heads: [{ line: attn, heads, headDim }],
    },
  };
}

export function figureInput(c: Choices, index: number): FuzzInput {
  return c.pick([negativeInput, negativeTfjsInput, divisionInput, hugeInput])(c, index);
}
