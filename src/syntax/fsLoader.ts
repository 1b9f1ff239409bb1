/** Loads the grammars from disk for the CLI, the tests and the benchmarks (the extension uses workspace.fs). */
import { readFile } from 'fs/promises';
import * as path from 'path';
import type { WasmLoader } from './parser';

/** Beside the bundle in dist/, or from the package when running the compiled sources. */
export const fsWasmLoader: WasmLoader = async (file) => {
  try {
    return await readFile(path.join(__dirname, file));
  } catch {
    return readFile(require.resolve(`@vscode/tree-sitter-wasm/wasm/${file}`));
  }
};
