/**
 * A model class whose constructor takes a configuration is counted with that configuration's defaults
 * (config_defaults.py and pytorch-layers.json hold the counts PyTorch gives); these are the cases around it.
 */
import * as assert from 'assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import type { Analysis } from '../../src/core/analysis/analyze';
import {
  builtWhere,
  configurationsMarkdown,
  distinctConfigurations,
  lensTitle,
  moduleLensTitle,
} from '../../src/core/present/format';
import { analyzeText, loadGrammars, ROOT, SLOW_FACTORIES } from './helpers';

const HEAD = 'import torch.nn as nn\n';
// A plain class whose constructor holds the defaults: no dataclass in the file.
const CFG = 'class Cfg:\n    def __init__(self, d=8, k=3):\n        self.d = d\n        self.k = k\n';
const MODEL =
  'class M(nn.Module):\n    def __init__(self, cfg):\n        super().__init__()\n        self.fc = nn.Linear(cfg.d, cfg.k)\n';

const model = (a: Analysis | undefined) => a?.modules.find((m) => m.name === 'M');
/** The analysis once `line` is typed at the end of `text`, the change sent as the editor sends it. */
const typedAtEnd = (
  analyzer: DocumentAnalyzer,
  text: string,
  line: string,
  chosen: readonly string[] = [],
  own: readonly string[] = [],
) =>
  analyzer.update(
    text + line,
    [{ rangeOffset: text.length, rangeLength: 0, text: line }],
    undefined,
    undefined,
    chosen,
    own,
  );
const built = (a: Analysis | undefined) => {
  const m = model(a);
  return m?.built && `${m.built.context}: ${m.built.summary.params}`;
};

