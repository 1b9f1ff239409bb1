/** The CLI over a whole folder as a user runs it: a process of its own, started from the shipped bundle. */
import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

/** Writes `files` (paths relative to the folder) into a new temporary folder; returns it and its removal. */
export function writeFolder(files: Record<string, string>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'attention-lens-bench-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Seconds `attention-lens --json DIR` takes, start to exit; `jobs` as `--jobs` takes it, else every core. */
export function folderSeconds(dir: string, jobs?: number): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, '--json', ...(jobs ? ['--jobs', String(jobs)] : []), dir], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`the CLI exited ${r.status}: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}
