/** The text the benchmarks analyse: realistic model code repeated to a length, classes renamed so every copy is distinct. */
import { readFileSync } from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = ['gpt.py', 'vision_transformer.py', 'encoder_classifier.py', 'cross_attention.py', 'seq2seq_transformer.py', 'attention_variants.py'];

export function syntheticFile(lines: number): string {
  const parts = FIXTURES.map((f) => readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', f), 'utf8'));
  let out = '';
  for (let copy = 0; out.split('\n').length < lines; copy++) out += parts[copy % parts.length].replace(/^class (\w+)/gm, `class $1_${copy}`) + '\n';
  return out.split('\n').slice(0, lines).join('\n');
}

/** Where the edit benchmarks type: inside the first `nn.Linear(` past the middle of the text. */
export function editPlace(text: string): number {
  return text.indexOf('(', text.indexOf('nn.Linear(', text.length / 2)) + 1;
}

/** The `i`th change of the edit benchmarks: `1 + ` typed, then removed, and so on. */
export function editAt(text: string, at: number, i: number): { next: string; change: { rangeOffset: number; rangeLength: number; text: string } } {
  const insert = i % 2 === 0 ? '1 + ' : '';
  const remove = i % 2 === 0 ? 0 : 4;
  return { next: text.slice(0, at) + insert + text.slice(at + remove), change: { rangeOffset: at, rangeLength: remove, text: insert } };
}
