/** Edits re-parse incrementally and reuse untouched statements; the result equals a fresh analysis. */
import * as assert from 'assert';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import type { Analysis } from '../../src/core/analysis/analyze';
import type { AnalysisCache } from '../../src/core/analysis/cache';
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, loadGrammars, ROOT } from './helpers';

const summary = (a: Analysis | undefined) => ({
  layers: a?.layers.map((l) => [
    l.span.startLine,
    l.span.startChar,
    l.span.start,
    l.span.end,
    l.span.endLine,
    l.layer.kind,
    l.layer.params?.toString(),
    l.layer.formula,
    l.values.map((v) => `${v.params}@${v.context}`),
  ]),
  findings: a?.findings.map((f) => [
    f.span.startLine,
    f.span.start,
    f.code,
    f.message,
    f.fixes.map((x) => x.edits.map((e) => e.span.start)),
    f.related?.map((r) => r.span.start),
  ]),
  modules: a?.modules.map((m) => [
    m.name,
    m.span.start,
    m.extent.end,
    m.summary.params?.toString(),
    m.summary.reason,
    m.built?.context,
  ]),
  instances: a?.instances.map((i) => [i.className, i.span.start, i.summary.params?.toString()]),
  parts: a?.parts.map((p) => [
    p.className,
    p.span.start,
    p.span.startLine,
    p.span.endChar,
    p.summary.params?.toString(),
    p.values.map((v) => `${v.params}@${v.context}×${v.contexts}`),
  ]),
  hints: a?.hints.map((h) => [h.span.start, h.features.toString()]),
});

/** A small deterministic generator, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Types each digit over the one after `(3, ` in `text`, one version each: the last text and its analysis. */
function retype(
  analyzer: DocumentAnalyzer,
  text: string,
  digits: readonly string[],
): { current: string; incremental: Analysis | undefined } {
  let current = text;
  let incremental: Analysis | undefined;
  for (const digit of digits) {
    const at = current.indexOf('(3, ') + 4;
    current = `${current.slice(0, at)}${digit}${current.slice(at + 1)}`;
    incremental = analyzer.update(current, [{ rangeOffset: at, rangeLength: 1, text: digit }]);
  }
  return { current, incremental };
}

const INSERTS = ['\n', '\n\n', ' ', '1', '0', '# note\n', 'x = 3\n', 'D_MODEL = 64\n', '(', ')', 'nn.Linear(4, 4)\n'];

