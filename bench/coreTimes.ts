/**
 * One process's timings of the core bundled in CORE by bench/against.ts (this checkout's or another's: the
 * core's entry points have not changed since the first version), printed as JSON: `cold` analyses the
 * 5,000-line file 40 times (the first run is the JIT's as much as the core's), `edit` types 45 changes into
 * the 10,000-line file.
 *
 *   node out/bench/coreTimes.js CORE cold|edit
 */
import * as path from 'path';
import { editAt, editPlace, syntheticFile } from './synthetic';

interface Core {
  DocumentAnalyzer: new (
    grammars: unknown,
    language: 'python',
  ) => { update(text: string, changes?: unknown[]): unknown; dispose(): void };
  Grammars: typeof import('../src/syntax/parser').Grammars;
  fsWasmLoader: typeof import('../src/syntax/fsLoader').fsWasmLoader;
}

async function main(): Promise<void> {
  const [core, mode] = process.argv.slice(2);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DocumentAnalyzer, Grammars, fsWasmLoader } = require(path.resolve(core)) as Core;
  const grammars = await Grammars.load(fsWasmLoader);
  const times: number[] = [];
  if (mode === 'cold') {
    const text = syntheticFile(5000);
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      const analyzer = new DocumentAnalyzer(grammars, 'python');
      analyzer.update(text);
      analyzer.dispose();
      times.push(performance.now() - t);
    }
  } else {
    let text = syntheticFile(10000);
    const at = editPlace(text);
    const analyzer = new DocumentAnalyzer(grammars, 'python');
    analyzer.update(text);
    for (let i = 0; i < 45; i++) {
      const { next, change } = editAt(text, at, i);
      const t = performance.now();
      analyzer.update(next, [change]);
      times.push(performance.now() - t);
      text = next;
    }
    analyzer.dispose();
  }
  grammars.dispose();
  process.stdout.write(JSON.stringify(times));
}

void main();
