/**
 * A seeded generator of hostile inputs for the analysis: random bytes, prefixes of the fixtures, the
 * fixtures with random cuts, duplications and insertions, deep nesting, huge numbers and lists, recursive
 * classes. The same seed gives the same inputs, so a failure can be replayed.
 */
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import type { FuzzInput } from './input';
import { random } from './random';

const SNIPPETS = [
  'nn.Linear(',
  'nn.MultiheadAttention(512, 8',
  ')',
  '(',
  '[',
  ']',
  '{',
  '}',
  ':',
  '\n    ',
  '\n',
  'self.',
  'super().__init__(',
  'for i in range(10**9):',
  'while True:',
  'if x:',
  'else:',
  'class A(A):',
  'def f(x): return f(x)',
  '**',
  '* 10**9',
  '"',
  "'",
  '#',
  '\\',
  'lambda: ',
  '*args',
  '**kw',
  ' = ',
  '.append(',
  'import torch.nn as nn\n',
  'x'.repeat(50),
  '0x',
  '1e308',
];

function fixtures(root: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const dir of ['test/fixtures/models/pytorch', 'test/fixtures/models/tfjs', 'test/fixtures/models/jspytorch']) {
    for (const f of readdirSync(path.join(root, dir), { withFileTypes: true }))
      if (f.isFile()) out.push({ file: f.name, text: readFileSync(path.join(root, dir, f.name), 'utf8') });
  }
  return out;
}

/** `count` inputs from `seed`; every prefix of each fixture when `prefixStep` is 1 (else one in `prefixStep`). */
export function* fuzzInputs(root: string, seed: number, count: number, prefixStep: number): Generator<FuzzInput> {
  const rand = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const files = fixtures(root);
  const language = (f: string): FuzzInput['language'] => (f.endsWith('.ts') ? 'typescript' : 'python');
  for (const { file, text } of files) {
    for (let end = 0; end <= text.length; end += prefixStep)
      yield { name: `${file}[:${end}]`, language: language(file), text: text.slice(0, end) };
  }
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    if (kind === 0) {
      const bytes = Array.from({ length: Math.floor(rand() * 400) }, () =>
        String.fromCharCode(Math.floor(rand() * 0x3000)),
      );
      yield { name: `random text #${i}`, language: rand() < 0.5 ? 'python' : 'typescript', text: bytes.join('') };
    } else if (kind === 1) {
      const { file, text } = pick(files);
      let t = text;
      for (let n = 0; n < 8; n++) {
        const at = Math.floor(rand() * t.length);
        const len = Math.floor(rand() * 40);
        const op = rand();
        t =
          op < 0.4
            ? t.slice(0, at) + t.slice(at + len)
            : op < 0.7
              ? t.slice(0, at) + pick(SNIPPETS) + t.slice(at)
              : t.slice(0, at) + t.slice(at, at + len).repeat(3) + t.slice(at + len);
      }
      yield { name: `mutated ${file} #${i}`, language: language(file), text: t };
    } else if (kind === 2) {
      const depth = 50 + Math.floor(rand() * 2000);
      const open = pick(['(', '[', '{', 'f(', 'nn.Sequential(', '-']);
      const close = open === '-' ? '' : open.endsWith('(') ? ')' : open === '[' ? ']' : '}';
      yield {
        name: `nesting ${depth} × ${open} #${i}`,
        language: 'python',
        text: `import torch.nn as nn\nx = ${open.repeat(depth)}1${close.repeat(depth)}\nfc = nn.Linear(x, 4)\n`,
      };
    } else if (kind === 3) {
      const n = pick(['10**9', '2**4096', '9'.repeat(3000), '-1', '0', '1.5', 'float("inf")', 'int(1e308)']);
      yield {
        name: `size ${n.slice(0, 20)} #${i}`,
        language: 'python',
        text: `import torch.nn as nn\nxs = [0] * ${n}\nfc = nn.Linear(${n}, len(xs))\nattn = nn.MultiheadAttention(${n}, ${n})\n`,
      };
    } else {
      const depth = Math.floor(rand() * 64);
      yield {
        name: `recursive classes depth ${depth} #${i}`,
        language: 'python',
        text: `import torch.nn as nn\nclass T(nn.Module):\n    def __init__(self, d=${depth}):\n        super().__init__()\n        self.fc = nn.Linear(d + 1, 2)\n        if d:\n            self.a = T(d - 1)\n            self.b = T(d - 1)\n            self.c = [T(d - 1) for _ in range(d)]\n`,
      };
    }
  }
}
