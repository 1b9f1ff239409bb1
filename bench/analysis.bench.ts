/**
 * Prints the figures the design guide holds us to: a cold analysis of a 5,000-line file against
 * tree-sitter's bare parse of it, and a re-analysis after a one-line edit in a 10,000-line file against
 * tree-sitter's incremental re-parse, and the worst time of the crafted files of test/pathological. Figures,
 * not pass/fail: compare them with the targets printed beside.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { DocumentAnalyzer, toEdit } from '../src/syntax/documentAnalyzer';
import { fsWasmLoader } from '../src/syntax/fsLoader';
import { Grammars } from '../src/syntax/parser';
import { PATHOLOGICAL } from '../test/pathological/cases';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = ['gpt.py', 'vision_transformer.py', 'encoder_classifier.py', 'cross_attention.py', 'seq2seq_transformer.py', 'attention_variants.py'];

/** Realistic model code repeated to `lines` lines, classes renamed so every copy is distinct. */
function syntheticFile(lines: number): string {
  const parts = FIXTURES.map((f) => readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', f), 'utf8'));
  let out = '';
  for (let copy = 0; out.split('\n').length < lines; copy++) out += parts[copy % parts.length].replace(/^class (\w+)/gm, `class $1_${copy}`) + '\n';
  return out.split('\n').slice(0, lines).join('\n');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The median of `runs` timings after `warm` untimed runs: the figure is the work, not the JIT compiling it. */
function time(runs: number, fn: () => void, warm = 3): number {
  for (let i = 0; i < warm; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

async function main(): Promise<void> {
  const grammars = await Grammars.load(fsWasmLoader);
  const cold = syntheticFile(5000);
  const parseMs = time(9, () => grammars.parse('python', cold)?.delete());
  let layers = 0;
  const analyzeMs = time(12, () => {
    const analyzer = new DocumentAnalyzer(grammars, 'python');
    layers = analyzer.update(cold)?.layers.length ?? 0;
    analyzer.dispose();
  });
  console.log(`cold, 5,000 lines (${layers} layers): bare parse ${parseMs.toFixed(1)} ms, full analysis ${analyzeMs.toFixed(1)} ms, ratio ${(analyzeMs / parseMs).toFixed(2)} (target ≤ 1.5)`);

  const big = syntheticFile(10000);
  const line = big.indexOf('nn.Linear(', big.length / 2);
  const at = big.indexOf('(', line) + 1;
  const analyzer = new DocumentAnalyzer(grammars, 'python');
  analyzer.update(big);
  const reparse: number[] = [];
  const reanalyse: number[] = [];
  let text = big;
  for (let i = 0; i < 21; i++) {
    const insert = i % 2 === 0 ? '1 + ' : '';
    const remove = i % 2 === 0 ? 0 : 4;
    const next = text.slice(0, at) + insert + text.slice(at + remove);
    const change = { rangeOffset: at, rangeLength: remove, text: insert };
    const old = grammars.parse('python', text)!;
    old.edit(toEdit(text, change));
    const t0 = performance.now();
    grammars.parse('python', next, old)?.delete();
    reparse.push(performance.now() - t0);
    old.delete();
    const t1 = performance.now();
    analyzer.update(next, [change]);
    reanalyse.push(performance.now() - t1);
    text = next;
  }
  analyzer.dispose();
  const r = median(reparse);
  const a = median(reanalyse);
  console.log(`one-line edit, 10,000 lines: incremental re-parse ${r.toFixed(2)} ms, re-analysis ${a.toFixed(2)} ms, ratio ${(a / r).toFixed(2)} (target ≤ 2 and < 10 ms)`);

  const worst = PATHOLOGICAL.map((p) => ({
    name: p.name,
    ms: time(5, () => {
      const one = new DocumentAnalyzer(grammars, 'python');
      one.update(p.source);
      one.dispose();
    }),
  })).sort((x, y) => y.ms - x.ms);
  console.log(`pathological files (${PATHOLOGICAL.length}): worst ${worst[0].ms.toFixed(1)} ms (${worst[0].name}), then ${worst.slice(1, 4).map((w) => `${w.ms.toFixed(1)} ms (${w.name})`).join(', ')} (target < 100 ms each)`);
  grammars.dispose();
}

void main();
