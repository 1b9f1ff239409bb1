/**
 * Compares this checkout's core with the core at a git revision, on the benchmark texts: each core runs in
 * processes of its own, alternating, so that a noisy machine weighs on both alike. Prints, per regime, the
 * median and quartiles of each core and their ratio:
 *   first   the first analysis of the 5,000-line file in a fresh process (parser and JIT cold),
 *   warming analyses 2–10 (the JIT still compiling the core),
 *   steady  analyses 16–40 (the work itself),
 *   edit    re-analysis after a change typed into the 10,000-line file (changes 6–45).
 *
 *   npm run bench:against -- REVISION [ROUNDS]
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, symlinkSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const HERE = path.resolve(__dirname, '../..');

function quartiles(xs: number[]): [number, number, number] {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.floor(q * (s.length - 1))];
  return [at(0.25), at(0.5), at(0.75)];
}

function times(root: string, mode: 'cold' | 'edit'): number[] {
  return JSON.parse(execFileSync(process.execPath, [path.join(HERE, 'out/bench/coreTimes.js'), root, mode], { encoding: 'utf8' })) as number[];
}

function main(): void {
  const [revision, rounds = '4'] = process.argv.slice(2);
  if (!revision) throw new Error('usage: npm run bench:against -- REVISION [ROUNDS]');
  const other = mkdtempSync(path.join(tmpdir(), 'attention-lens-bench-'));
  execFileSync('git', ['worktree', 'add', '--detach', other, revision], { cwd: HERE, stdio: 'ignore' });
  try {
    symlinkSync(path.join(HERE, 'node_modules'), path.join(other, 'node_modules'), 'dir');
    execFileSync(process.execPath, [path.join(HERE, 'node_modules/typescript/bin/tsc'), '-p', other], { stdio: 'inherit' });
    const cores = [
      { name: revision, root: other },
      { name: 'this checkout', root: HERE },
    ];
    const samples = cores.map(() => ({ first: [] as number[], warming: [] as number[], steady: [] as number[], edit: [] as number[] }));
    for (let r = 0; r < Number(rounds); r++) {
      cores.forEach((core, i) => {
        const cold = times(core.root, 'cold');
        samples[i].first.push(cold[0]);
        samples[i].warming.push(...cold.slice(1, 10));
        samples[i].steady.push(...cold.slice(15));
        samples[i].edit.push(...times(core.root, 'edit').slice(5));
      });
    }
    const cell = (xs: number[]) => {
      const [q1, m, q3] = quartiles(xs);
      return `${m.toFixed(1)} ms (${q1.toFixed(1)}–${q3.toFixed(1)})`.padEnd(26);
    };
    console.log(`${'regime'.padEnd(9)}${cores.map((c) => c.name.slice(0, 24).padEnd(26)).join('')}ratio (median)`);
    for (const regime of ['first', 'warming', 'steady', 'edit'] as const) {
      const [a, b] = samples.map((s) => s[regime]);
      console.log(`${regime.padEnd(9)}${cell(a)}${cell(b)}${(quartiles(b)[1] / quartiles(a)[1]).toFixed(2)}`);
    }
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', other], { cwd: HERE, stdio: 'ignore' });
  }
}

main();
