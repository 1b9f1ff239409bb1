/**
 * Model files of packages: the files importing one (a builder, a train script) state its configurations, and
 * timm's @register_model factories reach their class through a builder in another file. Each configuration is
 * listed with PyTorch's count (pytorch-packages.json, from scripts/ground-truth/pytorch_packages.py), shown where
 * nothing else builds the class, and never from sizes the importer does not state.
 */
import * as assert from 'assert';
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import type { Analysis } from '../../src/core/analysis/analyze';
import { DocumentEngine } from '../../src/service/documentEngine';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { analyzeText, loadGrammars, ROOT } from './helpers';

const FIXTURES = path.join(ROOT, 'test/fixtures/models/pytorch');
const FOLDER = path.join(FIXTURES, 'importers');
const TRUTH = JSON.parse(
  readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-packages.json'), 'utf8'),
) as Record<string, Record<string, Record<string, number>>>;

async function analysed(file: string, chosen?: readonly string[], folder = FOLDER): Promise<Analysis> {
  const full = path.join(folder, file);
  return analyzeText(readFileSync(full, 'utf8'), 'python', full, undefined, chosen);
}

const classIn = (a: Analysis, name: string) => a.modules.find((m) => m.name === name)!;

/** An engine reading the disk, `edited` (texts by path) first, as an editor's unsaved texts are. */
async function diskEngine(edited: Record<string, string> = {}): Promise<DocumentEngine> {
  const read = (f: string) => {
    if (f in edited) return edited[f];
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return undefined;
    }
  };
  const list = (dir: string, suffix: string) => {
    try {
      return readdirSync(dir)
        .filter((n) => n.endsWith(suffix))
        .sort();
    } catch {
      return undefined;
    }
  };
  return new DocumentEngine(await loadGrammars(), read, () => undefined, list);
}

