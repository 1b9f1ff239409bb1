/** Edits re-parse incrementally and reuse untouched statements; the result equals a fresh analysis. */
import * as assert from 'assert';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import type { Analysis } from '../../src/core/analysis';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, loadGrammars, ROOT } from './helpers';

const summary = (a: Analysis | undefined) => ({
  layers: a?.layers.map((l) => [l.span.startLine, l.span.startChar, l.span.start, l.span.end, l.span.endLine, l.layer.kind, l.layer.params?.toString(), l.layer.formula]),
  findings: a?.findings.map((f) => [f.span.startLine, f.span.start, f.code, f.message, f.fixes.map((x) => x.edits.map((e) => e.span.start))]),
});

/** A small deterministic generator, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const INSERTS = ['\n', '\n\n', ' ', '1', '0', '# note\n', 'x = 3\n', 'D_MODEL = 64\n', '(', ')', 'nn.Linear(4, 4)\n'];

suite('incremental analysis', () => {
  test('a sequence of edits anywhere gives what a fresh analysis gives', async () => {
    const files = ['test/fixtures/models/pytorch/gpt.py', 'test/fixtures/models/pytorch/encoder_classifier.py'];
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

  test('an edit introduces and then removes an error; positions below shift', async () => {
    const text = ['import torch.nn as nn', 'D = 512', 'a = nn.MultiheadAttention(D, 8)', '', 'b = nn.Linear(D, 10)', ''].join('\n');
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const offset = text.indexOf('8)');
    const broken = `${text.slice(0, offset)}10\n\n${text.slice(offset + 1)}`;
    const afterBreak = analyzer.update(broken, [{ rangeOffset: offset, rangeLength: 1, text: '10\n\n' }]);
    assert.deepStrictEqual(summary(afterBreak), summary(await analyzeText(broken)));
    assert.deepStrictEqual(afterBreak?.findings.map((f) => f.code), ['heads-divisibility']);
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
