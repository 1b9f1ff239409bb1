/**
 * The interpreter on the constructs the first evaluator got wrong: each case prints the framework's count
 * or no count, never another one. Counts here are arithmetic on PyTorch's layer formulas, checked against
 * torch 1.13 in test/fixtures/models/pytorch/interpreter.py for the same constructs.
 */
import * as assert from 'assert';
import { lensTitle, siteCount } from '../../src/core/present/format';
import { analyzeText, paramsOf } from './helpers';

const torch = 'import torch\nimport torch.nn as nn\nfrom functools import partial\n';

async function layers(source: string) {
  return (await analyzeText(torch + source)).layers;
}

suite('interpreter', () => {
  test('a model built in a module-level loop with two widths keeps each total: the call shows both, none as its own', async () => {
    // PyTorch 1.13: MLP(3) and MLP(30) hold 32 and 248 parameters.
    const analysis = await analyzeText(
      `${torch}class MLP(nn.Module):\n    def __init__(self, width):\n        super().__init__()\n        self.fc = nn.Linear(width, 8)\nfor w in (3, 30):\n    m = MLP(w)\nsame = [MLP(4) for _ in range(2)]\nfor _ in range(2):\n    again = MLP(4)\n`,
    );
    assert.deepStrictEqual(
      analysis.instances.map((i) => [i.summary.params?.constant, i.totals]),
      [
        [undefined, [32n, 248n]],
        [40n, undefined],
      ],
    );
  });

  test('an item of what a builder not followed returns may be a module: no total, never 0 (timm CspNet stem)', async () => {
    // PyTorch builds the stem's Conv2d: the total is not 0, and not known here, where `**cfg` is not.
    const analysis = await analyzeText(
      `${torch}from somewhere import cfg\ndef stem_of(in_chans=3, out_chs=32):\n    stem = nn.Sequential()\n    stem.add_module("conv", nn.Conv2d(in_chans, out_chs, 3))\n    return stem, out_chs\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.stem = stem_of(3, **cfg)[0]\nnet = Net()\n`,
    );
    assert.strictEqual(analysis.instances[0].summary.params, undefined);
  });

  test('a condition not known here: both branches run, and a size they disagree on is not a number', async () => {
    const analysis = await analyzeText(
      `${torch}class C(nn.Module):\n    def __init__(self, d, wide):\n        super().__init__()\n        h = 4 * d if wide else 2 * d\n        if wide:\n            out = 64\n        else:\n            out = 32\n        self.fc = nn.Linear(128, out)\n        self.h = nn.Linear(128, h)\n`,
    );
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [null, null]);
    assert.strictEqual(analysis.modules[0].summary.params?.constant, undefined);
  });

  test('a layer assigned in only one branch of an unknown condition makes the total unknown, never smaller', async () => {
    const analysis = await analyzeText(
      `${torch}class C(nn.Module):\n    def __init__(self, extra=None):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n        if extra:\n            self.more = nn.Linear(8, 8)\n`,
    );
    // extra=None is known: the branch is not taken.
    assert.strictEqual(analysis.modules[0].summary.params?.constant, 72n);
    const unknown = await analyzeText(
      `${torch}from somewhere import flag\nclass C(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n        if flag():\n            self.more = nn.Linear(8, 8)\n`,
    );
    assert.strictEqual(unknown.modules[0].summary.params, undefined);
  });

  test('a module chosen by a conditional expression on a condition not known here leaves the total unknown, never smaller (HF classifier)', async () => {
    // transformers: `nn.Linear(hidden, config.num_labels) if config.num_labels > 0 else nn.Identity()`; PyTorch counts the Linear when there are labels.
    const analysis = await analyzeText(
      `${torch}from somewhere import labels\nclass C(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n        self.head = nn.Linear(8, labels) if labels > 0 else nn.Identity()\n        self.scale = 0.5 if labels > 1 else 1.0\n`,
    );
    assert.strictEqual(analysis.modules[0].summary.params, undefined);
    // Two plain values are no module: the total stays known.
    const plain = await analyzeText(
      `${torch}from somewhere import labels\nclass C(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n        self.scale = 0.5 if labels > 1 else 1.0\n`,
    );
    assert.strictEqual(plain.modules[0].summary.params?.constant, 72n);
  });

  test("transformers' own PreTrainedModel (config_class = None) read from the workspace: the annotation `config: Cfg` names the configuration", async () => {
    // As transformers 4.5x's __init_subclass__ takes it; the model is then built with Cfg's defaults: 8·8 + 8.
    const analysis = await analyzeText(
      `${torch}class PreTrainedModel(nn.Module):\n    config_class = None\n    def __init__(self, config):\n        super().__init__()\n        self.config = config\nclass Cfg:\n    def __init__(self, d=8):\n        self.d = d\nclass Pre(PreTrainedModel):\n    config: Cfg\nclass M(Pre):\n    def __init__(self, config):\n        super().__init__(config)\n        self.fc = nn.Linear(config.d, config.d)\n        self.seen = set()\n`,
    );
    const m = analysis.modules.find((x) => x.name === 'M')!;
    assert.deepStrictEqual([m.built?.context, m.built?.summary.params?.constant], ['M(Cfg())', 72n]);
  });

  test("a block a stage builds with several widths shows the formula of its own code, not one block's (CLIP ModifiedResNet)", async () => {
    const [conv] = await layers(
      'class Bottleneck(nn.Module):\n    def __init__(self, inplanes, planes):\n        super().__init__()\n        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)\nclass Net(nn.Module):\n    def __init__(self, layers, width=64):\n        super().__init__()\n        self._inplanes = width\n        blocks = [Bottleneck(self._inplanes, width)]\n        self._inplanes = width * 4\n        for _ in range(1, layers[0]):\n            blocks.append(Bottleneck(self._inplanes, width))\n        self.layer1 = nn.Sequential(*blocks)\n',
    );
    assert.strictEqual(paramsOf(conv), null);
    assert.strictEqual(conv.layer.formula, 'inplanes·planes');
  });

  test("Conv1D imported relatively inside the transformers package is the library's layer", async () => {
    const [conv] = await layers(
      'from ...pytorch_utils import Conv1D\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c_attn = Conv1D(3 * 8, 8)\n',
    );
    assert.strictEqual(paramsOf(conv), 8 * 24 + 24);
  });

  test('an unknown bias flag gives no count and a formula that shows what depends on it', async () => {
    const [fc] = await layers('def block(d, use_bias):\n    return nn.Linear(d, d, bias=use_bias)\n');
    assert.strictEqual(paramsOf(fc), null);
    assert.strictEqual(fc.layer.formula, 'd² + [use_bias]·d');
  });

  test('groups that are not known are not dropped from the formula', async () => {
    const [conv] = await layers('def dw(d, g):\n    return nn.Conv1d(d, d, 3, groups=g)\n');
    assert.strictEqual(conv.layer.formula, '3·(d / g)·d + d');
  });

  test('a quotient that does not simplify keeps its parentheses', async () => {
    const [fc] = await layers('def pad(v):\n    return nn.Linear(1, (v + 63) // 64)\n');
    assert.strictEqual(fc.layer.formula, '2·((v + 63) // 64)');
  });

  test('generator expressions over zip, partials and classes passed as arguments', async () => {
    const analysis = await analyzeText(
      `${torch}class C(nn.Module):\n    def __init__(self, dims=(8, 16, 32), lin=partial(nn.Linear, bias=False), norm=nn.LayerNorm):\n        super().__init__()\n        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))\n        self.p = lin(4, 4)\n        self.n = norm(32)\n`,
    );
    assert.strictEqual(analysis.modules[0].summary.params?.constant, BigInt(8 * 16 + 16 + 16 * 32 + 32 + 16 + 64));
  });

  test('add_module of something that cannot be followed makes the total unknown, not smaller', async () => {
    const analysis = await analyzeText(
      `${torch}from somewhere import make\nclass C(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n        self.add_module("x", make())\n`,
    );
    assert.strictEqual(analysis.modules[0].summary.params, undefined);
  });

  test('a model the file builds gives its layers their counts', async () => {
    const analysis = await analyzeText(
      `${torch}class Head(nn.Module):\n    def __init__(self, d: int):\n        super().__init__()\n        self.fc = nn.Linear(d, 2 * d)\nhead = Head(16)\n`,
    );
    assert.deepStrictEqual(
      analysis.instances.map((i) => [i.className, i.summary.params?.constant]),
      [['Head', BigInt(16 * 32 + 32)]],
    );
    assert.strictEqual(lensTitle(analysis.layers[0]), '544 params · 16 → 32 · in Head (line 8)');
    assert.deepStrictEqual(
      analysis.layers[0].values.map((v) => v.context),
      ['Head (line 8)'],
    );
  });

  test('two models that build a layer with different sizes: no single count, each size listed', async () => {
    const analysis = await analyzeText(
      `${torch}class Head(nn.Module):\n    def __init__(self, d: int):\n        super().__init__()\n        self.fc = nn.Linear(d, d)\nsmall = Head(4)\nlarge = Head(8)\n`,
    );
    assert.strictEqual(paramsOf(analysis.layers[0]), null);
    assert.strictEqual(lensTitle(analysis.layers[0]), '2 sizes: 20 … 72 params · d → d');
    assert.strictEqual(siteCount(analysis.layers[0]), '2 sizes: 20 … 72');
  });

  test('ModelArgs with a -1 default filled by the caller: no negative count, no false error', async () => {
    const analysis = await analyzeText(
      `${torch}from dataclasses import dataclass\n@dataclass\nclass ModelArgs:\n    dim: int = 64\n    vocab_size: int = -1\nclass T(nn.Module):\n    def __init__(self, params: ModelArgs):\n        super().__init__()\n        self.tok = nn.Embedding(params.vocab_size, params.dim)\n`,
    );
    assert.deepStrictEqual(analysis.findings, []);
    assert.strictEqual(paramsOf(analysis.layers[0]), null);
    assert.strictEqual(analysis.layers[0].layer.formula, 'params.dim·params.vocab_size');
  });

  test("a constructor that raises for certain is reported where the model is built, with the user's message", async () => {
    const analysis = await analyzeText(
      `${torch}class Attn(nn.Module):\n    def __init__(self, dim: int, heads: int):\n        super().__init__()\n        assert dim % heads == 0, f"dim {dim} must be divisible by heads {heads}"\n        self.qkv = nn.Linear(dim, 3 * dim)\nok = Attn(64, 8)\nbad = Attn(100, 12)\n`,
    );
    assert.deepStrictEqual(
      analysis.findings.map((f) => [f.code, f.span.startLine + 1, f.related?.[0].span.startLine]),
      [['constructor-raises', 10, 6]],
    );
    assert.match(analysis.findings[0].message, /raises AssertionError: "dim 100 must be divisible by heads 12"/);
    assert.deepStrictEqual(
      analysis.instances.map((i) => i.summary.params?.constant),
      [BigInt(64 * 192 + 192), undefined],
    );
  });

  test('a raise that may not happen, or that a handler catches, is not reported', async () => {
    const analysis = await analyzeText(
      `${torch}from somewhere import flag\nclass A(nn.Module):\n    def __init__(self, d=64):\n        super().__init__()\n        if flag:\n            raise ValueError("maybe")\n        try:\n            assert d > 100\n        except AssertionError:\n            pass\n        self.fc = nn.Linear(d, d)\n`,
    );
    assert.deepStrictEqual(analysis.findings, []);
    assert.strictEqual(analysis.modules[0].summary.params?.constant, BigInt(64 * 64 + 64));
  });

  test('a class that raises when built with its defaults has no total, and no diagnostic until a model is built', async () => {
    const source = `${torch}class Checked(nn.Module):\n    def __init__(self, hidden=100, n=12):\n        super().__init__()\n        if hidden % n != 0:\n            raise ValueError(f"hidden size {hidden} is not a multiple of {n}")\n        self.fc = nn.Linear(hidden, hidden)\n`;
    const alone = await analyzeText(source);
    assert.deepStrictEqual(alone.findings, []);
    assert.match(alone.modules[0].summary.reason ?? '', /raises/);
    const factory = await analyzeText(`${source}def checked_base():\n    return Checked()\n`);
    assert.deepStrictEqual(
      factory.findings.map((f) => [f.code, f.span.startLine + 1]),
      [['constructor-raises', 8]],
    );
    assert.match(
      factory.findings[0].message,
      /Building checked_base\(\) raises ValueError: "hidden size 100 is not a multiple of 12"/,
    );
  });

  test("a builtin Python raises from (float(None), as vit-pytorch's DropPath() does) makes the default build raise, not total 0", async () => {
    const source = `${torch}from somewhere import flag\nclass DropPath(nn.Module):\n    def __init__(self, drop_prob=None):\n        super().__init__()\n        self.drop_prob = float(drop_prob)\nclass Maybe(nn.Module):\n    def __init__(self, p=None):\n        super().__init__()\n        self.p = float(p) if flag else 0.1\n        self.fc = nn.Linear(4, 4)\nok = DropPath(0.1)\n`;
    const analysis = await analyzeText(source);
    assert.match(analysis.modules[0].summary.reason ?? '', /raises/);
    assert.strictEqual(analysis.modules[0].summary.params, undefined);
    assert.strictEqual(analysis.modules[1].summary.params?.constant, 20n);
    assert.deepStrictEqual(
      analysis.instances.map((i) => i.summary.params?.constant),
      [0n],
    );
    const built = await analyzeText(`${source}bad = DropPath()\n`);
    assert.deepStrictEqual(
      built.findings.map((f) => [f.code, f.span.startLine + 1]),
      [['constructor-raises', 15]],
    );
    assert.match(
      built.findings[0].message,
      /raises TypeError: "float\(\) argument must be a string or a real number, not 'NoneType'"/,
    );
  });

  test('a division or modulo by zero raises ZeroDivisionError as Python does, with its message; a total is never made of it', async () => {
    const source = `${torch}class Heads(nn.Module):\n    def __init__(self, dim=64, heads=0, groups=0):\n        super().__init__()\n        self.head_dim = dim // heads\n        self.q = nn.Linear(dim, dim)\nclass Rest(nn.Module):\n    def __init__(self, dim=64, groups=0):\n        super().__init__()\n        assert dim % groups == 0\n        self.q = nn.Linear(dim, dim)\n`;
    const analysis = await analyzeText(`${source}a = Heads()\nb = Rest()\n`);
    assert.deepStrictEqual(
      analysis.instances.map((i) => i.summary.params),
      [undefined, undefined],
    );
    // Python 3.11: `64 // 0` and `64 % 0`.
    assert.deepStrictEqual(
      analysis.findings.map((f) => f.message.match(/raises (\w+): "([^"]+)"/)?.slice(1)),
      [
        ['ZeroDivisionError', 'integer division or modulo by zero'],
        ['ZeroDivisionError', 'integer modulo by zero'],
      ],
    );
  });

  test('a run that runs out of its work budget says where, and the model it was building has no total', async () => {
    const layers = Array.from({ length: 10_000 }, (_, i) => `        self.l${i} = nn.Linear(4, 4)\n`).join('');
    const analysis = await analyzeText(
      `${torch}class Big(nn.Module):\n    def __init__(self):\n        super().__init__()\n${layers}model = Big()\n`,
    );
    const stops = analysis.findings.filter((f) => f.code === 'analysis-truncated');
    assert.ok(
      stops.length > 0 && stops.every((f) => f.severity === 'info'),
      JSON.stringify(analysis.findings.map((f) => f.code)),
    );
    assert.match(stops[0].message, /work budget \(40,000 steps for one model\) ran out/);
    assert.strictEqual(analysis.modules[0].summary.params, undefined);
  });

  test('a class built by a run cut short has no total in that model: the builds after the cut are not known', async () => {
    // Part(4) is built before the budget runs out, Part(8) would be after it: Part's total in
    // stages() is not 20, it is not known. small() finishes: both its parts are Part(2) (6 each).
    const analysis = await analyzeText(
      `${torch}class Part(nn.Module):\n    def __init__(self, width):\n        super().__init__()\n        self.fc = nn.Linear(width, width)\n\n` +
        'def step(i):\n    return i + 1\n\n' +
        'class Stages(nn.Module):\n    def __init__(self, widths):\n        super().__init__()\n        self.first = Part(widths[0])\n' +
        '        total = 0\n        for i in range(widths[1] - widths[0]):\n            for j in range(1000):\n' +
        '                for k in range(1000):\n                    total = step(total)\n' +
        '        self.second = Part(widths[1] + total - total)\n\n' +
        'def stages(**kw):\n    return Stages((4, 8))\n\ndef small(**kw):\n    return Stages((2, 2))\n',
    );
    assert.deepStrictEqual(
      analysis.modules.find((m) => m.name === 'Part')?.configurations?.map((c) => [c.context, c.params.constant]),
      [['small()', 6n]],
    );
  });

  test('a model nested deeper than the interpreter follows says so, not that Python raises', async () => {
    const blocks = Array.from(
      { length: 50 },
      (_, i) =>
        `class B${i + 1}(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.inner = B${i}()\n`,
    ).join('');
    const analysis = await analyzeText(
      `${torch}class B0(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(2, 2)\n${blocks}model = B50()\n`,
    );
    assert.strictEqual(analysis.instances[0].summary.params, undefined);
    assert.match(
      analysis.instances[0].summary.reason ?? '',
      /is built more than 40 calls deep, deeper than Attention Lens follows/,
    );
    assert.deepStrictEqual(analysis.findings, []);
  });

  test("a class that builds itself under a condition not known (DLA's tree of levels) stops there; built with its levels it is counted", async () => {
    const tree = `${torch}class Tree(nn.Module):\n    def __init__(self, levels, d=4):\n        super().__init__()\n        if levels == 1:\n            self.a = nn.Linear(d, d)\n            self.b = nn.Linear(d, d)\n        else:\n            self.a = Tree(levels - 1, d)\n            self.b = Tree(levels - 1, d)\n            self.root = nn.Linear(2 * d, d)\n`;
    const alone = await analyzeText(tree);
    // Each level followed both ways ran the file's whole budget out (2 ** 40 paths).
    assert.deepStrictEqual(alone.findings, []);
    assert.strictEqual(alone.modules[0].summary.params, undefined);
    // PyTorch 1.13: sum(p.numel() for p in Tree(3).parameters()).
    const built = await analyzeText(`${tree}model = Tree(3)\n`);
    assert.deepStrictEqual(
      built.instances.map((i) => i.summary.params?.constant),
      [268n],
    );
  });

  test('factories are models too: a layer built with other sizes through a helper has no single count', async () => {
    const analysis = await analyzeText(
      `${torch}def small():\n    return _make(dim=128)\ndef _make(dim, depth=2):\n    return Net(dim=dim)\nclass Net(nn.Module):\n    def __init__(self, dim=768, num_classes=1000):\n        super().__init__()\n        self.fc = nn.Linear(dim, num_classes)\n`,
    );
    assert.strictEqual(paramsOf(analysis.layers[0]), null);
    assert.deepStrictEqual(
      analysis.layers[0].values.map((v) => [Number(v.params.constant), v.context]),
      [
        [769000, 'Net()'],
        [129000, 'small() via Net'],
      ],
    );
    assert.strictEqual(lensTitle(analysis.layers[0]), '2 sizes: 129,000 … 769,000 params');
  });

  test('starred targets and starred items in displays', async () => {
    const analysis = await analyzeText(
      `${torch}class Head(nn.Module):\n    def __init__(self, dims=(64, 128, 256, 512), slots=(64, 32), regs=(4, 4)):\n        super().__init__()\n        first, *_, last = dims\n        lengths = (196, *(s + r for s, r in zip(slots, regs)))\n        self.norm = nn.LayerNorm(last)\n        self.fc = nn.Linear(lengths[-1], len(lengths))\n`,
    );
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [1024, 36 * 3 + 3]);
  });

  test('a real caller whose sizes are not known leaves the layer without a count', async () => {
    const analysis = await analyzeText(
      `${torch}from somewhere import width\nclass Inner(nn.Module):\n    def __init__(self, d=64):\n        super().__init__()\n        self.fc = nn.Linear(d, d)\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = Inner()\n        self.b = Inner(width)\n`,
    );
    assert.strictEqual(paramsOf(analysis.layers[0]), null);
    assert.deepStrictEqual(
      analysis.layers[0].values.map((v) => Number(v.params.constant)),
      [4160],
    );
  });

  test('library model bases: subclasses are models; a constructor inherited from the library is not guessed', async () => {
    const analysis = await analyzeText(
      `${torch}from ...modeling_utils import PreTrainedModel\nclass BertPreTrainedModel(PreTrainedModel):\n    pass\nclass Head(BertPreTrainedModel):\n    def __init__(self, config=None, d=16):\n        super().__init__(config)\n        self.fc = nn.Linear(d, d)\n`,
    );
    assert.deepStrictEqual(
      analysis.modules.map((m) => [m.name, m.summary.params?.constant]),
      [
        ['BertPreTrainedModel', undefined],
        ['Head', 272n],
      ],
    );
    assert.match(analysis.modules[0].summary.reason ?? '', /comes from PreTrainedModel/);
  });

  test('a loop whose count is not known and whose passes differ gives its layers no count', async () => {
    const analysis = await analyzeText(
      `${torch}class A(nn.Module):\n    def __init__(self, n, d=8):\n        super().__init__()\n        self.layers = nn.ModuleList()\n        for _ in range(n):\n            self.layers.append(nn.Linear(d, d))\n            d = d * 2\nclass B(nn.Module):\n    def __init__(self, n, d=8):\n        super().__init__()\n        self.layers = nn.ModuleList()\n        for _ in range(n):\n            self.layers.append(nn.Linear(d, d))\nb = B(3)\n`,
    );
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [null, 72]);
    assert.deepStrictEqual(
      analysis.instances.map((i) => i.summary.params?.constant),
      [216n],
    );
  });

  test('a default a caller may replace is a name when the class is built alone', async () => {
    const analysis = await analyzeText(
      `${torch}class Attention(nn.Module):\n    def __init__(self, dim, heads=8):\n        super().__init__()\n        self.norm = nn.LayerNorm(heads)\nclass Model(nn.Module):\n    def __init__(self, dim, heads):\n        super().__init__()\n        self.attn = Attention(dim, heads=heads)\n`,
    );
    assert.strictEqual(paramsOf(analysis.layers[0]), null);
    assert.strictEqual(analysis.layers[0].layer.formula, '2·heads');
  });

  test('dict methods that change a dict are followed; others leave it unknown', async () => {
    const analysis = await analyzeText(
      `${torch}from lib import mutate\ndef make(**kwargs):\n    kwargs.setdefault("n", 10)\n    kwargs.update(d=4)\n    return nn.Linear(kwargs["d"], kwargs.pop("n"))\ndef other(**kwargs):\n    kwargs.setdefault("n", 10)\n    kwargs.fill(mutate)\n    return nn.Linear(4, kwargs["n"])\nm = make()\no = other()\n`,
    );
    assert.deepStrictEqual(analysis.layers.map(paramsOf), [50, null]);
  });

  test('super().__init__(*args) that leaves a base parameter without a value: no count, as Python raises', async () => {
    const analysis = await analyzeText(
      `${torch}class Base(nn.Module):\n    def __init__(self, config, *inputs, **kwargs):\n        super().__init__()\n        self.config = config\nclass Child(Base):\n    def __init__(self, *inputs, **kwargs):\n        super().__init__(*inputs, **kwargs)\n`,
    );
    assert.deepStrictEqual(
      analysis.modules.map((m) => m.summary.params?.constant),
      [undefined, undefined],
    );
  });

  test('a helper that raises is not a model: no constructor-raises', async () => {
    const analysis = await analyzeText(
      `${torch}def check(x=None):\n    assert x is not None, "x is required"\n    return x\ndef todo(*args, **kwargs):\n    raise NotImplementedError("subclass must implement")\n`,
    );
    assert.deepStrictEqual(analysis.findings, []);
  });

  test('a model built with arguments that cannot be followed still counts as a caller: no single count', async () => {
    const analysis = await analyzeText(
      `${torch}class Net(nn.Module):\n    def __init__(self, embed_dim=768, num_classes=1000):\n        super().__init__()\n        self.head = nn.Linear(embed_dim, num_classes)\ndef build(cls, **kwargs):\n    kwargs = {k: v for k, v in kwargs.items() if v is not None}\n    return cls(**kwargs)\ndef net_small(**kwargs):\n    return build(Net, embed_dim=128, **kwargs)\n`,
    );
    assert.strictEqual(paramsOf(analysis.layers[0]), null);
    assert.strictEqual(analysis.modules[0].summary.params?.constant, 769000n);
  });

  test('a library base built with no arguments through super() is not taken as empty', async () => {
    const analysis = await analyzeText(
      `${torch}from transformers import PreTrainedModel\nclass P(PreTrainedModel):\n    def __init__(self, *inputs, **kwargs):\n        super().__init__(*inputs, **kwargs)\nclass Q(PreTrainedModel):\n    def __init__(self, config=None):\n        super().__init__(config)\n        self.fc = nn.Linear(4, 4)\n`,
    );
    assert.deepStrictEqual(
      analysis.modules.map((m) => m.summary.params?.constant),
      [undefined, 20n],
    );
  });

  test('a method no run reaches is run for its layers only: what it would meet if called is no error (timm coat)', async () => {
    const analysis = await analyzeText(
      `${torch}class Blocks(nn.Module):\n    def __init__(self, dims):\n        super().__init__()\n        self.a = nn.Linear(dims[0], dims[0])\n        self.b = nn.Linear(dims[1], dims[1])\n    def forward(self, x, y):\n        return self.a(x) + self.b(y)\nclass Model(nn.Module):\n    def __init__(self, dims=(128, 320)):\n        super().__init__()\n        self.dims = dims\n    def add_parallel(self, n):\n        self.head = nn.Linear(n, n)\n        return Blocks(self.dims)(torch.zeros(2, 5, self.dims[0]), torch.zeros(2, 5, self.dims[1]))\n`,
    );
    assert.deepStrictEqual(analysis.findings, []);
    assert.strictEqual(analysis.layers.length, 3);
  });

  // From measuring public code against PyTorch (nanoGPT, vit-pytorch): each of these printed a wrong number.
  test('a configuration built from arguments that cannot be followed is not its defaults (nanoGPT from_pretrained)', async () => {
    const analysis = await analyzeText(
      `${torch}from dataclasses import dataclass\n@dataclass\nclass Config:\n    n_embd: int = 768\n    vocab_size: int = 50304\nclass GPT(nn.Module):\n    def __init__(self, config):\n        super().__init__()\n        self.wte = nn.Embedding(config.vocab_size, config.n_embd)\n    @classmethod\n    def from_pretrained(cls, model_type):\n        config_args = {'gpt2': dict(n_embd=768), 'gpt2-medium': dict(n_embd=1024)}[model_type]\n        config_args['vocab_size'] = 50257\n        return GPT(Config(**config_args))\n`,
    );
    // The one count is GPT(Config())'s, which says so: from_pretrained's build adds none.
    assert.deepStrictEqual(
      analysis.layers[0].values.map((v) => `${v.params.constant}@${v.context}`),
      ['38633472@GPT(Config())'],
    );
  });

  test('a module passed in as an argument leaves the total of a class built with names unknown, never 0 (dino NetWrapper)', async () => {
    const analysis = await analyzeText(
      `${torch}class NetWrapper(nn.Module):\n    def __init__(self, net):\n        super().__init__()\n        self.net = net\nclass Dino(nn.Module):\n    def __init__(self, net):\n        super().__init__()\n        self.student = NetWrapper(net)\n`,
    );
    assert.deepStrictEqual(
      analysis.modules.map((m) => [m.name, m.built?.summary.params?.constant]),
      [
        ['NetWrapper', undefined],
        ['Dino', undefined],
      ],
    );
  });

  test('blocks of more sizes than a few, and blocks whose size is not known, give their class no one total (crossformer, value residual)', async () => {
    const analysis = await analyzeText(
      `${torch}from einops.layers.torch import Rearrange\nclass Block(nn.Module):\n    def __init__(self, dim, extra=False):\n        super().__init__()\n        self.fc = nn.Linear(dim, dim)\n        self.mix = nn.Sequential(nn.Linear(dim, 8), Mystery()) if extra else None\nclass Stack(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.same = nn.ModuleList([Block(64) for _ in range(9)] + [Block(128)])\n        self.odd = nn.ModuleList([Block(32, extra=i > 0) for i in range(3)])\nclass Mystery(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = nn.Parameter(torch.zeros(unknown_size()))\nmodel = Stack()\n`,
    );
    assert.strictEqual(analysis.modules.find((m) => m.name === 'Block')?.built, undefined);
  });

  test('a method behind a decorator this file does not follow may add modules: the total is not known (lejepa)', async () => {
    const analysis = await analyzeText(
      `${torch}def singleton(key):\n    def inner(fn):\n        def wrapper(self, *args):\n            if getattr(self, key) is None:\n                setattr(self, key, fn(self, *args))\n            return getattr(self, key)\n        return wrapper\n    return inner\nclass Wrapper(nn.Module):\n    def __init__(self, dim=8):\n        super().__init__()\n        self.body = nn.Linear(dim, dim)\n        self.projector = None\n        self.forward(torch.zeros(2, dim))\n    @singleton('projector')\n    def get_projector(self, hidden):\n        return nn.Linear(8, 256)\n    def forward(self, x):\n        return self.get_projector(self.body(x))(x)\n`,
    );
    assert.strictEqual(analysis.modules[0].summary.params, undefined);
  });

  test('the models of an if __name__ == "__main__": block are the file\'s models, their parts\' totals kept', async () => {
    const analysis = await analyzeText(
      `${torch}class Part(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n        self.fc = nn.Linear(dim, dim)\nclass Model(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n        self.part = Part(dim)\n        self.flag = None\nif __name__ == '__main__':\n    model = Model(16)\n    y = model(torch.zeros(2, 16))\n`,
    );
    assert.strictEqual(analysis.modules.find((m) => m.name === 'Part')?.built?.summary.params?.constant, 272n);
  });

  test('getattr(module, name, default) gives the default where the module has no such attribute, as Python does', async () => {
    const source = (base: string, extra = '') => `import torch.nn as nn
from somewhere import LibraryMixin

class M(${base}):${extra}
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, getattr(self, "width", 16))
`;
    // PyTorch: Linear(8, 16) has 144 parameters; with the class attribute width = 4, Linear(8, 4) has 36.
    const count = async (text: string) =>
      (await analyzeText(text)).modules.find((m) => m.name === 'M')!.summary.params?.constant;
    assert.strictEqual(await count(source('nn.Module')), 144n);
    assert.strictEqual(await count(source('nn.Module', '\n    width = 4\n')), 36n);
    // A library base may set the attribute in its own constructor: not known.
    assert.strictEqual(await count(source('nn.Module, LibraryMixin')), undefined);
  });
});
