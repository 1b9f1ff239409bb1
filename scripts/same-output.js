#!/usr/bin/env node
// `npm run check:same [-- REF]`: the CLI's output on every file the repository keeps for its tests and examples,
// from the working tree and from REF (default HEAD), byte for byte, in JSON, text and SARIF. For changes that
// must not change what users see (moving code, formatting): a difference is printed file by file, exit 1.
// REF is built in a temporary worktree beside the repository, from its own sources, with this node_modules.
'use strict';
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const FOLDERS = ['test/fixtures', 'test/integration/workspace', 'examples'];
const EXTENSIONS = /\.(py|ipynb|ts)$/;
const FORMATS = ['json', 'text', 'sarif'];

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

function build(dir) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed in ${dir}:\n${r.stderr}`);
  return path.join(dir, 'dist', 'cli.js');
}

/** The CLI's output on `files`, run from the repository's root so that both name the files alike. */
function outputOf(cli, files, format) {
  const r = spawnSync(process.execPath, [cli, '--jobs', '1', '--format', format, ...files], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The files whose JSON entries differ, or the whole output when it is not JSON. */
function differences(before, after, format) {
  if (format !== 'json') return before.stdout === after.stdout ? [] : [`${format} output differs`];
  const entries = (out) => new Map(JSON.parse(out.stdout).files.map((f) => [f.path, JSON.stringify(f)]));
  const [a, b] = [entries(before), entries(after)];
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((file) => a.get(file) !== b.get(file))
    .map((file) => `json: ${file}`);
}

function main() {
  const ref = process.argv[2] || 'HEAD';
  const files = git('ls-files', ...FOLDERS)
    .split('\n')
    .filter((f) => EXTENSIONS.test(f) && !f.endsWith('.d.ts'));
  const worktree = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lens-same-'));
  git('worktree', 'add', '--detach', worktree, ref);
  try {
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(worktree, 'node_modules'));
    const [before, after] = [build(worktree), build(ROOT)];
    const found = [];
    for (const format of FORMATS) {
      const [a, b] = [outputOf(before, files, format), outputOf(after, files, format)];
      if (a.status !== b.status) found.push(`${format}: exit status ${a.status} before, ${b.status} now`);
      if (a.stderr !== b.stderr) found.push(`${format}: stderr differs`);
      found.push(...differences(a, b, format));
    }
    if (found.length) {
      console.log(`output differs from ${ref}:\n  ${found.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      console.log(`same output as ${ref} on ${files.length} files in ${FORMATS.join(', ')}`);
    }
  } finally {
    git('worktree', 'remove', '--force', worktree);
  }
}

main();
