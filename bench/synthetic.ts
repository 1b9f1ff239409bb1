/** The text the benchmarks analyse: realistic model code repeated to a length, classes renamed so every copy is distinct. */
import { readFileSync } from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = [
  'gpt.py',
  'vision_transformer.py',
  'encoder_classifier.py',
  'cross_attention.py',
  'seq2seq_transformer.py',
  'attention_variants.py',
];

export function syntheticFile(lines: number): string {
  const parts = FIXTURES.map((f) => readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', f), 'utf8'));
  let out = '';
  for (let copy = 0; out.split('\n').length < lines; copy++)
    out += parts[copy % parts.length].replace(/^class (\w+)/gm, `class $1_${copy}`) + '\n';
  return out.split('\n').slice(0, lines).join('\n');
}

/** Where the edit benchmarks type: inside the first `nn.Linear(` past the middle of the text. */
export function editPlace(text: string): number {
  return text.indexOf('(', text.indexOf('nn.Linear(', text.length / 2)) + 1;
}

/** The `i`th change of the edit benchmarks: `1 + ` typed, then removed, and so on. */
export function editAt(
  text: string,
  at: number,
  i: number,
): { next: string; change: { rangeOffset: number; rangeLength: number; text: string } } {
  const insert = i % 2 === 0 ? '1 + ' : '';
  const remove = i % 2 === 0 ? 0 : 4;
  return {
    next: text.slice(0, at) + insert + text.slice(at + remove),
    change: { rangeOffset: at, rangeLength: remove, text: insert },
  };
}

/**
 * A repository of `files` Python files laid out as timm's is: shared blocks in `layers/`, and model files that
 * import two of them and, nine times in ten, the model file before (chains ten deep, as timm's byoanet
 * imports byobnet). Each file is a fixture with its classes renamed, so every class is distinct and every
 * reference still names it. Paths are relative to the repository's root.
 */
export function syntheticRepo(files: number): Record<string, string> {
  const fixtures = FIXTURES.map((f) => readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', f), 'utf8'));
  const classes = fixtures.map((text) => [...text.matchAll(/^class (\w+)/gm)].map((m) => m[1]));
  const renamed = (k: number, suffix: string) =>
    fixtures[k].replace(new RegExp(`\\b(${classes[k].join('|')})\\b`, 'g'), `$1${suffix}`);
  const layers = 10;
  const repo: Record<string, string> = { 'layers/__init__.py': '', 'models/__init__.py': '' };
  for (let k = 0; k < layers; k++) repo[`layers/block_${k}.py`] = renamed(k % fixtures.length, `_L${k}`);
  for (let i = 0; i < files - layers - 2; i++) {
    const [a, b] = [i % layers, (i * 7 + 3) % layers];
    const [fa, fb] = [a % fixtures.length, b % fixtures.length];
    const imported = [
      `from ..layers.block_${a} import ${classes[fa][1]}_L${a}`,
      `from ..layers.block_${b} import ${classes[fb][0]}_L${b}`,
    ];
    if (i % 10) imported.push(`from .model_${i - 1} import Tuned_${i - 1}`);
    const base = i % 10 ? `Tuned_${i - 1}` : `${classes[fa][1]}_L${a}`;
    repo[`models/model_${i}.py`] =
      `${imported.join('\n')}\n${renamed(i % fixtures.length, `_M${i}`)}\n\nclass Tuned_${i}(${base}):\n    pass\n`;
  }
  return repo;
}
