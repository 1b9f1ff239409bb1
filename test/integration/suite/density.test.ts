import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, hoverMarkdown, hoverText, lensTitles, openFile, poll, positionOf } from './helpers';

// test/integration/workspace/density.py (0-based lines)
//   3 class Block (2,101,248)   6 self.attn = nn.MultiheadAttention(d, heads)   7 self.ff = nn.Linear(d, 4 * d)
//  10 class Head(d)            13 self.proj = nn.Linear(d, d)
//  16 class Stack              19 self.block = Block()   20 self.head = Head(64)
//  23 class Lonely(d)          26 self.proj = nn.Linear(d, d)
//  29 model = Stack()          31 lone = Head(width), width not known
const set = (key: string, value: unknown) =>
  vscode.workspace.getConfiguration('attentionLens').update(key, value, vscode.ConfigurationTarget.Global);

async function inlineHints(doc: vscode.TextDocument): Promise<string[]> {
  const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
    'vscode.executeInlayHintProvider',
    doc.uri,
    new vscode.Range(0, 0, doc.lineCount, 0),
  );
  return (hints ?? [])
    .map(
      (h) =>
        `${h.position.line}:${h.position.character} ${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}`,
    )
    .sort();
}

const lines = (titles: string[]) => titles.map((t) => Number(t.split(':')[0])).sort((a, b) => a - b);

suite('density: CodeLens modes and inline counts', () => {
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    doc = await openFile('density.py');
    await activateExtension();
  });
  teardown(async () => {
    for (const key of ['codeLens.mode', 'codeLens.enabled', 'inline.enabled']) await set(key, undefined);
  });

  test('"all" (the default): every layer, class and model', async () => {
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.length >= 10,
    );
    assert.deepStrictEqual(lines(titles), [3, 6, 7, 10, 13, 16, 23, 26, 29, 31]);
    assert.ok(titles.includes('6: 1,050,624 params · 8 heads × 64'), titles.join('\n'));
    assert.ok(titles.includes('3: 2,101,248 params (2.1 M)'), titles.join('\n'));
    // A class no model builds with numbers says so in words that read after its name.
    assert.ok(titles.includes('23: needs arguments'), titles.join('\n'));
    assert.ok(titles.includes('31: Head: total not known'), titles.join('\n'));
  });

  test('"classes": model classes and models only', async () => {
    await set('codeLens.mode', 'classes');
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.length === 6,
    );
    assert.deepStrictEqual(lines(titles), [3, 10, 16, 23, 29, 31]);
  });

  test('"off": none; and codeLens.enabled: false of 0.1 still turns them off while the mode is not set', async () => {
    await set('codeLens.mode', 'off');
    assert.deepStrictEqual(
      await poll(
        () => lensTitles(doc.uri),
        (t) => t.length === 0,
      ),
      [],
    );
    await set('codeLens.mode', undefined);
    await set('codeLens.enabled', false);
    assert.deepStrictEqual(
      await poll(
        () => lensTitles(doc.uri),
        (t) => t.length === 0,
      ),
      [],
    );
    await set('codeLens.mode', 'classes');
    assert.strictEqual(
      (
        await poll(
          () => lensTitles(doc.uri),
          (t) => t.length === 6,
        )
      ).length,
      6,
      'a mode set wins over the old switch',
    );
  });

  test('inline: layers at the end of their lines, the count alone; classes keep their lens; everything inline with lenses off', async () => {
    assert.deepStrictEqual(await inlineHints(doc), [], 'no inline counts unless asked');
    await set('inline.enabled', true);
    const hints = await poll(
      () => inlineHints(doc),
      (h) => h.length === 4,
    );
    const end = (line: number) => `${line}:${doc.lineAt(line).text.length}`;
    assert.deepStrictEqual(hints, [
      `${end(13)} d² + d`,
      `${end(26)} d² + d`,
      `${end(6)} 1,050,624`,
      `${end(7)} 1,050,624`,
    ]);
    assert.deepStrictEqual(
      lines(
        await poll(
          () => lensTitles(doc.uri),
          (t) => t.length === 6,
        ),
      ),
      [3, 10, 16, 23, 29, 31],
      'no layer counted twice',
    );
    await set('codeLens.mode', 'off');
    assert.strictEqual(
      (
        await poll(
          () => inlineHints(doc),
          (h) => h.length === 10,
        )
      ).length,
      10,
    );
    assert.deepStrictEqual(
      await poll(
        () => lensTitles(doc.uri),
        (t) => t.length === 0,
      ),
      [],
    );
  });

  // The command of a label part does not cross vscode.executeInlayHintProvider; the end-to-end run clicks one.
  test('an inline count on attention offers its walkthrough, as its lens does', async () => {
    await set('inline.enabled', true);
    const hints = await poll(
      async () =>
        (await vscode.commands.executeCommand<vscode.InlayHint[]>(
          'vscode.executeInlayHintProvider',
          doc.uri,
          new vscode.Range(6, 0, 7, 0),
        )) ?? [],
      (h) => h.length === 1,
    );
    const label = hints[0].label as vscode.InlayHintLabelPart[];
    // The count alone, so that it stays on screen after a long line; what the lens says is its tooltip.
    assert.deepStrictEqual(
      label.map((p) => [p.value, p.tooltip]),
      [['1,050,624', '1,050,624 params · 8 heads × 64\n\nExplain attention shapes']],
    );
  });
});