suite('configurations of the model files of packages', () => {
  for (const [file, classes] of Object.entries(TRUTH))
    test(`${file}: every configuration, with PyTorch's count`, async () => {
      const a = await analysed(file, undefined, FIXTURES);
      for (const [name, counts] of Object.entries(classes))
        assert.deepStrictEqual(
          Object.fromEntries(classIn(a, name).configurations?.map((c) => [c.context, Number(c.params.constant)]) ?? []),
          counts,
          name,
        );
    });

  test("a tower the model builds and drops, keeping its parts, is no part of it: no total in the model's configurations", async () => {
    const a = await analysed('towers/towers.py', undefined, FIXTURES);
    const tower = classIn(a, 'TextTower');
    assert.deepStrictEqual([tower.built, tower.sizes, tower.configurations], [undefined, undefined, undefined]);
    assert.strictEqual(classIn(a, 'Visual').configurations?.length, 2);
  });

  test("timm's factories through its builder: the class shows its defaults, its layers every size", async () => {
    const a = await analysed('timm_style/vision_transformer.py', undefined, FIXTURES);
    assert.strictEqual(classIn(a, 'VisionTransformer').summary.params?.constant, 86_567_656n);
    // Conv2d(3, embed_dim, 16, 16) for 768, 192 and 384: 3·256·d + d.
    assert.deepStrictEqual(
      a.layers.find((l) => l.layer.kind === 'Conv2d')?.values.map((v) => v.params?.constant),
      [590_592n, 147_648n, 295_296n],
    );
  });

  test("timm's own builder: a feature extractor, and a variant no module read registers, are not counted", async () => {
    const a = await analysed('timm_registered/patch_vit.py', undefined, FIXTURES);
    const contexts = classIn(a, 'PatchViT').configurations?.map((c) => c.context) ?? [];
    assert.ok(contexts.includes('patch_vit_tiny_384()'), contexts.join('\n'));
    assert.ok(
      !contexts.includes('patch_vit_features()') && !contexts.includes('patch_vit_unlisted()'),
      contexts.join('\n'),
    );
  });

  test("timm's builder reads default_cfgs as register_model did: assigned again below the factories, not known", async () => {
    const file = path.join(FIXTURES, 'timm_registered/patch_vit.py');
    const text = `${readFileSync(file, 'utf8')}\ndefault_cfgs = generate_default_cfgs({})\n`;
    const a = await analyzeText(text, 'python', file);
    const contexts = classIn(a, 'PatchViT').configurations?.map((c) => c.context) ?? [];
    assert.ok(!contexts.some((c) => c.startsWith('patch_vit_')), contexts.join('\n'));
  });

  test("timm's builder read from the workspace (timm/models/_builder.py) is run as timm's is", async () => {
    const fixture = readFileSync(path.join(FIXTURES, 'timm_registered/patch_vit.py'), 'utf8');
    const files: Record<string, string> = {
      'timm/__init__.py': '',
      'timm/models/__init__.py': 'from ._builder import build_model_with_cfg\nfrom ._registry import *\n',
      'timm/models/_builder.py':
        'def build_model_with_cfg(model_cls, variant, pretrained, **kwargs):\n    raise NotImplementedError\n',
      'timm/models/_registry.py':
        'def register_model(fn):\n    return fn\n\ndef generate_default_cfgs(cfgs):\n    raise NotImplementedError\n\n' +
        'def register_model_deprecations(module_name, deprecation_map):\n    raise NotImplementedError\n',
    };
    const models = new WorkspaceModels(await loadGrammars(), (f) => files[f.replace('/w/', '')]);
    try {
      const a = await analyzeText(fixture, 'python', '/w/patch_vit.py', models);
      assert.deepStrictEqual(
        Object.fromEntries(
          classIn(a, 'PatchViT').configurations?.map((c) => [c.context, Number(c.params.constant)]) ?? [],
        ),
        TRUTH['timm_registered/patch_vit.py'].PatchViT,
      );
    } finally {
      models.dispose();
    }
  });

  test("an importer's factories: a share of the steps in a first analysis, a factory's allowance in a full one (timm's deit.py)", async () => {
    const model =
      'from torch import nn\n\nclass M(nn.Module):\n    def __init__(self, d=1):\n        super().__init__()\n' +
      '        n = 0\n        for i in range(30):\n            for j in range(100):\n                n += 1\n' +
      '        self.fc = nn.Linear(d, n)\n';
    const files: Record<string, string> = {
      'model.py': model,
      'factories.py':
        'from model import M\n' +
        Array.from({ length: 30 }, (_, i) => `def f${i}():\n    return M(${i + 2})\n`).join(''),
    };
    const grammars = await loadGrammars();
    const models = new WorkspaceModels(
      grammars,
      (f) => files[f.replace('/w/', '')],
      (dir, suffix) => (dir === '/w' ? Object.keys(files).filter((n) => n.endsWith(suffix)) : []),
    );
    const analyzer = new DocumentAnalyzer(grammars, 'python');
    const run = (depth: 'first' | 'full') =>
      analyzer
        .update(model, undefined, models.resolverFor('/w/model.py', 'python'), undefined, [], [], [], depth)!
        .modules[0].configurations?.filter((c) => /^f\d+\(\)$/.test(c.context)) ?? [];
    try {
      const first = run('first').length;
      assert.ok(first > 0 && first < 30, `${first} configurations`);
      const full = run('full');
      assert.strictEqual(full.length, 30);
      // nn.Linear(31, 3000): 3,000·31 + 3,000.
      assert.strictEqual(full.find((c) => c.context === 'f29()')?.params.constant, 96_000n);
    } finally {
      analyzer.dispose();
      models.dispose();
    }
  });

  test('a file a script opens by a path it writes out is read beside the script, not by an absolute path nor for writing, and as bytes for tomllib', async () => {
    const model =
      'from torch import nn\n\nclass Net(nn.Module):\n    def __init__(self, width):\n        super().__init__()\n        self.fc = nn.Linear(width, width)\n';
    const files: Record<string, string> = {
      'model.py': model,
      'net.json': '{"width": 4}',
      'net.toml': 'width = 6\n',
      'train.py':
        'import json\nfrom model import Net\n' +
        'a = Net(**json.load(open("net.json")))\n' +
        'b = Net(**json.load(open("/w/net.json")))\n' +
        'c = Net(**json.load(open("net.json", "w")))\n' +
        'import tomllib\n' +
        'd = Net(**tomllib.load(open("net.toml")))\n' +
        'e = Net(**tomllib.load(open("net.toml", "rb")))\n',
    };
    const models = new WorkspaceModels(
      await loadGrammars(),
      (f) => files[f.replace('/w/', '')],
      (dir, suffix) => (dir === '/w' ? Object.keys(files).filter((n) => n.endsWith(suffix)) : []),
    );
    try {
      const a = await analyzeText(model, 'python', '/w/model.py', models);
      // nn.Linear(4, 4): 20, nn.Linear(6, 6): 42; tomllib raises on a file opened as text.
      assert.deepStrictEqual(
        classIn(a, 'Net').configurations?.map((c) => [c.context, Number(c.params.constant)]),
        [
          ['Net (train.py, line 3)', 20],
          ['Net (train.py, line 8)', 42],
        ],
      );
    } finally {
      models.dispose();
    }
  });

  test("each is stated where the importer builds it: the factory, the script's statement, the notebook's cell", async () => {
    const net = classIn(await analysed('modeling/net.py'), 'Net');
    assert.deepStrictEqual(
      net.configurations?.map((c) => [c.context, c.elsewhere?.file, c.elsewhere?.cell, c.elsewhere?.line]),
      [
        ['build_net_small()', '../build.py', undefined, 9],
        ['build_net_large()', '../build.py', undefined, 16],
        ['Net (../train.py, line 15)', '../train.py', undefined, 15],
        ['Net (../explore.ipynb, cell 3, line 2)', '../explore.ipynb', 3, 2],
      ],
    );
  });

  test('a class nothing else builds shows the first, its parts and layers too; another can be chosen', async () => {
    const a = await analysed('modeling/encoder.py');
    assert.deepStrictEqual(
      ['EncoderBlock', 'Encoder'].map((n) => [
        classIn(a, n).built?.context,
        classIn(a, n).built?.summary.params?.constant,
      ]),
      [
        ['build_net_small() via Encoder via EncoderBlock ×2', 49_984n],
        ['build_net_small() via Encoder', 149_312n],
      ],
    );
    // nn.MultiheadAttention(64, 4) in build_net_small(): 4·64² + 4·64.
    assert.strictEqual(a.layers.find((l) => l.layer.kind === 'MultiheadAttention')?.layer.params?.constant, 16_640n);
    const chosen = await analysed('modeling/encoder.py', ['build_net_large']);
    assert.strictEqual(classIn(chosen, 'Encoder').built?.summary.params?.constant, 891_776n);
  });

  test("a registry's entries name the factories they hold, and pick them by key", async () => {
    const net = classIn(await analysed('modeling/net.py'), 'Net');
    assert.deepStrictEqual(
      net.configurations?.filter((c) => c.registered).map((c) => [c.context, c.registered]),
      [
        ['build_net_small()', ["net_registry['default']", "net_registry['small']"]],
        ['build_net_large()', ["net_registry['large']"]],
      ],
    );
    const large = classIn(await analysed('modeling/net.py', ['large']), 'Net');
    assert.strictEqual(large.built?.context, 'build_net_large() via Net');
    assert.strictEqual(large.built?.summary.params?.constant, 904_676n);
  });

  test('sizes the importer reads from the command line, or that exec() may rebind, state no configuration', async () => {
    const a = await analysed('modeling/encoder.py');
    const contexts = a.modules.flatMap((m) => m.configurations?.map((c) => c.context) ?? []);
    assert.ok(!contexts.some((c) => c.includes('bench.py') || c.includes('line 20')), contexts.join('\n'));
  });

  test("an editor's first analysis leaves them out, saying so, for its first numbers to come as fast as the file's own", async () => {
    const engine = await diskEngine();
    const file = path.join(FOLDER, 'modeling/net.py');
    const request = { key: 'k', language: 'python' as const, text: readFileSync(file, 'utf8'), fresh: true, file };
    const first = engine.analyze({ ...request, importers: false });
    assert.ok('analysis' in first && first.importersLeftOut);
    assert.strictEqual(first.analysis.modules[0].configurations, undefined);
    const second = engine.analyze({ ...request, fresh: false });
    assert.ok('analysis' in second && !second.importersLeftOut);
    assert.strictEqual(second.analysis.modules[0].configurations?.length, 4);
  });

  test('the importers are among the files the editor watches; an edit to one counts again', async () => {
    const files: Record<string, string> = {};
    const engine = await diskEngine(files);
    const file = path.join(FOLDER, 'modeling/net.py');
    const request = { key: 'k', language: 'python' as const, text: readFileSync(file, 'utf8'), fresh: true, file };
    const first = engine.analyze(request);
    assert.ok('analysis' in first);
    assert.ok(first.imports.includes(path.join(FOLDER, 'build.py')), first.imports.join('\n'));
    const build = path.join(FOLDER, 'build.py');
    files[build] = readFileSync(build, 'utf8').replace('classes=100', 'classes=1000');
    const second = engine.analyze({ ...request, fresh: false });
    assert.ok('analysis' in second);
    const large = second.analysis.modules[0].configurations?.find((c) => c.context === 'build_net_large()');
    // 904,676 with 100 classes; 900 more outputs of 129 numbers each (128 weights and a bias).
    assert.strictEqual(large?.params.constant, 904_676n + 900n * 129n);
  });
});
