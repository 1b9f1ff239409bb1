// Bundles the extension, its analysis worker and the CLI with esbuild and copies the tree-sitter .wasm files beside them.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'fs/promises';
import { createRequire } from 'module';
import path from 'path';

const require = createRequire(import.meta.url);
const production = process.argv.includes('--production');
const wasmDir = path.dirname(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm'));
const WASM = ['tree-sitter.wasm', 'tree-sitter-python.wasm', 'tree-sitter-typescript.wasm'];

await mkdir('dist', { recursive: true });
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};
await Promise.all([
  build({ ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['src/service/analysisWorker.ts'], outfile: 'dist/analysisWorker.js' }),
  build({ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  ...WASM.map((f) => copyFile(path.join(wasmDir, f), path.join('dist', f))),
]);
console.log(
  `build: dist/extension.js, dist/analysisWorker.js, dist/cli.js and ${WASM.length} grammars${production ? ' (minified)' : ''}`,
);
