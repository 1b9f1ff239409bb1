/** The document service's pure parts: the bounded tree cache, buffered edits as one change, notebook cell views, the parse budget. */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { BoundedCache } from '../../src/service/boundedCache';
import { cellView } from '../../src/service/cellView';
import { changeBetween } from '../../src/syntax/textChange';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { fsWasmLoader } from '../../src/syntax/fsLoader';
import { Grammars } from '../../src/syntax/parser';
import { analyzeText, loadGrammars, ROOT } from './helpers';

class Tracked {
  disposed = 0;
  dispose(): void {
    this.disposed++;
  }
}

suite('bounded tree cache', () => {
  test('keeps the most recently used entries and disposes each evicted one once', () => {
    const cache = new BoundedCache<string, Tracked>(2);
    const [a, b, c] = [new Tracked(), new Tracked(), new Tracked()];
    cache.set('a', a);
    cache.set('b', b);
    cache.get('a');
    cache.set('c', c);
    assert.deepStrictEqual([cache.peek('a'), cache.peek('b'), cache.peek('c')], [a, undefined, c]);
    assert.deepStrictEqual([a.disposed, b.disposed, c.disposed], [0, 1, 0]);
    cache.delete('a');
    cache.dispose();
    assert.deepStrictEqual([a.disposed, b.disposed, c.disposed], [1, 1, 1]);
    assert.strictEqual(cache.size, 0);
  });

  test('replacing a value disposes the old one', () => {
    const cache = new BoundedCache<string, Tracked>(3);
    const [old, fresh] = [new Tracked(), new Tracked()];
    cache.set('k', old);
    cache.set('k', fresh);
    assert.deepStrictEqual([old.disposed, fresh.disposed, cache.size], [1, 0, 1]);
  });
});

suite('edits buffered between two analyses', () => {
  const apply = (text: string, c: { rangeOffset: number; rangeLength: number; text: string }) =>
    text.slice(0, c.rangeOffset) + c.text + text.slice(c.rangeOffset + c.rangeLength);

  test('one change turns the old text into the new one', () => {
    for (const [before, after] of [
      ['abc', 'abXc'],
      ['aaaa', 'aaaaa'],
      ['hello', ''],
      ['', 'new'],
      ['x = 1\ny = 2\n', 'x = 10\ny = 2\nz = 3\n'],
      ['a😀b', 'a😃b'],
    ]) {
      const change = changeBetween(before, after);
      assert.ok(change, `${before} -> ${after}`);
      assert.strictEqual(apply(before, change), after);
    }
    assert.strictEqual(changeBetween('same', 'same'), undefined);
  });

  test('never splits a surrogate pair', () => {
    const change = changeBetween('a😀b', 'a😃b');
    assert.deepStrictEqual(change, { rangeOffset: 1, rangeLength: 2, text: '😃' });
  });

  test('several keystrokes analysed as one change give what a fresh analysis gives', async () => {
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    let text = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), 'utf8');
    analyzer.update(text);
    try {
      // Three edits apart from each other (as typed between two analyses), then the whole burst at once.
      const next = text
        .replace('n_head: int = 12', 'n_head: int = 10')
        .replace('class MLP', 'ff = nn.Linear(64, 64)\n\n\nclass MLP')
        .concat('extra = nn.Linear(8, 8)\n');
      const change = changeBetween(text, next)!;
      text = next;
      const incremental = analyzer.update(text, [change]);
      const fresh = await analyzeText(text);
      const counts = (a: typeof fresh | undefined) =>
        a?.layers.map((l) => [l.span.startLine, l.layer.kind, l.layer.params?.toString()]);
      assert.deepStrictEqual(counts(incremental), counts(fresh));
      assert.deepStrictEqual(
        incremental?.findings.map((f) => [f.span.startLine, f.code]),
        fresh.findings.map((f) => [f.span.startLine, f.code]),
      );
    } finally {
      analyzer.dispose();
    }
  });
});

suite('notebook cell view', () => {
  test('only results inside the cell, in the cell’s lines: nothing of the cells above or below', async () => {
    const above = 'import torch.nn as nn\nD = 512\nfirst = nn.MultiheadAttention(D, 8)';
    const cell = 'second = nn.Linear(D, 10)\nbad = nn.MultiheadAttention(D, 10)';
    const below = 'third = nn.Linear(D, 20)\nworse = nn.MultiheadAttention(D, 7)';
    const whole = await analyzeText([above, cell, below].join('\n'));
    assert.strictEqual(whole.layers.length, 5);
    const view = cellView(whole, { start: above.length + 1, line: 3, length: cell.length });
    assert.deepStrictEqual(
      view.layers.map((l) => [l.span.startLine, l.span.startChar, l.span.start, l.layer.kind]),
      [
        [0, 9, 9, 'Linear'],
        [1, 6, cell.indexOf('nn.MultiheadAttention'), 'MultiheadAttention'],
      ],
    );
    assert.deepStrictEqual(
      view.findings.map((f) => [f.span.startLine, f.code]),
      [[1, 'heads-divisibility']],
    );
    for (const f of view.findings)
      for (const e of f.fixes.flatMap((x) => x.edits))
        assert.ok(e.span.startLine >= 0 && e.span.start >= 0 && e.span.end <= cell.length);
    const last = cellView(whole, { start: above.length + cell.length + 2, line: 5, length: below.length });
    assert.deepStrictEqual(
      last.findings.map((f) => [f.span.startLine, f.code]),
      [[1, 'heads-divisibility']],
    );
    assert.deepStrictEqual(
      last.layers.map((l) => l.span.startLine),
      [0, 1],
    );
  });
});

suite('a configuration seen from a notebook cell', () => {
  test('says where it is stated when that is in the cell, in the lines of the cell, and nowhere else', async () => {
    const classCell =
      'import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self, d=4):\n        super().__init__()\n        self.fc = nn.Linear(d, 2)';
    const factoryCell = 'def wide():\n    return Net(d=16)';
    const whole = await analyzeText(`${classCell}\n${factoryCell}`);
    const first = cellView(whole, { start: 0, line: 0, length: classCell.length });
    // Net() at its class in this cell (line 1 of it); wide() is stated in the next cell.
    assert.deepStrictEqual(
      first.modules[0].configurations?.map((c) => [c.context, c.source?.startLine]),
      [
        ['Net()', 1],
        ['wide()', undefined],
      ],
    );
  });
});

suite('parse budget', () => {
  test('a parse over its budget is abandoned and the document gets no analysis', async () => {
    const slow = await Grammars.load(fsWasmLoader, { maxChecks: 0 });
    const analyzer = new DocumentAnalyzer(slow, 'python');
    try {
      const text = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), 'utf8').repeat(50);
      assert.strictEqual(analyzer.update(text), undefined);
    } finally {
      analyzer.dispose();
      slow.dispose();
    }
  });
});
