#!/usr/bin/env node
// `npm start`: a demo in the browser. Packages the extension (npm run package), starts code-server
// on a loopback port with the .vsix installed and examples/ (or the folder given) open, prints the
// address, and on Ctrl+C (SIGINT) or SIGTERM stops code-server and everything it started.
//   npm start                      free port        PORT=8080 npm start     a fixed port
//   npm start -- ~/my-models       your own folder instead of examples/
//   npm start -- --no-package      reuse the last .vsix
// Edits made in the demo are saved to examples/ only with an explicit Ctrl+S (auto save is off).
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, ensureCodeServer, run, startCodeServer } = require('./lib-codeserver');

async function main() {
  ensureCodeServer();
  const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const vsix = path.join(ROOT, `${name}-${version}.vsix`);
  if (!process.argv.includes('--no-package') || !fs.existsSync(vsix)) {
    if (run('npm', ['run', '--silent', 'package']) !== 0) throw new Error('npm run package failed');
  }
  const folder = openedFolder();
  const server = await startCodeServer({
    installVsix: vsix,
    folder, // opened when the bare address is visited
    port: process.env.PORT ? +process.env.PORT : undefined,
    verbose: !!process.env.VERBOSE,
  });

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[start] ${signal}: stopping code-server...`);
    await server.stop();
    console.log('[start] stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // `kill <npm pid>` ends npm without passing the signal on: stop too when our parent is gone.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('parent exited');
  }, 1000).unref();
  server.child.on('exit', (code) => {
    if (stopping) return;
    console.error(`[start] code-server exited on its own (${code}); log: ${server.logFile}`);
    process.exit(1);
  });

  const examples = folder === path.join(ROOT, 'examples');
  console.log(
    `\n[start] Attention Lens ${version} is running in code-server (VS Code 1.100) with ${examples ? 'examples/' : folder} open:\n`,
  );
  console.log(`    ${server.url}/?folder=${encodeURI(folder)}\n`);
  console.log('[start] open that address in a browser; Ctrl+C stops the server.');
  if (examples)
    console.log(
      '[start] try: attention.py (CodeLens, hover), shape_errors.py (Problems, Ctrl+. quick fix), vit_encoder.ipynb; `npm start -- PATH` opens your own folder',
    );
}

/** The folder named on the command line (`npm start -- PATH`), else examples/. */
function openedFolder() {
  const given = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (given.length > 1) throw new Error(`one folder at most, got: ${given.join(' ')}`);
  if (!given.length) return path.join(ROOT, 'examples');
  const folder = path.resolve(process.env.INIT_CWD || process.cwd(), given[0]);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${given[0]} is not a folder`);
  return folder;
}

main().catch((e) => {
  console.error('[start]', e.message || e);
  process.exit(1);
});
