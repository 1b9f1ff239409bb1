/** Text from the user's file reaches hover markdown escaped: rendered, it reads as written and nothing else. */
import * as assert from 'assert';
import { codeSpan, escapeMarkdown } from '../../src/core/present/markdown';
import { hoverMarkdown, moduleHoverMarkdown } from '../../src/core/present/format';
import { analyzeText } from './helpers';

// A CommonMark renderer with HTML and bare-link detection on: stricter than VS Code's hover (no HTML).
// It comes with @vscode/vsce, a dev dependency already.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: object) => {
  render(src: string): string;
  renderInline(src: string): string;
};
const renderer = new MarkdownIt({ html: true, linkify: true });

const decode = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const HOSTILE = [
  '![](https://host/?k=',
  'a["![](https://host/?k="]',
  '![x](https://host/x.png)',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[a](command:attentionLens.explainShapes?%5B%5D)',
  '[a]: command:workbench.action.terminal.new',
  'https://host/x and www.host.com and a@b.co',
  '`code` and ``two`` and a lone `',
  '\\',
  'ends with a backslash \\',
  '\\`',
  '*bold* _em_ __dunder__ d_k ~~strike~~',
  '# heading',
  '- item',
  '1. item',
  '> quote',
  '| a | b |',
  '&amp; &lt;b&gt; &#x41;',
  '$(alert) {braces} ^caret',
];

suite('markdown escaping of text from the file', () => {
  for (const input of HOSTILE) {
    test(`escapeMarkdown: ${JSON.stringify(input)}`, () => {
      const html = renderer.render(escapeMarkdown(input)).trim();
      assert.ok(html.startsWith('<p>') && html.endsWith('</p>'), html);
      const inner = html.slice(3, -4);
      assert.doesNotMatch(inner, /<(?!\/?p>)/, `a tag was rendered: ${inner}`);
      assert.strictEqual(decode(inner), input);
    });

    test(`codeSpan: ${JSON.stringify(input)}`, () => {
      const html = renderer.renderInline(codeSpan(input));
      const m = /^<code>([^<]*)<\/code>$/.exec(html);
      assert.ok(m, `not one code span: ${html}`);
      // A leading or trailing backtick is padded with a space, which the renderer strips again.
      assert.strictEqual(decode(m[1]), input);
    });

    test(`codeSpan in a table cell: ${JSON.stringify(input)}`, () => {
      const html = renderer.render(`| a | b |\n|---|---|\n| ${codeSpan(input, true)} | x |`);
      const cells = [...html.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]);
      assert.strictEqual(cells.length, 2, html);
      assert.strictEqual(cells[1], 'x');
      const m = /^<code>([^<]*)<\/code>$/.exec(cells[0]);
      assert.ok(m, `not one code span: ${cells[0]}`);
      assert.strictEqual(decode(m[1]), input);
    });
  }

  test('line breaks become spaces, so a table row stays one row', () => {
    assert.strictEqual(escapeMarkdown('a\nb\r\nc'), 'a b c');
    assert.strictEqual(codeSpan('a\nb'), '`a b`');
  });

  test('plain sizes and formulas stay readable in the source', () => {
    assert.strictEqual(escapeMarkdown('d_k = 512 / 8 = 64'), 'd_k = 512 / 8 = 64');
    assert.strictEqual(codeSpan('4·E² + 4·E'), '`4·E² + 4·E`');
  });

  test('hovers of a file full of markup render no link, image or tag', async () => {
    const analysis = await analyzeText(
      [
        'import torch.nn as nn',
        'a = {}',
        'x = nn.Linear(a["![](https://host/?k="], 4)',
        'class M(nn.Module):',
        '    def __init__(self, n=a["<img src=x>"]):',
        '        super().__init__()',
        '        self.l = nn.Linear(n, 4)',
        '        self.d = nn.ModuleDict({"[a](command:x)": nn.Linear(2, 2), "<b>`": nn.Linear(2, 2)})',
        '',
      ].join('\n'),
    );
    const hovers = [
      ...analysis.layers.map((l) => hoverMarkdown(l.layer, 'nn.Linear')),
      ...analysis.modules.map((m) => moduleHoverMarkdown(m.name, m.summary)),
    ];
    assert.ok(hovers.length >= 3);
    for (const md of hovers) assert.doesNotMatch(renderer.render(md), /<(a|img|b|script)\b/, md);
  });
});
