/**
 * Classes and layers imported from the workspace's own TypeScript files: by name, under an exported alias,
 * through a namespace import and through `export * from`. Totals are js-pytorch's (js-modules.json).
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';
import { analyzeText, loadGrammars, paramsOf, ROOT } from './helpers';

const COMPOSED = path.join(ROOT, 'test/fixtures/models/jspytorch/composed.ts');
const EXPECTED = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/js-modules.json'), 'utf8')) as {
  files: Record<string, { name: string; params: number | null }[]>;
};

function expectedTotal(file: string, name: string): number | null | undefined {
  return EXPECTED.files[file]?.find((r) => r.name === name)?.params;
}

/** Analyses `files[entry]` with the other entries as the workspace's files. */
async function analyzeFiles(files: Record<string, string>, entry: string) {
  const models = new WorkspaceModels(await loadGrammars(), (f) => files[f]);
  try {
    return await analyzeText(files[entry], 'typescript', entry, models);
  } finally {
    models.dispose();
  }
}

const PRELUDE = "import { torch } from 'js-pytorch';\n";

suite('TypeScript imports of the workspace', () => {
  test("a model of parts imported from blocks.ts has js-pytorch's total", async () => {
    const analysis = await analyzeText(readFileSync(COMPOSED, 'utf8'), 'typescript', COMPOSED);
    const total = analysis.modules.find((m) => m.name === 'Composed')?.summary.params?.constant;
    assert.strictEqual(Number(total), expectedTotal('test/fixtures/models/jspytorch/composed.ts', 'Composed'));
    // `new blocks.Linear(8, 3)`: js-pytorch's Linear passed on as a constant of blocks.ts, W [8, 3] and b [3].
    assert.deepStrictEqual(analysis.layers.filter((l) => l.span.startLine === 18).map(paramsOf), [8 * 3 + 3]);
  });

  test('without the file it imports from, the total is not known rather than guessed', async () => {
    const analysis = await analyzeText(readFileSync(COMPOSED, 'utf8'), 'typescript');
    assert.strictEqual(analysis.modules.find((m) => m.name === 'Composed')?.summary.params?.constant, undefined);
  });

  test('export * from passes on every name of the other file, through a cycle of such exports', async () => {
    const files = {
      '/ws/main.ts':
        "import { Block, Missing } from './index';\nconst block = new Block(4);\nconst other = new Missing(2);",
      '/ws/index.ts': "export * from './blocks';\nexport * from './main';",
      '/ws/blocks.ts': `${PRELUDE}export class Block extends torch.nn.Module {\n  constructor(width: number) {\n    super();\n    this.fc = new torch.nn.Linear(width, 5);\n  }\n}\nexport * from './index';`,
    };
    const analysis = await analyzeFiles(files, '/ws/main.ts');
    assert.deepStrictEqual(
      analysis.instances.map((i) => [i.className, Number(i.summary.params?.constant)]),
      [['Block', 4 * 5 + 5]],
    );
  });

  test('export { A as B } and export { A as B } from bind the other name', async () => {
    const files = {
      '/ws/main.ts':
        "import { Wide, Narrow } from './reexport';\nconst wide = new Wide();\nconst narrow = new Narrow();",
      '/ws/reexport.ts': "export { Block as Wide } from './blocks';\nexport { Narrow } from './blocks';",
      '/ws/blocks.ts': `${PRELUDE}export class Block extends torch.nn.Module {\n  constructor(width = 6) {\n    super();\n    this.fc = new torch.nn.Linear(width, 2);\n  }\n}\nclass Small extends Block {\n  constructor() {\n    super(3);\n  }\n}\nexport { Small as Narrow };`,
    };
    const analysis = await analyzeFiles(files, '/ws/main.ts');
    assert.deepStrictEqual(
      analysis.instances.map((i) => [i.className, Number(i.summary.params?.constant)]),
      [
        ['Block', 6 * 2 + 2],
        ['Small', 3 * 2 + 2],
      ],
    );
  });
});
