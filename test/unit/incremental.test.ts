/** Edits re-parse incrementally and reuse untouched statements; the result equals a fresh analysis. */
import * as assert from 'assert';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import type { Analysis } from '../../src/core/analysis';
import { analyzeText, loadGrammars } from './helpers';

const summary = (a: Analysis | undefined) => ({
  layers: a?.layers.map((l) => [l.span.startLine, l.span.startChar, l.span.start, l.layer.kind, l.layer.params?.toString()]),
  findings: a?.findings.map((f) => [f.span.startLine, f.code]),
});

suite('incremental analysis', () => {
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
