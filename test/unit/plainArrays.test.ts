/**
 * Layers kept in a plain array are not children of the module: js-pytorch's parameters() (like PyTorch's)
 * does not return them. The total leaves them out (stack.ts: 66, as js-pytorch counts it in js-modules.json)
 * and the class hover says why.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { moduleHoverMarkdown } from '../../src/core/present/format';
import { analyzeText, ROOT } from './helpers';

const STACK = 'test/fixtures/models/jspytorch/stack.ts';

suite('layers in plain arrays', () => {
  test('the class hover of stack.ts names the array its total leaves out', async () => {
    const analysis = await analyzeText(readFileSync(path.join(ROOT, STACK), 'utf8'), 'typescript');
    const stack = analysis.modules.find((m) => m.name === 'Stack')!;
    const expected = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/js-modules.json'), 'utf8')) as {
      files: Record<string, { name: string; params: number }[]>;
    };
    assert.strictEqual(
      Number(stack.summary.params?.constant),
      expected.files[STACK].find((r) => r.name === 'Stack')!.params,
    );
    assert.deepStrictEqual(stack.summary.arrays, ['blocks']);
    assert.ok(
      moduleHoverMarkdown('Stack', stack.summary).includes(
        '`blocks` holds layers in a plain array: `parameters()` does not return them',
      ),
    );
    // Router keeps no array: no note.
    const router = analysis.modules.find((m) => m.name === 'Router')!;
    assert.strictEqual(router.summary.arrays, undefined);
    assert.ok(!moduleHoverMarkdown('Router', router.summary).includes('plain array'));
  });

  test('an array that no longer holds layers after a reassignment gets no note', async () => {
    const code =
      "import { torch } from 'js-pytorch';\nexport class M extends torch.nn.Module {\n  constructor() {\n    super();\n    this.parts = [new torch.nn.Linear(2, 2)];\n    this.parts = [];\n    this.out = new torch.nn.Linear(2, 1);\n  }\n}";
    const analysis = await analyzeText(code, 'typescript');
    assert.strictEqual(analysis.modules[0].summary.arrays, undefined);
  });

  test('layers of an array that are also registered as children are counted: no note', async () => {
    const code =
      'import torch.nn as nn\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.parts = [nn.Linear(2, 2), nn.Linear(2, 3)]\n        self.a = self.parts[0]\n        self.b = self.parts[1]\n\nclass N(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.parts = [nn.Linear(2, 2)]\n';
    const analysis = await analyzeText(code, 'python');
    // PyTorch: M has a (2·2 + 2) and b (2·3 + 3); N's list is not registered, so N holds none.
    assert.deepStrictEqual(
      analysis.modules.map((m) => [m.name, Number(m.summary.params?.constant), m.summary.arrays]),
      [
        ['M', 6 + 9, undefined],
        ['N', 0, ['parts']],
      ],
    );
  });

  test('plain_containers.py: a warning at each plain list or dict of layers, none for nn.ModuleList / nn.ModuleDict', async () => {
    const file = 'test/fixtures/models/pytorch/plain_containers.py';
    const analysis = await analyzeText(readFileSync(path.join(ROOT, file), 'utf8'), 'python');
    assert.deepStrictEqual(
      analysis.findings.map((f) => [f.code, f.severity, f.span.startLine + 1]),
      [
        ['unregistered-layers', 'warning', 11],
        ['unregistered-layers', 'warning', 12],
      ],
    );
    assert.match(
      analysis.findings[0].message,
      /self\.blocks keeps layers in a plain list: PyTorch does not register them/,
    );
    assert.match(analysis.findings[1].message, /Use nn\.ModuleDict/);
    const net = analysis.modules.find((m) => m.name === 'MultiTaskNet')!;
    assert.deepStrictEqual(net.summary.arrays, ['blocks', 'heads']);
  });

  test('a plain list whose layers add_module registers gets no warning; one with a layer left out does', async () => {
    const code =
      "import torch.nn as nn\n\nclass Heads(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.heads = [nn.Linear(4, 4), nn.Linear(4, 2)]\n        for i, head in enumerate(self.heads):\n            self.add_module('head_{}'.format(i), head)\n        self.extra = [nn.Linear(4, 8), nn.Linear(8, 2)]\n        self.add_module('first', self.extra[0])\n\nmodel = Heads()\n";
    const analysis = await analyzeText(code, 'python');
    // PyTorch 1.13: head_0 (20), head_1 (10), first (40); extra[1] is not registered.
    assert.strictEqual(Number(analysis.instances[0].summary.params?.constant), 70);
    assert.deepStrictEqual(
      analysis.findings.map((f) => [f.code, f.span.startLine + 1]),
      [['unregistered-layers', 9]],
    );
  });

  test('gated_block.ts: a warning at each field holding a layer; the hover gives the weights countParams() leaves out', async () => {
    const file = 'test/fixtures/models/tfjs/gated_block.ts';
    const analysis = await analyzeText(readFileSync(path.join(ROOT, file), 'utf8'), 'typescript');
    assert.deepStrictEqual(
      analysis.findings.map((f) => [f.code, f.severity, f.span.startLine + 1]),
      [
        ['untracked-sublayers', 'warning', 15],
        ['untracked-sublayers', 'warning', 16],
      ],
    );
    const block = analysis.instances.find((i) => i.className === 'GatedBlock')!;
    // countParams() says 0; call() creates two dense layers of 20 · 12 + 12 (js-layers.json).
    assert.ok(
      moduleHoverMarkdown('GatedBlock', block.summary, undefined, true).includes(
        '`value`, `gate` hold layers the class does not track: call() creates 504 weights in them',
      ),
    );
  });
});
