/**
 * Configuration files beside a model file (`params.json`, a Hugging Face `config.json`): which classes they
 * configure, and files that configure none. The counts of the fixtures in test/fixtures/models/pytorch/checkpoints
 * are PyTorch's (pytorch-expressions.json, frameworks.test.ts); these are the cases around them.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { configurationValues } from '../../src/core/analysis/configurationFiles';
import { isConfigurationFile, readConfiguration, readConfigurationFile } from '../../src/syntax/configurationFiles';
import { readYaml } from '../../src/syntax/pyyaml';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';
import { DocumentEngine } from '../../src/service/documentEngine';
import { analyzeText, loadGrammars, ROOT } from './helpers';

const MODEL = `from dataclasses import dataclass
import torch.nn as nn

@dataclass
class Args:
    dim: int = 64
    vocab: int = -1

class Net(nn.Module):
    def __init__(self, args: Args):
        super().__init__()
        self.embed = nn.Embedding(args.vocab, args.dim)
        self.proj = nn.Linear(args.dim, args.dim)
`;

/** The analysis of MODEL as /w/model.py, with `files` (name to text) beside it. */
async function withFiles(files: Record<string, string>, chosen?: readonly string[]) {
  const grammars = await loadGrammars();
  const models = new WorkspaceModels(grammars, (f) => files[f.replace('/w/', '')]);
  return analyzeText(MODEL, 'python', '/w/model.py', models, chosen);
}

const net = (a: Awaited<ReturnType<typeof withFiles>>) => a.modules.find((m) => m.name === 'Net')!;