suite('models counted with their configuration', () => {
  test("a plain class whose constructor defaults every field is the configuration: nn.Linear(8, 3)'s 27", async () => {
    const a = await analyzeText(HEAD + CFG + MODEL);
    assert.strictEqual(built(a), 'M(Cfg()): 27');
    assert.deepStrictEqual(
      a.layers[0].values.map((v) => `${v.params.constant}@${v.context}`),
      ['27@M(Cfg())'],
    );
  });

  test('every model that builds the class is listed with its total: factories, then its configuration', async () => {
    const a = await analyzeText(
      `${HEAD}${CFG}${MODEL}def small():\n    return M(Cfg(d=2))\ndef large():\n    return M(Cfg(d=4))\n`,
    );
    const listed = model(a)!.configurations!.map((c) => `${c.context}: ${c.params.constant}`);
    // nn.Linear(d, 3): 3·d + 3.
    assert.deepStrictEqual(listed, ['small(): 9', 'large(): 15', 'M(Cfg()): 27']);
    assert.strictEqual(built(a), 'M(Cfg()): 27');
    assert.strictEqual(
      configurationsMarkdown(model(a)!.configurations),
      'Built with 3 different totals:\n\n- 9 in `small()`\n- 15 in `large()`\n- 27 in `M(Cfg())` (shown)',
    );
  });

  test('the class the parameter is annotated with, written as a forward reference, even with fields the class never reads', async () => {
    const a = await analyzeText(
      `${HEAD}${MODEL.replace('self, cfg)', 'self, cfg: "Cfg")')}class Cfg:\n    def __init__(self, d=8, k=3, unused=1):\n        self.d = d\n        self.k = k\n        self.unused = unused\nclass Other:\n    def __init__(self, d=2, k=2):\n        self.d = d\n        self.k = k\n`,
    );
    // Other holds every field M reads too: without the annotation, which of the two is not known.
    assert.strictEqual(built(a), 'M(Cfg()): 27');
  });

  test('a module the constructor is given is a part, not a configuration: no count is made up with its defaults', async () => {
    const a = await analyzeText(
      `${HEAD}class Backbone(nn.Module):\n    def __init__(self, d=8):\n        super().__init__()\n        self.fc = nn.Linear(d, d)\nclass M(nn.Module):\n    def __init__(self, backbone: Backbone):\n        super().__init__()\n        self.backbone = backbone\n`,
    );
    assert.strictEqual(built(a), undefined);
  });

  test('a field no class of the file has: no configuration, the class needs its argument', async () => {
    const a = await analyzeText(HEAD + CFG + MODEL.replace('cfg.k)', 'cfg.heads)'));
    assert.strictEqual(built(a), undefined);
    assert.match(model(a)!.summary.reason ?? '', /needs arguments/);
  });

  test("a class the file builds shows that build, and its layers only that build's sizes", async () => {
    const a = await analyzeText(`${HEAD}${CFG}${MODEL}model = M(Cfg(d=4))\n`);
    assert.strictEqual(built(a), 'M (line 10): 15');
    assert.deepStrictEqual(
      a.layers[0].values.map((v) => `${v.params.constant}@${v.context}`),
      ['15@M (line 10)'],
    );
  });

  test('a configuration imported from another file of the workspace, matched by the fields read', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'al-config-'));
    try {
      writeFileSync(path.join(folder, 'config.py'), CFG);
      const file = path.join(folder, 'model.py');
      const a = await analyzeText(`${HEAD}from config import Cfg\n${MODEL}`, 'python', file);
      assert.strictEqual(built(a), 'M(Cfg()): 27');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a second configuration with the same fields typed in, then taken out: each version as a fresh analysis gives it', async () => {
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    // A second model, N: the classes that may be configurations are found once, for M, and N's run must
    // depend on them too.
    const one = HEAD + CFG + MODEL + MODEL.replace('class M(', 'class N(');
    const other = 'class Other:\n    def __init__(self, d=2, k=2):\n        self.d = d\n        self.k = k\n';
    const both = (a: Analysis | undefined) =>
      a?.modules.map((m) => `${m.name}: ${m.built?.context ?? 'none'}`).join(', ');
    assert.strictEqual(both(analyzer.update(one)), 'M: M(Cfg()), N: N(Cfg())');
    // Two classes hold d and k: which one the models take is not known.
    const two = analyzer.update(one + other, [{ rangeOffset: one.length, rangeLength: 0, text: other }]);
    assert.strictEqual(both(two), 'M: none, N: none');
    const back = analyzer.update(one, [{ rangeOffset: one.length, rangeLength: other.length, text: '' }]);
    assert.strictEqual(both(back), 'M: M(Cfg()), N: N(Cfg())');
    analyzer.dispose();
  });

  test('400 configurations and 400 models, each reading a field of its own: each matched once, not each against all', async () => {
    const configs = Array.from(
      { length: 400 },
      (_, i) => `@dataclass\nclass C${i}:\n    a${i}: int = ${i + 1}\n    b: int = 2\n`,
    );
    const models = Array.from(
      { length: 400 },
      (_, i) =>
        `class M${i}(nn.Module):\n    def __init__(self, config):\n        super().__init__()\n        self.fc = nn.Linear(config.a${i}, config.b)\n`,
    );
    const a = await analyzeText(`${HEAD}from dataclasses import dataclass\n${configs.join('')}${models.join('')}`);
    const counted = a.modules.map((m) => `${m.built?.context}: ${m.built?.summary.params?.constant}`);
    // nn.Linear(i + 1, 2): 2·(i + 1) + 2.
    assert.deepStrictEqual(
      counted,
      models.map((_, i) => `M${i}(C${i}()): ${2 * (i + 1) + 2}`),
    );
  });

  test('typing a build of the model, then taking it out again: each version as a fresh analysis gives it', async () => {
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    const without = HEAD + CFG + MODEL;
    const line = 'model = M(Cfg(d=4))\n';
    assert.strictEqual(built(analyzer.update(without)), 'M(Cfg()): 27');
    const added = typedAtEnd(analyzer, without, line);
    assert.strictEqual(built(added), 'M (line 10): 15');
    const removed = analyzer.update(without, [{ rangeOffset: without.length, rangeLength: line.length, text: '' }]);
    assert.strictEqual(built(removed), 'M(Cfg()): 27');
    analyzer.dispose();
  });

  test('a preset table: each name a context of its own, listed; a model of the file hides them at its layers', async () => {
    const presets = `def build(size):\n    return M(Cfg(**{'s': dict(d=2), 'l': dict(d=4)}[size]))\n`;
    const a = await analyzeText(HEAD + CFG + MODEL + presets);
    assert.deepStrictEqual(
      model(a)!.configurations!.map((c) => `${c.context}: ${c.params.constant}${c.active ? ' (shown)' : ''}`),
      ['M(Cfg()): 27 (shown)', "build('s'): 9", "build('l'): 15"],
    );
    const m = model(a)!;
    assert.strictEqual(
      moduleLensTitle(
        m.built!.summary,
        { name: m.name, context: m.built!.context },
        undefined,
        distinctConfigurations(m.configurations).length,
      ),
      '27 params (27) · as M(Cfg()) · 3 configurations',
    );
    // The layer shows its configuration's defaults' build, as the class does, not "3 sizes".
    assert.deepStrictEqual(
      a.layers[0].values.map((v) => `${v.params.constant}@${v.context}`),
      ['27@M(Cfg())'],
    );
    const body = await analyzeText(`${HEAD}${CFG}${MODEL}${presets}m = M(Cfg(d=6))\n`);
    assert.deepStrictEqual(
      body.layers[0].values.map((v) => `${v.params.constant}@${v.context}`),
      ['21@M (line 12)'],
    );
  });

  test('a configuration the user chose: the class and its layer show it, and say which it is; a name no class has changes nothing', async () => {
    const presets = `def build(size):\n    return M(Cfg(**{'s': dict(d=2), 'l': dict(d=4)}[size]))\n`;
    const text = HEAD + CFG + MODEL + presets;
    for (const name of ['l', "build('l')"]) {
      const a = await analyzeText(text, 'python', undefined, undefined, [name]);
      assert.deepStrictEqual(
        model(a)!.configurations!.map((c) => `${c.context}: ${c.params.constant}${c.active ? ' (shown)' : ''}`),
        ['M(Cfg()): 27', "build('s'): 9", "build('l'): 15 (shown)"],
        name,
      );
      assert.strictEqual(model(a)!.built?.context, "build('l') via M");
      assert.strictEqual(lensTitle(a.layers[0]), "15 params · 4 → 3 · in build('l')");
    }
    const none = await analyzeText(text, 'python', undefined, undefined, ['xl']);
    assert.strictEqual(model(none)!.built?.context, 'M(Cfg())');
    assert.strictEqual(lensTitle(none.layers[0]), '27 params · 8 → 3 · in M(Cfg())');
  });

  test("attention written by hand shows the chosen configuration's heads, not its defaults' at another width", async () => {
    const text = [
      'import torch.nn as nn',
      'import torch.nn.functional as F',
      'from dataclasses import dataclass',
      '@dataclass',
      'class Config:',
      '    n_embd: int = 64',
      '    n_head: int = 4',
      'class SelfAttention(nn.Module):',
      '    def __init__(self, config):',
      '        super().__init__()',
      '        self.n_head = config.n_head',
      '        self.n_embd = config.n_embd',
      '        self.qkv = nn.Linear(config.n_embd, 3 * config.n_embd)',
      '        self.proj = nn.Linear(config.n_embd, config.n_embd)',
      '    def forward(self, x):',
      '        B, T, C = x.size()',
      '        q, k, v = self.qkv(x).split(self.n_embd, dim=2)',
      '        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)',
      '        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)',
      '        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)',
      '        att = F.softmax(q @ k.transpose(-2, -1), dim=-1)',
      '        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)',
      '        return self.proj(y)',
      'class Net(nn.Module):',
      '    def __init__(self, config):',
      '        super().__init__()',
      '        self.attn = SelfAttention(config)',
      '    @classmethod',
      '    def from_pretrained(cls, name):',
      "        return cls(Config(**{'wide': dict(n_embd=96, n_head=8), 'narrow': dict(n_embd=64, n_head=2)}[name]))",
      '',
    ].join('\n');
    const heads = (a: Analysis) => {
      const m = a.modules.find((x) => x.name === 'SelfAttention')!;
      return `${m.built?.summary.params?.constant}: ${m.attention?.summary}`;
    };
    // 4·E² + 4·E: 16,640 at 64, 37,248 at 96; heads of C // n_head.
    assert.strictEqual(heads(await analyzeText(text)), '16640: 4 heads × 16');
    assert.strictEqual(heads(await analyzeText(text, 'python', undefined, undefined, ['wide'])), '37248: 8 heads × 12');
    assert.strictEqual(
      heads(await analyzeText(text, 'python', undefined, undefined, ['narrow'])),
      '16640: 2 heads × 32',
    );
  });

  test('a class built with its defaults lists them first among its configurations, and shows a chosen one instead', async () => {
    // nn.Linear(d, 10): 10·d + 10, for d = 64 (its defaults), 8 (a factory), 32 and 128 (a table).
    const text = `${HEAD}class Net(nn.Module):\n    def __init__(self, d=64):\n        super().__init__()\n        self.fc = nn.Linear(d, 10)\ndef build(size):\n    return Net({'s': 32, 'l': 128}[size])\ndef net_tiny():\n    return Net(d=8)\n`;
    const listed = (a: Analysis) =>
      a.modules[0].configurations?.map((c) => `${c.context}: ${c.params.constant}${c.active ? ' (shown)' : ''}`);
    const automatic = await analyzeText(text);
    assert.deepStrictEqual(listed(automatic), [
      'Net(): 650 (shown)',
      'net_tiny(): 90',
      "build('s'): 330",
      "build('l'): 1290",
    ]);
    assert.strictEqual(automatic.modules[0].built, undefined);
    // Where each is stated: the class, the factory, the preset function (0-based lines).
    assert.deepStrictEqual(
      automatic.modules[0].configurations?.map((c) => c.source?.startLine),
      [1, 7, 5, 5],
    );
    const chosen = await analyzeText(text, 'python', undefined, undefined, ['net_tiny']);
    assert.deepStrictEqual(listed(chosen), ['net_tiny(): 90 (shown)', "build('s'): 330", "build('l'): 1290"]);
    assert.strictEqual(chosen.modules[0].built?.summary.params?.constant, 90n);
    assert.strictEqual(lensTitle(chosen.layers[0]), '90 params · 8 → 10 · in net_tiny()');
    assert.strictEqual(builtWhere('Net', 'Net()'), 'with its defaults');
  });

  test("the user's own configuration: counted as the expression builds it, kept while the file is edited, nothing shown past the file", async () => {
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    const text = HEAD + CFG + MODEL;
    // nn.Linear(d, 3): 3·d + 3.
    const own = ['M(Cfg(d=5))'];
    const first = analyzer.update(text, undefined, undefined, undefined, [], own)!;
    assert.strictEqual(built(first), 'M(Cfg(d=5)) via M: 18');
    assert.deepStrictEqual(
      model(first)!.configurations!.map((c) => `${c.context}: ${c.params.constant}${c.active ? ' (shown)' : ''}`),
      ['M(Cfg(d=5)): 18 (shown)', 'M(Cfg()): 27'],
    );
    // No model of the file's own: the configuration alone, at its class.
    assert.deepStrictEqual(
      first.instances.map((i) => `${i.className} ${i.configuration} ${i.span.startLine}`),
      ['M M(Cfg(d=5)) 5'],
    );
    // A layer typed after the class: the configuration is still counted, and the new layer follows it.
    const line = '        self.out = nn.Linear(cfg.k, cfg.d)\n';
    const edited = typedAtEnd(analyzer, text, line, [], own)!;
    // 18 + nn.Linear(3, 5): 20.
    assert.strictEqual(built(edited), 'M(Cfg(d=5)) via M: 38');
    assert.ok(edited.layers.every((l) => l.span.end <= (text + line).length));
    // Without it, the file as it stands.
    const dropped = analyzer.update(text + line, undefined, undefined, undefined, [], []);
    assert.strictEqual(built(dropped), 'M(Cfg()): 59');
    analyzer.dispose();
  });

  test('configurations named in the settings: listed under their names, shown once chosen by name', async () => {
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    const text = HEAD + CFG + MODEL;
    // nn.Linear(d, 3): 3·d + 3; `other` names no class of the file and adds nothing.
    const listed = [
      { name: 'wide', expression: 'M(Cfg(d=10))' },
      { name: 'other', expression: 'Elsewhere(4)' },
    ];
    const listing = (a: Analysis) =>
      model(a)!.configurations!.map((c) => `${c.context}: ${c.params.constant}${c.active ? ' (shown)' : ''}`);
    const first = analyzer.update(text, undefined, undefined, undefined, [], [], listed)!;
    assert.deepStrictEqual(listing(first), ['wide: 33', 'M(Cfg()): 27 (shown)']);
    assert.deepStrictEqual(first.instances, []);
    const chosen = analyzer.update(text, undefined, undefined, undefined, ['wide'], [], listed)!;
    assert.deepStrictEqual(listing(chosen), ['wide: 33 (shown)', 'M(Cfg()): 27']);
    assert.strictEqual(built(chosen), 'wide via M: 33');
    analyzer.dispose();
  });

  test('a chosen configuration is sized as the same model built at module level is, at its class', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/presets.py');
    const text = readFileSync(file, 'utf8');
    const chosen = await analyzeText(text, 'python', file, undefined, ['gpt-small']);
    const built = await analyzeText(`${text}\nmodel = GPT.from_pretrained('gpt-small')\n`, 'python', file);
    const at = chosen.instances.find((i) => i.configuration === "GPT.from_pretrained('gpt-small')");
    const gpt = chosen.modules.find((m) => m.name === 'GPT')!;
    assert.deepStrictEqual(at?.span, gpt.span);
    assert.strictEqual(at.summary.params?.constant, 67104n);
    const model = built.instances.find((i) => i.className === 'GPT' && !i.configuration);
    assert.ok(at.sizing && model?.sizing);
    assert.deepStrictEqual(
      JSON.parse(JSON.stringify(at.sizing, (_, v) => (typeof v === 'bigint' ? String(v) : v))),
      JSON.parse(JSON.stringify(model.sizing, (_, v) => (typeof v === 'bigint' ? String(v) : v))),
    );
    // Its parts are no models of their own.
    assert.deepStrictEqual(
      chosen.instances.map((i) => i.className),
      ['GPT'],
    );
  });

  test('a chosen configuration keeps its sizing and heads while the file is edited (its runs are not replayed)', async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/presets.py');
    const text = readFileSync(file, 'utf8');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    const sized = (a: Analysis | undefined) =>
      a?.instances.filter((i) => i.configuration && i.sizing).map((i) => `${i.className} ${i.summary.params}`);
    assert.deepStrictEqual(sized(analyzer.update(text, undefined, undefined, undefined, ['gpt-small'])), [
      'GPT 67,104',
    ]);
    const line = '# a comment typed at the end\n';
    const edited = typedAtEnd(analyzer, text, line, ['gpt-small']);
    assert.deepStrictEqual(sized(edited), ['GPT 67,104']);
    analyzer.dispose();
  });

  test("size hints inside a class shown with a chosen configuration go, unless it is the file's own model", async () => {
    const file = path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py');
    const text = `${readFileSync(file, 'utf8')}\ndef small():\n    return GPT(GPTConfig(n_embd=96, n_head=4, n_layer=2))\n`;
    // MLP.forward's steps, as `model = GPT(GPTConfig())` (line 202) runs them: 4·768 features, then 768.
    const mlp = async (chosen: string[]) =>
      (await analyzeText(text, 'python', file, undefined, chosen)).hints
        .filter((h) => h.span.startLine >= 84 && h.span.startLine <= 87)
        .map((h) => Number(h.features.constant));
    assert.deepStrictEqual(await mlp([]), [3072, 3072, 768, 768]);
    assert.deepStrictEqual(await mlp(['GPT (line 202)']), [3072, 3072, 768, 768]);
    // small() builds it 96 wide: the model's 3,072 would be no size of it.
    assert.deepStrictEqual(await mlp(['small']), []);
  });

  test('a preset table without a configuration: the first name is shown; the names compared with, in order', async () => {
    const a = await analyzeText(
      `${HEAD}class E(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n        self.fc = nn.Linear(d, 2)\ndef encoder(name):\n    if name == 'b':\n        return E(4)\n    elif name != 'a':\n        raise ValueError(name)\n    return E(2)\n`,
    );
    const e = a.modules.find((m) => m.name === 'E')!;
    assert.deepStrictEqual(
      e.configurations?.map((c) => `${c.context}: ${c.params.constant}`),
      ["encoder('b'): 10", "encoder('a'): 6"],
    );
    assert.strictEqual(e.built?.context.split(' via ')[0], "encoder('b')");
    assert.strictEqual(a.layers[0].layer.params?.toString(), '10');
  });

  test('a registry of more names than a table holds, and a private helper, are run for no name', async () => {
    const names = Array.from({ length: 33 }, (_, i) => `'n${i}': ${i + 1}`).join(', ');
    const a = await analyzeText(
      `${HEAD}${CFG}${MODEL}TABLE = {${names}}\ndef build(name):\n    return M(Cfg(d=TABLE[name]))\ndef _build(name):\n    return M(Cfg(d={'x': 5}[name]))\n`,
    );
    assert.deepStrictEqual(
      model(a)!.configurations!.map((c) => c.context),
      ['M(Cfg())'],
    );
  });
});

