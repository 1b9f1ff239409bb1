/**
 * Typing a statement key by key, as the editor reports it (one change per keystroke, with or without
 * auto-closed brackets), gives after every keystroke what a fresh analysis of the same text gives.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import type { Analysis } from '../../src/core/analysis/analyze';
import { DocumentAnalyzer, type TextChange } from '../../src/syntax/documentAnalyzer';
import { analyzeText, loadGrammars, ROOT } from './helpers';

const summary = (a: Analysis | undefined) => ({
  layers: a?.layers.map((l) => [
    l.span.startLine,
    l.span.startChar,
    l.span.start,
    l.span.end,
    l.span.endLine,
    l.span.endChar,
    l.layer.kind,
    l.layer.params?.toString(),
    l.layer.formula,
  ]),
  findings: a?.findings.map((f) => [
    f.span.startLine,
    f.span.start,
    f.span.end,
    f.code,
    f.message,
    f.related?.map((r) => [r.span.start, r.span.end, r.span.startLine]),
  ]),
  modules: a?.modules.map((m) => [
    m.name,
    m.span.start,
    m.extent.start,
    m.extent.end,
    m.summary.params?.toString(),
    m.summary.reason,
  ]),
  instances: a?.instances.map((i) => [i.className, i.span.start, i.summary.params?.toString()]),
  hints: a?.hints.map((h) => [h.span.start, h.span.end, h.features.toString()]),
});

const PAIRS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '"': '"', "'": "'" };

/**
 * The changes an editor sends while `typed` is entered at `at`: one character each; with auto-closing,
 * an opening bracket also inserts its closer, and typing the closer then steps over it (no change).
 */
function keystrokes(typed: string, at: number, autoClose: boolean): { change: TextChange; caret: number }[] {
  const out: { change: TextChange; caret: number }[] = [];
  const pending: string[] = [];
  let caret = at;
  for (const ch of typed) {
    if (autoClose && pending[pending.length - 1] === ch) {
      pending.pop();
      caret++;
      continue;
    }
    const closer = autoClose ? PAIRS[ch] : undefined;
    const text = closer && !(ch === closer && pending.includes(ch)) ? ch + closer : ch;
    if (text.length === 2) pending.push(closer!);
    out.push({ change: { rangeOffset: caret, rangeLength: 0, text }, caret });
    caret++;
  }
  return out;
}

function apply(text: string, c: TextChange): string {
  return text.slice(0, c.rangeOffset) + c.text + text.slice(c.rangeOffset + c.rangeLength);
}

const FIXTURES = ['gpt.py', 'encoder_classifier.py', 'attention_variants.py', 'loops.py', 'shape_errors.py'];

/** Types `typed` at `at` of `initial`, checking the analysis against a fresh one after every keystroke. */
async function typeAndCompare(
  initial: string,
  at: number,
  typed: string,
  autoClose: boolean,
  label: string,
): Promise<Analysis | undefined> {
  const analyzer = new DocumentAnalyzer(await loadGrammars(), 'python');
  let text = initial;
  let last = analyzer.update(text);
  try {
    for (const { change } of keystrokes(typed, at, autoClose)) {
      text = apply(text, change);
      last = analyzer.update(text, [change]);
      const typedSoFar = text.slice(at, change.rangeOffset + change.text.length);
      assert.deepStrictEqual(
        summary(last),
        summary(await analyzeText(text)),
        `${label}, after typing ${JSON.stringify(typedSoFar)}`,
      );
    }
    assert.ok(
      text.includes(typed),
      `the statement was not typed as written: ${JSON.stringify(text.slice(at, at + typed.length + 2))}`,
    );
    return last;
  } finally {
    analyzer.dispose();
  }
}

/** Where to type, on a line of its own: at the end, between two top-level statements, inside an __init__. */
function places(text: string): { name: string; at: number; statement: string }[] {
  const half = text.indexOf('\n', Math.floor(text.length / 2));
  const topLevel = /\n(?=[A-Za-z_@])/g;
  topLevel.lastIndex = half;
  const between = topLevel.exec(text)?.index ?? text.length - 1;
  const init = /def __init__\(self[^\n]*\n/.exec(text);
  const out = [
    { name: 'end', at: text.length, statement: 'ff = nn.Linear(512, 2048)\n' },
    {
      name: 'between statements',
      at: between + 1,
      statement: 'attn = nn.MultiheadAttention(embed_dim=768, num_heads=12)\n',
    },
  ];
  if (init)
    out.push({
      name: 'in __init__',
      at: init.index + init[0].length,
      statement: '        self.extra = nn.Linear(64, [2][0] * 32)\n',
    });
  return out;
}

suite('typing key by key', () => {
  for (const file of FIXTURES) {
    for (const autoClose of [false, true]) {
      test(`${file}, ${autoClose ? 'with' : 'without'} auto-closed brackets`, async () => {
        const original = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', file), 'utf8');
        const base = original.endsWith('\n') ? original : `${original}\n`;
        for (const { name, at, statement } of places(base)) {
          // The caret starts on an empty line of its own, as after pressing Enter.
          await typeAndCompare(
            `${base.slice(0, at)}\n${base.slice(at)}`,
            at,
            statement,
            autoClose,
            `${file} at ${name}`,
          );
        }
      });
    }
  }

  test('a new, empty buffer typed from the first key shows the layer', async () => {
    for (const autoClose of [false, true]) {
      const last = await typeAndCompare(
        '',
        0,
        'import torch.nn as nn\nff = nn.Linear(512, 2048)\n',
        autoClose,
        'empty buffer',
      );
      assert.deepStrictEqual(
        last?.layers.map((l) => [l.span.startLine, l.layer.kind, l.layer.params?.constant]),
        [[1, 'Linear', 512n * 2048n + 2048n]],
      );
    }
  });
});