suite('incremental analysis', () => {
  test('a sequence of edits anywhere gives what a fresh analysis gives', async () => {
    const files = [
      'test/fixtures/models/pytorch/gpt.py',
      'test/fixtures/models/pytorch/encoder_classifier.py',
      'test/fixtures/models/pytorch/attention_mistakes.py',
      'test/fixtures/models/pytorch/annotated_transformer.py',
      'test/fixtures/models/pytorch/shape_errors.py',
    ];
    for (const file of files) {
      let text = readFileSync(path.join(ROOT, file), 'utf8');
      const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
      analyzer.update(text);
      const random = lcg(file.length);
      for (let i = 0; i < 40; i++) {
        const at = Math.floor(random() * text.length);
        const remove = random() < 0.4 ? Math.floor(random() * 6) : 0;
        const insert = random() < 0.8 ? INSERTS[Math.floor(random() * INSERTS.length)] : '';
        const next = text.slice(0, at) + insert + text.slice(at + remove);
        const incremental = analyzer.update(next, [{ rangeOffset: at, rangeLength: remove, text: insert }]);
        assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)), `${file}, edit ${i} at ${at}`);
        text = next;
      }
      analyzer.dispose();
    }
  });

  test('so do edits in every fixture, methods inserted anywhere and definitions broken midway included', async function () {
    // Each broken version analyses the statements below the break too, freshly and incrementally.
    this.timeout(90_000);
    const dir = path.join(ROOT, 'test/fixtures/models/pytorch');
    const inserts = [...INSERTS, '    def extra(self):\n        return nn.Linear(self.d, 3)\n'];
    const grammars = await loadGrammars();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.py'))) {
      let text = readFileSync(path.join(dir, file), 'utf8');
      const analyzer = new DocumentAnalyzer(grammars, 'python');
      analyzer.update(text);
      const random = lcg(file.length * 13 + 9);
      for (let i = 0; i < 25; i++) {
        const at = Math.floor(random() * text.length);
        const remove = random() < 0.4 ? Math.floor(random() * 6) : 0;
        const insert = random() < 0.8 ? inserts[Math.floor(random() * inserts.length)] : '';
        const next = text.slice(0, at) + insert + text.slice(at + remove);
        const incremental = analyzer.update(next, [{ rangeOffset: at, rangeLength: remove, text: insert }]);
        assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)), `${file}, edit ${i} at ${at}`);
        text = next;
      }
      analyzer.dispose();
    }
  });

  test('pastes, deletions and several changes in one event give what a fresh analysis gives', async () => {
    const files = [
      'test/fixtures/models/pytorch/interpreter.py',
      'test/fixtures/models/pytorch/gpt.py',
      'test/fixtures/models/pytorch/loops.py',
    ];
    const donor = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/vision_transformer.py'), 'utf8');
    for (const file of files) {
      let text = readFileSync(path.join(ROOT, file), 'utf8');
      const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
      analyzer.update(text);
      const random = lcg(file.length * 7);
      for (let i = 0; i < 30; i++) {
        const kind = i % 3;
        let next: string;
        let changes: { rangeOffset: number; rangeLength: number; text: string }[];
        if (kind === 0) {
          // A paste of a few lines of another model file.
          const from = Math.floor(random() * (donor.length - 200));
          const pasted = donor.slice(from, from + Math.floor(random() * 200));
          const at = text.lastIndexOf('\n', Math.floor(random() * text.length)) + 1;
          next = text.slice(0, at) + pasted + text.slice(at);
          changes = [{ rangeOffset: at, rangeLength: 0, text: pasted }];
        } else if (kind === 1) {
          // A deletion of up to a few lines.
          const at = Math.floor(random() * text.length);
          const remove = Math.floor(random() * 120);
          next = text.slice(0, at) + text.slice(at + remove);
          changes = [{ rangeOffset: at, rangeLength: remove, text: '' }];
        } else {
          // Two changes in one event (multi-cursor typing), reported against the text before both.
          const a = Math.floor(random() * text.length);
          const b = Math.min(text.length, a + 1 + Math.floor(random() * 300));
          const insert = INSERTS[Math.floor(random() * INSERTS.length)];
          next = text.slice(0, a) + insert + text.slice(a, b) + insert + text.slice(b);
          changes = [
            { rangeOffset: b, rangeLength: 0, text: insert },
            { rangeOffset: a, rangeLength: 0, text: insert },
          ];
        }
        const incremental = analyzer.update(next, changes);
        assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)), `${file}, edit ${i}`);
        text = next;
      }
      analyzer.dispose();
    }
  });

  test('typing in one class keeps one cached build per run, not one more for each version of the class', async () => {
    let text = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), 'utf8');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    const kept = () => (analyzer as unknown as { cache: AnalysisCache }).cache.builds.size;
    analyzer.update(text);
    const first = kept();
    assert.ok(first > 0);
    const at = text.indexOf('(', text.indexOf('nn.Linear(')) + 1;
    for (let i = 0; i < 10; i++) {
      const insert = i % 2 === 0 ? '1 + ' : '';
      const remove = i % 2 === 0 ? 0 : 4;
      const next = text.slice(0, at) + insert + text.slice(at + remove);
      analyzer.update(next, [{ rangeOffset: at, rangeLength: remove, text: insert }]);
      text = next;
    }
    assert.strictEqual(kept(), first);
    analyzer.dispose();
  });

  test('a method no run reaches, in a class replayed after an edit elsewhere, still runs on the class built with its defaults', async () => {
    const text = [
      'import torch.nn as nn',
      '',
      'class A(nn.Module):',
      '    def __init__(self, d=8):',
      '        super().__init__()',
      '        self.d = d',
      '        self.l = nn.Linear(d, d)',
      '',
      '    def make(self):',
      '        return nn.Linear(self.d, 2 * self.d)',
      '',
      'class B(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.q = nn.Linear(3, 4)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const at = text.indexOf('Linear(3') + 7;
    const next = `${text.slice(0, at)}2${text.slice(at + 1)}`;
    const incremental = analyzer.update(next, [{ rangeOffset: at, rangeLength: 1, text: '2' }]);
    assert.deepStrictEqual(
      incremental?.layers.find((l) => l.span.startLine === 9)?.values.map((v) => v.params?.toString()),
      ['144'],
    );
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)));
    analyzer.dispose();
  });

  test('contexts that name a line ("Transformer (line 210) via …") follow an edit that adds a line above', async () => {
    // The two edits a random sequence found: module code added, then a line added inside a class above.
    let text = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/detr_style.py'), 'utf8');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    let incremental: Analysis | undefined;
    for (const [at, insert] of [
      [7963, 'x = 3\n'],
      [1825, 'nn.Linear(4, 4)\n'],
    ] as const) {
      text = `${text.slice(0, at)}${insert}${text.slice(at)}`;
      incremental = analyzer.update(text, [{ rangeOffset: at, rangeLength: 0, text: insert }]);
    }
    assert.ok(incremental?.layers.some((l) => l.values.some((v) => v.context.includes('(line '))));
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(text)));
    analyzer.dispose();
  });

  test('a constant read through another binding is read again when it changes', async () => {
    const text = ['import torch.nn as nn', 'D = 64', 'cfg = dict(d=D)', 'fc = nn.Linear(cfg["d"], 2)', ''].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    assert.strictEqual(analyzer.update(text)?.layers[0].layer.params?.constant, 130n);
    const at = text.indexOf('64');
    const next = `${text.slice(0, at)}32${text.slice(at + 2)}`;
    assert.strictEqual(
      analyzer.update(next, [{ rangeOffset: at, rangeLength: 2, text: '32' }])?.layers[0].layer.params?.constant,
      66n,
    );
    analyzer.dispose();
  });

  test('a module constant computed by a function is read again when the function changes', async () => {
    // The constant's statement is the same; the value it binds is not.
    const text = [
      'import torch.nn as nn',
      'def width():',
      '    return 4',
      'X = width()',
      'class M(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(X, 2)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    assert.strictEqual(analyzer.update(text)?.modules[0].summary.params?.constant, 10n);
    const at = text.indexOf('4');
    const next = `${text.slice(0, at)}8${text.slice(at + 1)}`;
    const incremental = analyzer.update(next, [{ rangeOffset: at, rangeLength: 1, text: '8' }]);
    assert.strictEqual(incremental?.modules[0].summary.params?.constant, 18n);
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)));
    analyzer.dispose();
  });

  test('module constants bound again from the last version are as they stood before later statements changed them', async () => {
    // `cfg` is bound again from the last version while the class is typed in; a copy of it as its statement
    // left it, not the dict the next statement changed.
    const text = [
      'import torch.nn as nn',
      'cfg = dict(d=4)',
      'A = cfg["d"]',
      'cfg["d"] = 8',
      'class M(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.a = nn.Linear(A, 2)',
      '        self.b = nn.Linear(cfg["d"], 2)',
      '        self.c = nn.Linear(3, 3)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const { current, incremental } = retype(analyzer, text, ['4', '5', '6']);
    assert.strictEqual(incremental?.modules[0].summary.params?.constant, 10n + 18n + 3n * 6n + 6n);
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(current)));
    analyzer.dispose();
  });

  test('class bodies run where their class is defined keep their layers and constants while another class is typed in', async () => {
    const text = [
      'import torch.nn as nn',
      'D = 4',
      'class M(nn.Module):',
      '    act = nn.Linear(D, D)',
      '    width = 3',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(self.width, 2)',
      'class P(nn.Module):',
      '    depth = D + 1',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(self.depth, 2)',
      'class N(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(3, 3)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const { current, incremental } = retype(analyzer, text, ['4', '5', '6']);
    assert.ok(incremental?.layers.some((l) => l.span.startLine === 3 && l.layer.params?.constant === 20n));
    assert.deepStrictEqual(
      incremental?.modules.map((m) => m.summary.params?.constant),
      [8n, 12n, 24n],
    );
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(current)));
    analyzer.dispose();
  });

  test('a class renamed key by key is the class its users name once the name matches', async () => {
    const text = [
      'import torch.nn as nn',
      'class Blk(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(2, 2)',
      'class M(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.b = Block()',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    let current = text;
    let incremental: Analysis | undefined;
    for (const [after, key] of [
      ['class Bl', 'o'],
      ['class Blo', 'c'],
    ] as const) {
      const at = current.indexOf(after) + after.length;
      current = `${current.slice(0, at)}${key}${current.slice(at)}`;
      incremental = analyzer.update(current, [{ rangeOffset: at, rangeLength: 0, text: key }]);
      assert.deepStrictEqual(summary(incremental), summary(await analyzeText(current)));
    }
    assert.strictEqual(incremental?.modules.find((m) => m.name === 'M')?.summary.params?.constant, 6n);
    analyzer.dispose();
  });

  test('a class an edit names makes its calls in statements the edit left alone layer sites', async () => {
    // `Blk(2, 2)` builds a subclass of nn.Linear: a layer site once `Blk` is a class of the file.
    const text = [
      'import torch.nn as nn',
      'class Blx(nn.Linear):',
      '    pass',
      'class M(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = Blk(2, 2)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    assert.deepStrictEqual(analyzer.update(text)?.layers.length, 0);
    const at = text.indexOf('Blx') + 2;
    const next = `${text.slice(0, at)}k${text.slice(at + 1)}`;
    const incremental = analyzer.update(next, [{ rangeOffset: at, rangeLength: 1, text: 'k' }]);
    assert.deepStrictEqual(
      incremental?.layers.map((l) => [l.span.startLine, l.layer.params?.constant]),
      [[6, 6n]],
    );
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)));
    analyzer.dispose();
  });

  test('a class shadowed by one defined further down is read again', async () => {
    const text = [
      'import torch.nn as nn',
      'class P(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(2, 2)',
      'class M(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.p = P()',
      'class Q(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      '        self.fc = nn.Linear(4, 4)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const at = text.indexOf('class Q') + 6;
    const next = `${text.slice(0, at)}P${text.slice(at + 1)}`;
    const incremental = analyzer.update(next, [{ rangeOffset: at, rangeLength: 1, text: 'P' }]);
    assert.strictEqual(incremental?.modules.find((m) => m.name === 'M')?.summary.params?.constant, 20n);
    assert.deepStrictEqual(summary(incremental), summary(await analyzeText(next)));
    analyzer.dispose();
  });

  test('an edit introduces and then removes an error; positions below shift', async () => {
    const text = [
      'import torch.nn as nn',
      'D = 512',
      'a = nn.MultiheadAttention(D, 8)',
      '',
      'b = nn.Linear(D, 10)',
      '',
    ].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const offset = text.indexOf('8)');
    const broken = `${text.slice(0, offset)}10\n\n${text.slice(offset + 1)}`;
    const afterBreak = analyzer.update(broken, [{ rangeOffset: offset, rangeLength: 1, text: '10\n\n' }]);
    assert.deepStrictEqual(summary(afterBreak), summary(await analyzeText(broken)));
    assert.deepStrictEqual(
      afterBreak?.findings.map((f) => f.code),
      ['heads-divisibility'],
    );
    const fixedOffset = broken.indexOf('10\n\n)');
    const fixed = `${broken.slice(0, fixedOffset)}8${broken.slice(fixedOffset + 4)}`;
    const afterFix = analyzer.update(fixed, [{ rangeOffset: fixedOffset, rangeLength: 4, text: '8' }]);
    assert.deepStrictEqual(summary(afterFix), summary(await analyzeText(fixed)));
    assert.strictEqual(afterFix?.findings.length, 0);
    analyzer.dispose();
  });

  test('an edit to a constant changes the counts of layers that use it elsewhere', async () => {
    const text = ['import torch.nn as nn', 'D = 512', 'def f():', '    return nn.Linear(D, D)', ''].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const offset = text.indexOf('512');
    const edited = `${text.slice(0, offset)}256${text.slice(offset + 3)}`;
    const result = analyzer.update(edited, [{ rangeOffset: offset, rangeLength: 3, text: '256' }]);
    assert.strictEqual(result?.layers[0].layer.params?.constant, 256n * 256n + 256n);
    analyzer.dispose();
  });
});
