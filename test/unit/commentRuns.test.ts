/**
 * Long runs of comment lines are blanked before a Python parse (their read-ahead is quadratic in
 * tree-sitter-python's scanner); what is analysed must be what the text without those comments gives,
 * and a run that is really inside a string must be left as it is.
 */
import * as assert from 'assert';
import { blankCommentRuns } from '../../src/syntax/commentRuns';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { analyzeText, loadGrammars } from './helpers';

const head = 'import torch.nn as nn\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n';
const tail = '        self.fc = nn.Linear(4, 4)\n';

const counts = (text: string) => analyzeText(text).then((a) => a.layers.map((l) => l.layer.params?.toString()));

suite('comment runs', () => {
  test('a run of 4,000 indented comment lines is parsed and changes nothing', async () => {
    const run = '        # self.x = nn.Linear(3, 3)  # "quoted" (\n'.repeat(4000);
    const text = `${head}${run}${tail}class B(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.g = nn.Linear(2, 5)\n`;
    const blanked = blankCommentRuns(text);
    assert.strictEqual(blanked.runs.length, 1);
    assert.strictEqual(blanked.text.length, text.length);
    assert.strictEqual(blanked.text.split('\n').length, text.split('\n').length);
    assert.deepStrictEqual(await counts(text), ['20', '15']);
  });

  test('comments between blank lines and at every indentation form one run', () => {
    const run = Array.from({ length: 200 }, (_, i) => `${' '.repeat(i % 9)}# c${i}\n\n`).join('');
    const blanked = blankCommentRuns(`${head}${run}${tail}`);
    assert.strictEqual(blanked.runs.length, 1);
    assert.ok(!blanked.text.includes('# c'));
  });

  test('short runs are left as they are', () => {
    const text = `${head}${'        # c\n'.repeat(40)}${tail}`;
    assert.strictEqual(blankCommentRuns(text).text, text);
  });

  test('a run of `#` lines inside a string stays in the string', async () => {
    const text = `import torch.nn as nn\ns = """\n${'    # c\n'.repeat(100)}"""\nfc = nn.Linear(len(s.split()), 2)\n`;
    assert.strictEqual(blankCommentRuns(text).runs.length, 1);
    assert.deepStrictEqual(await counts(text), ['402']);
  });

  test('so does one whose first line closes its string and opens another', async () => {
    const text = `import torch.nn as nn\ns = """\n# a """; n = 3; t = """\n${'# b\n'.repeat(100)}"""\nfc = nn.Linear(n, 2)\n`;
    assert.deepStrictEqual(await counts(text), ['8']);
  });

  test('typing in and around a long run gives what a fresh analysis gives', async () => {
    let text = `${head}${'        # self.x = nn.Linear(3, 3)\n'.repeat(300)}${tail}`;
    const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
    analyzer.update(text);
    const middle = text.indexOf('#', text.length / 2);
    const edits: [number, number, string][] = [
      [middle, 1, ''], // the comment becomes code
      [middle, 0, '#'],
      [text.indexOf(tail), 0, '        """\n'], // a docstring opens above the class's last line
      [text.indexOf(tail), 12, ''],
      [head.length, 0, 'x'.repeat(3)],
    ];
    try {
      for (const [at, remove, insert] of edits) {
        text = text.slice(0, at) + insert + text.slice(at + remove);
        const layers = (a: ReturnType<DocumentAnalyzer['update']>) =>
          a?.layers.map((l) => [l.span.start, l.layer.params?.toString()]);
        assert.deepStrictEqual(
          layers(analyzer.update(text, [{ rangeOffset: at, rangeLength: remove, text: insert }])),
          layers(await analyzeText(text)),
          `edit at ${at}`,
        );
      }
    } finally {
      analyzer.dispose();
    }
  });
});
