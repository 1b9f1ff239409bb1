import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, codeLenses, hoverText, lensTitles, openFile, poll, positionOf } from './helpers';

// test/integration/workspace/attention.py, lines (0-based):
//   6  self.attn = nn.MultiheadAttention(512, 8)
//   7  self.proj = nn.Linear(512, 512)
//   8  self.empty = nn.Linear(0, 8)
suite('Python file: hover and CodeLens', () => {
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    doc = await openFile('attention.py');
    await activateExtension();
  });

  test('hover on nn.MultiheadAttention(512, 8) shows count, tensors and head size', async () => {
    const pos = positionOf(doc, 'MultiheadAttention', 5);
    const text = await poll(
      () => hoverText(doc.uri, pos),
      (t) => t.includes('1,050,624'),
    );
    assert.ok(text.includes('1,050,624'), `hover lacks 1,050,624:\n${text}`);
    assert.match(text, /in_proj_weight.*\[1536, 512\].*786,432/, `hover lacks the in_proj_weight row:\n${text}`);
    assert.match(text, /out_proj\.weight.*\[512, 512\].*262,144/, `hover lacks the out_proj.weight row:\n${text}`);
    assert.ok(text.includes('d_k = 512 / 8 = 64'), `hover lacks d_k:\n${text}`);
  });

  test('hover on nn.Linear(512, 512) shows 262,656', async () => {
    const text = await hoverText(doc.uri, positionOf(doc, 'nn.Linear(512', 4));
    assert.ok(text.includes('262,656'), `hover lacks 262,656:\n${text}`);
  });

  test('no hover away from layers and classes', async () => {
    const text = await hoverText(doc.uri, positionOf(doc, 'super().__init__', 2));
    assert.strictEqual(text, '', 'unexpected hover on super()');
  });

  test('CodeLens titles on the attention and linear lines', async () => {
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.length > 0,
    );
    assert.deepStrictEqual(
      titles.filter((t) => /^[67]:/.test(t)),
      ['6: 1,050,624 params · 8 heads × 64', '7: 262,656 params · 512 → 512'],
    );
    assert.ok(
      titles.every((t) => /^[3678]:/.test(t)),
      `lenses on unexpected lines: ${titles.join(' | ')}`,
    );
  });

  test('CodeLens opens the explain panel for attention, the details for other layers', async () => {
    const lenses = await codeLenses(doc.uri);
    const byLine = new Map(lenses.map((l) => [l.range.start.line, l.command?.command]));
    assert.strictEqual(byLine.get(6), 'attentionLens.explainShapes');
    const explain = lenses.find((l) => l.range.start.line === 6)!;
    assert.deepStrictEqual(
      explain.command?.arguments,
      [[doc.uri.toString(), 6, explain.range.start.character]],
      'one [uri, line, character] argument',
    );
    assert.strictEqual(byLine.get(7), 'attentionLens.showDetails');
  });
});
