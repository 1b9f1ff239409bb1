/**
 * Compares this checkout's core with the core at a git revision, on the benchmark texts. Each core is timed as
 * it ships: bundled and minified by esbuild with the options of the production build, so that the JIT compiles
 * the code users run, not tsc's output with its comments (which costs the first analysis a compile of twice as
 * many bytes). Each core runs in processes of its own, alternating (and which goes first alternating too),
 * so that a noisy machine weighs on both alike. Prints, per regime, the median and quartiles of each core,
 * the ratio of the medians, and the ratio paired by round (each round's two processes compared, the
 * geometric mean over rounds) with a 95% bootstrap interval: the machine drifts between rounds more than
 * within one. The regimes:
 *   first   the first analysis of the 5,000-line file in a fresh process (parser and JIT cold),
 *   warming analyses 2–10 (the JIT still compiling the core),
 *   steady  analyses 16–40 (the work itself),
 *   edit    re-analysis after a change typed into the 10,000-line file (changes 6–45).
 *
 *   npm run bench:against -- REVISION [ROUNDS]
 */
import { execFileSync } from 'child_process';
import { buildSync } from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const HERE = path.resolve(__dirname, '../..');

function quartiles(xs: readonly number[]): [number, number, number] {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.floor(q * (s.length - 1))];
  return [at(0.25), at(0.5), at(0.75)];
}

function median(xs: readonly number[]): number {
  return quartiles(xs)[1];
}

/** The geometric mean of `ratios` and its 95% interval, from 2,000 resamples drawn by a fixed generator (the same figures for the same timings). */
function pairedRatio(ratios: readonly number[]): [number, number, number] {
  const mean = (xs: readonly number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  let seed = 1;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const means = Array.from({ length: 2000 }, () => mean(ratios.map(() => ratios[Math.floor(next() * ratios.length)])));
  const s = means.sort((a, b) => a - b);
  return [s[Math.floor(0.025 * (s.length - 1))], mean(ratios), s[Math.floor(0.975 * (s.length - 1))]];
}

const regimes = ['first', 'warming', 'steady', 'edit'] as const;

function perRegime<T>(make: () => T): Record<(typeof regimes)[number], T> {
  return { first: make(), warming: make(), steady: make(), edit: make() };
}

/** Bundles the core of the checkout at `root` into `dir`/core.js as scripts/build.mjs does with --production, with the grammars beside it. */
function bundleCore(root: string, dir: string): string {
  mkdirSync(dir);
  const core = path.join(dir, 'core.js');
  buildSync({
    stdin: {
      contents: [
        "export { DocumentAnalyzer } from './src/syntax/documentAnalyzer';",
        "export { Grammars } from './src/syntax/parser';",
        "export { fsWasmLoader } from './src/syntax/fsLoader';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    outfile: core,
    logLevel: 'warning',
  });
  for (const wasm of ['tree-sitter.wasm', 'tree-sitter-python.wasm', 'tree-sitter-typescript.wasm']) {
    copyFileSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/${wasm}`), path.join(dir, wasm));
  }
  return core;
}

function times(core: string, mode: 'cold' | 'edit'): number[] {
  return JSON.parse(
    execFileSync(process.execPath, [path.join(HERE, 'out/bench/coreTimes.js'), core, mode], { encoding: 'utf8' }),
  ) as number[];
}

function main(): void {
  const [revision, rounds = '4'] = process.argv.slice(2);
  if (!revision) throw new Error('usage: npm run bench:against -- REVISION [ROUNDS]');
  const work = mkdtempSync(path.join(tmpdir(), 'attention-lens-bench-'));
  const other = path.join(work, 'checkout');
  execFileSync('git', ['worktree', 'add', '--detach', other, revision], { cwd: HERE, stdio: 'ignore' });
  try {
    symlinkSync(path.join(HERE, 'node_modules'), path.join(other, 'node_modules'), 'dir');
    const cores = [
      { name: revision, core: bundleCore(other, path.join(work, 'revision')) },
      { name: 'this checkout', core: bundleCore(HERE, path.join(work, 'this-checkout')) },
    ];
    const samples = cores.map(() => perRegime((): number[] => []));
    /** Per regime, each round's ratio of this checkout's figure to the other's (a process's median). */
    const paired = perRegime((): number[] => []);
    for (let r = 0; r < Number(rounds); r++) {
      const round = cores.map(() => perRegime(() => 0));
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const cold = times(cores[i].core, 'cold');
        const edit = times(cores[i].core, 'edit').slice(5);
        const got = { first: [cold[0]], warming: cold.slice(1, 10), steady: cold.slice(15), edit };
        for (const regime of regimes) {
          samples[i][regime].push(...got[regime]);
          round[i][regime] = median(got[regime]);
        }
      }
      for (const regime of regimes) paired[regime].push(round[1][regime] / round[0][regime]);
    }
    const cell = (xs: number[]) => {
      const [q1, m, q3] = quartiles(xs);
      return `${m.toFixed(1)} ms (${q1.toFixed(1)}–${q3.toFixed(1)})`.padEnd(26);
    };
    console.log(
      `${'regime'.padEnd(9)}${cores.map((c) => c.name.slice(0, 24).padEnd(26)).join('')}${'ratio (median)'.padEnd(16)}paired ratio (95% interval)`,
    );
    for (const regime of regimes) {
      const [a, b] = samples.map((s) => s[regime]);
      const [low, ratio, high] = pairedRatio(paired[regime]);
      console.log(
        `${regime.padEnd(9)}${cell(a)}${cell(b)}${(median(b) / median(a)).toFixed(2).padEnd(16)}${ratio.toFixed(3)} (${low.toFixed(3)}–${high.toFixed(3)})`,
      );
    }
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', other], { cwd: HERE, stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true });
  }
}

main();
