/**
 * Layers kept in a plain array are not children of the module: js-pytorch's parameters() (like PyTorch's)
 * does not return them. The total leaves them out (stack.ts: 66, as js-pytorch counts it in js-modules.json)
 * and the class hover says why.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { moduleHoverMarkdown } from '../../src/core/format';
import { analyzeText, ROOT } from './helpers';

const STACK = 'test/fixtures/models/jspytorch/stack.ts';

suite('layers in plain arrays', () => {
  test('the class hover of stack.ts names the array its total leaves out', async () => {
    const analysis = await analyzeText(readFileSync(path.join(ROOT, STACK), 'utf8'), 'typescript');
    const stack = analysis.modules.find((m) => m.name === 'Stack')!;
    const expected = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/js-modules.json'), 'utf8')) as { files: Record<string, { name: string; params: number }[]> };
    assert.strictEqual(Number(stack.summary.params?.constant), expected.files[STACK].find((r) => r.name === 'Stack')!.params);
    assert.deepStrictEqual(stack.summary.arrays, ['blocks']);
    assert.ok(moduleHoverMarkdown('Stack', stack.summary).includes('`blocks` holds layers in a plain array: `parameters()` does not return them'));
    // Router keeps no array: no note.
    const router = analysis.modules.find((m) => m.name === 'Router')!;
    assert.strictEqual(router.summary.arrays, undefined);
    assert.ok(!moduleHoverMarkdown('Router', router.summary).includes('plain array'));
  });

  test('an array that no longer holds layers after a reassignment gets no note', async () => {
    const code = "import { torch } from 'js-pytorch';\nexport class M extends torch.nn.Module {\n  constructor() {\n    super();\n    this.parts = [new torch.nn.Linear(2, 2)];\n    this.parts = [];\n    this.out = new torch.nn.Linear(2, 1);\n  }\n}";
    const analysis = await analyzeText(code, 'typescript');
    assert.strictEqual(analysis.modules[0].summary.arrays, undefined);
  });

  test('layers of an array that are also registered as children are counted: no note', async () => {
    const code = 'import torch.nn as nn\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.parts = [nn.Linear(2, 2), nn.Linear(2, 3)]\n        self.a = self.parts[0]\n        self.b = self.parts[1]\n\nclass N(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.parts = [nn.Linear(2, 2)]\n';
    const analysis = await analyzeText(code, 'python');
    // PyTorch: M has a (2·2 + 2) and b (2·3 + 3); N's list is not registered, so N holds none.
    assert.deepStrictEqual(analysis.modules.map((m) => [m.name, Number(m.summary.params?.constant), m.summary.arrays]), [['M', 6 + 9, undefined], ['N', 0, ['parts']]]);
  });
});