suite('hovers: short, More, sub-modules and every model', () => {
  let doc: vscode.TextDocument;
  let api: { modelStatus(): string | undefined };
  suiteSetup(async () => {
    doc = await openFile('density.py');
    api = (await activateExtension()).exports as typeof api;
  });

  test('a layer\'s hover is short; "More" shows the notes that teach', async () => {
    const at = positionOf(doc, 'MultiheadAttention', 3);
    const short = await poll(
      () => hoverMarkdown(doc.uri, at),
      (t) => t.includes('1,050,624'),
    );
    assert.ok(short.includes('d_k = 512 / 8 = 64 features per head'), short);
    assert.ok(!short.includes('holds no parameters'), short);
    const more = /\[More\]\(command:attentionLens\.moreDetails\?([^ )]+)/.exec(short);
    assert.ok(more, `no More link in:\n${short}`);
    assert.ok(short.includes('[Explain attention shapes](command:attentionLens.explainShapes?'), short);
    const args = JSON.parse(decodeURIComponent(more[1])) as unknown[];
    await vscode.commands.executeCommand('attentionLens.moreDetails', ...args);
    const full = await hoverText(doc.uri, at);
    assert.ok(full.includes('holds no parameters') && full.includes('1,050,624'), full);
    assert.ok(!full.includes('[More]'), 'no More once everything is shown');
    // Elsewhere and back: short again.
    await hoverText(doc.uri, positionOf(doc, 'nn.Linear(d, 4 * d)', 4));
    assert.ok(!(await hoverText(doc.uri, at)).includes('holds no parameters'));
  });

  test("a sub-module's call: its total, the model building it, and where its class is", async () => {
    const text = await hoverText(doc.uri, positionOf(doc, 'Block()', 1));
    assert.ok(text.includes('**Block**: 2,101,248 parameters (2.1 M), as built in Stack (line 30)'), text);
    assert.ok(text.includes('Class defined on line 4.'), text);
    assert.ok((await hoverText(doc.uri, positionOf(doc, 'Head(64)', 1))).includes('**Head**: 4,160 parameters'));
  });

  test('every model built at module level has a hover, with a total or without', async () => {
    assert.ok(
      (await hoverText(doc.uri, positionOf(doc, 'Stack()', 1))).includes(
        '**Stack**: 2,105,408 parameters (2.1 M), as built here',
      ),
    );
    const lone = await hoverText(doc.uri, positionOf(doc, 'Head(width)', 1));
    assert.ok(lone.startsWith('**Head**: '), lone);
  });

  test('the status bar reads as a sentence after the class name', async () => {
    const editor = await vscode.window.showTextDocument(doc);
    const inside = positionOf(doc, 'self.proj = nn.Linear(d, d)', 0, 1);
    editor.selection = new vscode.Selection(inside, inside);
    assert.strictEqual(
      await poll(
        () => api.modelStatus(),
        (t) => t?.includes('Lonely') ?? false,
      ),
      '$(symbol-class) Lonely: needs arguments',
    );
  });
});