suite("an editor's first analysis and the full one", () => {
  const SLOW = SLOW_FACTORIES;
  const run = async (depth: 'first' | 'full') =>
    new DocumentAnalyzer(await loadGrammars(), 'python').update(
      SLOW,
      undefined,
      undefined,
      undefined,
      [],
      [],
      [],
      depth,
    )!;
  const listed = (a: Analysis) => model(a)!.configurations!.map((c) => c.context);
  const truncated = (a: Analysis) => a.findings.filter((f) => f.code === 'analysis-truncated').length;

  test('a first analysis lists the factories its budget reached, says it left some out, and no truncation', async () => {
    const a = await run('first');
    assert.strictEqual(a.configurationsCut, true);
    const found = listed(a).length;
    assert.ok(found > 2 && found < 41, `${found} configurations`);
    assert.strictEqual(truncated(a), 0);
    // nn.Linear(d, 3000): 3,000·d + 3,000; f0 builds M(2).
    assert.strictEqual(model(a)!.configurations!.find((c) => c.context === 'f0()')?.params.constant, 9000n);
    const distinct = distinctConfigurations(model(a)!.configurations).length;
    assert.match(
      moduleLensTitle(model(a)!.summary, undefined, undefined, distinct, true),
      / · at least \d+ configurations$/,
    );
    assert.match(
      configurationsMarkdown(model(a)!.configurations, true),
      /^Built with at least \d+ different totals \(the work budget left some of the file's factories out\):/,
    );
  });

  test('a full analysis runs every factory: forty and the defaults, none left out', async () => {
    const a = await run('full');
    assert.strictEqual(a.configurationsCut, undefined);
    assert.deepStrictEqual(listed(a).sort(), [...Array.from({ length: 40 }, (_, i) => `f${i}()`), 'M()'].sort());
    assert.strictEqual(model(a)!.configurations!.find((c) => c.context === 'f39()')?.params.constant, 126000n);
    assert.strictEqual(truncated(a), 0);
  });

  test("a full analysis gives each factory ten times one model's steps, and says so where one runs past them", async () => {
    const source =
      'import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self, d=1, passes=1):\n        super().__init__()\n' +
      '        n = 0\n        for i in range(passes):\n            for j in range(1000):\n                n += 1\n' +
      '        self.fc = nn.Linear(d, n)\ndef big():\n    return M(2, 60)\ndef huge():\n    return M(2, 600)\n';
    const a = new DocumentAnalyzer(await loadGrammars(), 'python').update(
      source,
      undefined,
      undefined,
      undefined,
      [],
      [],
      [],
      'full',
    )!;
    // nn.Linear(2, 60_000): 180,000; huge() runs 600,000 passes, past a factory's allowance.
    assert.deepStrictEqual(
      model(a)!.configurations!.map((c) => [c.context, c.params.constant]),
      [
        ['M()', 2000n],
        ['big()', 180000n],
      ],
    );
    assert.deepStrictEqual(
      a.findings.filter((f) => f.code === 'analysis-truncated').map((f) => /\(([^)]*)\)/.exec(f.message)?.[1]),
      ['400,000 steps for one factory'],
    );
  });

  test("a part a factory builds and drops is no part of its model (timm's EfficientNetBuilder tries its attention layer)", async () => {
    const source =
      'import torch.nn as nn\nclass Probe(nn.Module):\n    def __init__(self, c):\n        super().__init__()\n        self.fc = nn.Linear(c, c)\n' +
      'class Net(nn.Module):\n    def __init__(self, width=16):\n        super().__init__()\n        Probe(8)\n        self.fc = nn.Linear(width, width)\n' +
      'def small():\n    return Net()\n';
    const a = await analyzeText(source);
    // PyTorch: neither Net() nor small() holds a Probe, Probe(8) being built and dropped; their Linear(16, 16)
    // holds 272. Both were listed as building a Probe of 72.
    assert.strictEqual(a.modules.find((m) => m.name === 'Probe')!.configurations, undefined);
    assert.strictEqual(a.modules.find((m) => m.name === 'Net')!.summary.params?.constant, 272n);
  });

  test('after a full analysis, a first one replays every factory an edit left alone', async () => {
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(SLOW, undefined, undefined, undefined, [], [], [], 'full');
    const line = '# a note\n';
    const a = analyzer.update(
      SLOW + line,
      [{ rangeOffset: SLOW.length, rangeLength: 0, text: line }],
      undefined,
      undefined,
      [],
      [],
      [],
      'first',
    )!;
    assert.strictEqual(a.configurationsCut, undefined);
    assert.strictEqual(listed(a).length, 41);
  });
});
