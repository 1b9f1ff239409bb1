/**
 * An unclosed bracket made tree-sitter-python take the rest of the file into one error: every layer below
 * the line being typed was lost. The broken top-level statement is left out; what follows is analysed.
 */
import * as assert from 'assert';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { changeBetween } from '../../src/syntax/textChange';
import { blankUnclosedBrackets } from '../../src/syntax/unclosedBrackets';
import { analyzeText, loadGrammars } from './helpers';

const layers = (
  a: { layers: readonly { span: { startLine: number }; layer: { params?: { toString(): string } } }[] } | undefined,
) => a?.layers.map((l) => `${l.span.startLine}: ${l.layer.params?.toString()}`);

const classes = (inA: string) =>
  `import torch.nn as nn\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n${inA}        self.fc = nn.Linear(4, 4)\n\nclass B(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(5, 5)\n\n    def forward(self, x):\n        return self.fc(x)\n`;

suite('statements an unclosed bracket swallowed', () => {
  test('a module-level call left open loses only its own line', async () => {
    const text =
      'import torch.nn as nn\nx1 = nn.Linear(1, 4)\ny = nn.Linear(3,\nx2 = nn.Linear(2, 4)\nif True:\n    x3 = nn.Linear(3, 4)\nelse:\n    x3 = None\n';
    assert.deepStrictEqual(layers(await analyzeText(text)), ['1: 8', '3: 12', '5: 16']);
  });

  test('a class holding an open call gives nothing; the class below it is analysed', async () => {
    const analysis = await analyzeText(classes('        self.a = nn.Linear(3,\n'));
    assert.deepStrictEqual(layers(analysis), ['10: 30']);
    assert.deepStrictEqual(
      analysis.modules.map((m) => [m.name, m.summary.params?.toString()]),
      [['B', '30']],
    );
  });

  test('a class whose constructor holds a statement that does not parse gives nothing, not a total without it', async () => {
    const analysis = await analyzeText(classes('        self.a = nn.Linear 3, 4\n'));
    assert.deepStrictEqual(layers(analysis), ['10: 30']);
    assert.deepStrictEqual(
      analysis.modules.map((m) => m.name),
      ['B'],
    );
  });

  test('a line at column 0 inside a string the broken statement holds is no statement of its own', async () => {
    const text = 'import torch.nn as nn\ny = nn.Linear(3, """\nx = nn.Linear(7, 7)\n"""\nfc = nn.Linear(2, 2)\n';
    assert.deepStrictEqual(layers(await analyzeText(text)), ['4: 6']);
  });

  test('typing a layer key by key without closing brackets: each version as a fresh analysis gives it, the class below always there', async () => {
    const typed = '        self.a = nn.Linear(3, 4)\n';
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    try {
      let text = classes('');
      analyzer.update(text);
      for (let n = 1; n <= typed.length; n++) {
        const next = classes(typed.slice(0, n) + (typed.slice(0, n).endsWith('\n') ? '' : '\n'));
        const incremental = analyzer.update(next, [changeBetween(text, next)!]);
        assert.deepStrictEqual(
          layers(incremental),
          layers(await analyzeText(next)),
          `after ${JSON.stringify(typed.slice(0, n))}`,
        );
        assert.ok(
          layers(incremental)!.some((l) => l.endsWith(': 30')),
          `class B after ${JSON.stringify(typed.slice(0, n))}`,
        );
        text = next;
      }
    } finally {
      analyzer.dispose();
    }
  });
});

suite('brackets never closed, blanked before the parse', () => {
  const opened = (text: string) =>
    [...blankUnclosedBrackets(text)].flatMap((c, i) => (c === text[i] ? [] : [`${text[i]}@${i}`]));

  test('valid Python is left as it is: brackets over lines at column 0, strings, f-strings, comments, continuations', () => {
    const text = [
      'x = dict(',
      'a=1,',
      ')',
      's = "(" + \'[\' + """',
      'class NotOne(',
      '"""',
      'f"{d["k"]} {{ ( {w:{n}}"',
      "rb'\\'('",
      '# (',
      'y = [1, \\',
      '2]',
      'z = (1 if a',
      'else 2)',
      'w = [v',
      'for v in u]',
      '',
    ].join('\n');
    assert.deepStrictEqual(opened(text), []);
  });

  test('a bracket open where a line starts a statement is blanked, and so is one open at the end', () => {
    const text = 'a = nn.Linear(2, 3) + {\nl = nn.Linear(1, 1)\nclass C:\n    pass\nb = f([';
    assert.deepStrictEqual(opened(text), ['{@22', '(@67', '[@68']);
    assert.strictEqual(blankUnclosedBrackets(text).length, text.length);
  });

  test('an unclosed dict early in a long file: every statement after it is analysed, exactly', async () => {
    const blocks = Array.from({ length: 600 }, (_, i) =>
      i % 3
        ? `l${i} = nn.Linear(${i}, 2)`
        : `class C${i}(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, ${i})`,
    );
    blocks[10] += ' + {';
    const analysis = await analyzeText(`import torch.nn as nn\n${blocks.join('\n')}\n`);
    const last = analysis.layers[analysis.layers.length - 1];
    assert.strictEqual(last.layer.params?.constant, 599n * 2n + 2n);
    assert.strictEqual(analysis.layers.length, 599);
  });
});
