#!/usr/bin/env node
// `npm run cycles`: the import cycles among src/'s files (madge, type-only imports included, since they tie
// the files' meaning as much as the others), one per line. Exit 1 on any: src has none (issue 25), and the
// interpreter's topic modules reach each other through core/interp/interp.ts, never through the evaluator.
'use strict';
const path = require('path');
const madge = require('madge');

async function main() {
  const root = path.resolve(__dirname, '..');
  const graph = await madge(path.join(root, 'src'), {
    fileExtensions: ['ts'],
    tsConfig: path.join(root, 'tsconfig.json'),
  });
  const cycles = graph.circular();
  for (const [i, cycle] of cycles.entries()) console.log(`${i + 1}) ${cycle.join(' > ')}`);
  console.log(`cycles: ${cycles.length} import cycles in src`);
  if (cycles.length) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 2;
});