suite('configuration files beside a model file', () => {
  test("a params.json whose keys are the configuration's fields builds the class that takes it", async () => {
    const a = await withFiles({ 'params.json': '{"dim": 32, "vocab": 10}' });
    // Args()'s vocab of -1 builds nothing; the file's sizes build Net: 10×32 + 32×32 + 32.
    assert.strictEqual(net(a).built?.context, 'Net(Args(**params.json))');
    assert.strictEqual(net(a).built?.summary.params?.constant, 1376n);
    assert.deepStrictEqual(
      a.layers.map((l) => l.layer.params?.constant),
      [320n, 1056n],
    );
  });

  test('a key that is no field of the configuration class, or a model_type it does not name, configures nothing', async () => {
    for (const text of ['{"dim": 32, "vocab": 10, "heads": 4}', '{"model_type": "llama", "dim": 32, "vocab": 10}']) {
      const a = await withFiles({ 'config.json': text });
      assert.strictEqual(net(a).built, undefined, text);
      assert.strictEqual(net(a).summary.params, undefined, text);
    }
  });

  test('a file that is no JSON object, or one nested past any stack, is no configuration and no error', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    for (const text of ['{"dim": 32,', '[1, 2]', '"text"', deep, '{"dim": 1e400, "vocab": 10}']) {
      const a = await withFiles({ 'params.json': text });
      assert.ok(!net(a).built || net(a).built!.summary.params?.constant !== undefined, text.slice(0, 20));
      assert.deepStrictEqual(a.findings, [], text.slice(0, 20));
    }
    assert.strictEqual(configurationValues(readConfiguration(deep)), undefined);
  });

  test('numbers are what json.load gives: 64.0 is a float, which nn.Linear refuses, and 64 an int', async () => {
    const values = configurationValues(
      readConfiguration('{"a": 64.0, "b": 64, "c": 1e-05, "d": 123456789012345678901, "written": "7"}'),
    )!;
    assert.deepStrictEqual(
      [...values].map(([k, v]) => [k, v.t]),
      [
        ['a', 'float'],
        ['b', 'int'],
        ['c', 'float'],
        ['d', 'int'],
        ['written', 'str'],
      ],
    );
    const a = await withFiles({ 'params.json': '{"dim": 32.0, "vocab": 10}' });
    assert.strictEqual(net(a).built, undefined);
  });

  test("YAML's plain scalars typed as PyYAML's safe_load types them (pyyaml-scalars.json); what it reads otherwise, no file", () => {
    const truth = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pyyaml-scalars.json'), 'utf8')) as {
      scalars: Record<string, { type: string; value?: string | boolean }>;
    };
    const read = (v: unknown) => {
      if (v === null) return { type: 'none' };
      if (typeof v === 'boolean') return { type: 'bool', value: v };
      if (typeof v === 'bigint') return { type: 'int', value: String(v) };
      if (typeof v === 'number') return { type: 'float', value: v };
      return { type: 'str', value: v as string };
    };
    for (const [scalar, expected] of Object.entries(truth.scalars)) {
      const data = readYaml(`v: ${scalar}\n`) as { v: unknown } | undefined;
      // A sexagesimal number (`1:30`, PyYAML's 90) is not typed here: the file is no configuration.
      if (scalar.includes(':')) {
        assert.strictEqual(data, undefined, scalar);
        continue;
      }
      const got = read(data!.v);
      const want =
        expected.type === 'float'
          ? { type: 'float', value: Number(String(expected.value).replace('inf', 'Infinity').replace('nan', 'NaN')) }
          : expected;
      assert.deepStrictEqual(got, want, scalar);
    }
    assert.deepStrictEqual(readYaml('"n_layer": 12\nn_head: "12"\nsizes: [1, 2.5]\n'), {
      n_layer: 12n,
      n_head: '12',
      sizes: [1n, 2.5],
    });
    for (const text of ['a: 2001-12-14\n', 'a: !!int "3"\n', 'yes: 1\n', '<<: {a: 1}\n', 'a: [1\n'])
      assert.strictEqual(readYaml(text), undefined, text);
    // Aliases of aliases: 10^12 values from twelve lines ("billion laughs") are not expanded.
    let laughs = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 12; i++)
      laughs += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    assert.strictEqual(readYaml(laughs), undefined);
  });

  test("the files whose unsaved edits the editor passes on: a model's configuration files, none other", () => {
    for (const file of [
      '/w/config.json',
      '/w/params.json',
      '/w/configs/small.yaml',
      '/w/model_configs/a.toml',
      'C:\\w\\config\\b.yml',
    ])
      assert.ok(isConfigurationFile(file), file);
    for (const file of ['/w/settings.json', '/w/configs/notes.txt', '/w/other/small.yaml', '/w/configs.yaml'])
      assert.ok(!isConfigurationFile(file), file);
  });

  test('TOML read as tomllib reads it: ints, floats, tables; a date makes it no configuration', () => {
    assert.deepStrictEqual(readConfigurationFile('c.toml', 'dim = 1_024\neps = 1e-5\n[head]\nclasses = 0x10\n'), {
      dim: 1024n,
      eps: 1e-5,
      head: { classes: 16n },
    });
    assert.strictEqual(readConfigurationFile('c.toml', 'made = 1979-05-27\n'), undefined);
    assert.strictEqual(readConfigurationFile('c.toml', 'dim = \n'), undefined);
  });

  test('--config params.json names the configuration the file builds from it', async () => {
    const a = await withFiles(
      { 'params.json': '{"dim": 32, "vocab": 10}', 'config.json': '{"dim": 16, "vocab": 10}' },
      ['params.json'],
    );
    assert.strictEqual(net(a).built?.context, 'Net(Args(**params.json))');
    assert.deepStrictEqual(
      net(a).configurations?.map((c) => [c.context, c.params.constant]),
      [
        ['Net(Args(**config.json))', 432n],
        ['Net(Args(**params.json))', 1376n],
      ],
    );
  });

  test('the files read are among the imports the editor watches, and an edited one is read again', async () => {
    const files: Record<string, string> = { 'params.json': '{"dim": 32, "vocab": 10}' };
    const engine = new DocumentEngine(
      await loadGrammars(),
      (f) => files[f.replace('/w/', '')],
      () => undefined,
    );
    const request = { key: 'k', language: 'python' as const, text: MODEL, fresh: true, file: '/w/model.py' };
    const first = engine.analyze(request);
    assert.ok('analysis' in first);
    assert.deepStrictEqual(first.imports, ['/w/params.json']);
    files['params.json'] = '{"dim": 16, "vocab": 10}';
    const second = engine.analyze(request);
    assert.ok('analysis' in second);
    assert.strictEqual(second.analysis.modules.find((m) => m.name === 'Net')?.built?.summary.params?.constant, 432n);
  });

  test('a chosen configuration is sized at the classes it builds as the model, not at their parts', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/checkpoints/llama/llama_model.py');
    const a = await analyzeText(readFileSync(file, 'utf8'), 'python', file, undefined, ['params.json']);
    // TransformerBlock is built once per layer by Transformer(ModelArgs(**params.json)): a part, not a model.
    assert.deepStrictEqual(
      a.instances.map((i) => [i.className, i.configuration, i.summary.params?.constant]),
      [
        ['Attention', 'Attention(ModelArgs(**params.json))', 163_840n],
        ['Transformer', 'Transformer(ModelArgs(**params.json))', 2_627_328n],
      ],
    );
  });
});
