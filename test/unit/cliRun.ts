/** Runs the shipped bundle, dist/cli.js, as a user's shell would: stdout and stderr are pipes. */
import { spawnSync, type SpawnSyncReturns } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { ROOT } from './helpers';

export const CLI = path.join(ROOT, 'dist/cli.js');

let built = false;

/** `npm run test:unit` compiles with tsc only; the CLI is checked as esbuild bundles it. */
export function buildCli(): void {
  if (built) return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
  built = true;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Node options before the script, such as `--require` of a preload. */
  readonly node?: readonly string[];
}

/** Colour variables of the calling shell are removed, so the default (no colour in a pipe) is what is tested. */
export function runCli(args: readonly string[], options: RunOptions = {}): SpawnSyncReturns<string> {
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return spawnSync(process.execPath, [...(options.node ?? []), CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...env, ...options.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** A temporary folder with the given files (text or bytes), removed by the returned function. */
export function tempFiles(files: Record<string, string | Buffer>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'attention-lens-cli-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
