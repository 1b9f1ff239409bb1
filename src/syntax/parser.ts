/**
 * Tree-sitter set-up. Grammars are loaded from bytes handed in by the host (the extension reads them
 * through `vscode.workspace.fs`, the CLI and the tests from disk), so nothing here touches a file system.
 */
import { Language as TsLanguage, Parser, type Edit, type ParseState, type Tree } from '@vscode/tree-sitter-wasm';
import type { Language } from '../core/ir/source';
import { useModule } from './wasmCursor';

export type { Tree, Edit };

/** Reads one of the `.wasm` files shipped beside the bundle. */
export type WasmLoader = (file: string) => Promise<Uint8Array>;

const GRAMMAR_FILES: Record<Language, string> = {
  python: 'tree-sitter-python.wasm',
  typescript: 'tree-sitter-typescript.wasm',
};

/**
 * How much work a parse may do, counted in tree-sitter's progress checks (one per hundred parser
 * operations), so that the same text is parsed or abandoned alike on an idle machine and a loaded one.
 * Code parses at about one check per 110 bytes (a 5 MB file: 45,000 checks, 1.4 s); error recovery on
 * garbage can spend thousands of checks without moving on, so past a fixed allowance the checks may not
 * outrun the bytes read.
 */
export const PARSE_BUDGET = { allowance: 2_000, bytesPerCheck: 16, maxChecks: 60_000 };

/**
 * The last resort, for work tree-sitter does not count (its scanners run between checks): beyond this the
 * parse is abandoned whatever the count. No input found so far reaches it once comment runs are blanked.
 */
export const PARSE_CLOCK_LIMIT_MS = 8_000;

/** Why a text has no tree, in the words the editor and the CLI show. */
export const PARSE_GAVE_UP = 'the parser gave up on it: it needs more work than the parse budget allows';

export interface GrammarOptions {
  /** Progress checks a parse may take in all (tests lower it to see a parse abandoned). */
  readonly maxChecks?: number;
}

export class Grammars {
  private constructor(
    private readonly languages: Record<Language, TsLanguage>,
    private readonly parser: Parser,
    private readonly maxChecks: number,
  ) {}

  static async load(loader: WasmLoader, options: GrammarOptions = {}): Promise<Grammars> {
    const runtime = await loader('tree-sitter.wasm');
    // `wasmBinary` is an Emscripten module option the typings omit; it avoids any fetch or path lookup.
    // The object becomes the module: its calls are set on it (wasmCursor.ts moves a cursor with them).
    const module = { wasmBinary: runtime, locateFile: (file: string) => file };
    await Parser.init(module as unknown as Parameters<typeof Parser.init>[0]);
    useModule(module);
    const [python, typescript] = await Promise.all([
      loader(GRAMMAR_FILES.python).then((bytes) => TsLanguage.load(bytes)),
      loader(GRAMMAR_FILES.typescript).then((bytes) => TsLanguage.load(bytes)),
    ]);
    return new Grammars({ python, typescript }, new Parser(), options.maxChecks ?? PARSE_BUDGET.maxChecks);
  }

  language(language: Language): TsLanguage {
    return this.languages[language];
  }

  /**
   * Parses `text`, reusing `oldTree` (already edited to match) when given. Returns undefined when the
   * parse ran over its budget.
   */
  parse(language: Language, text: string, oldTree?: Tree): Tree | undefined {
    this.parser.setLanguage(this.languages[language]);
    const deadline = performance.now() + PARSE_CLOCK_LIMIT_MS;
    let checks = 0;
    const { allowance, bytesPerCheck } = PARSE_BUDGET;
    // The typings declare the callback void, but the runtime cancels the parse when it returns true.
    const tree = this.parser.parse(text, oldTree ?? null, {
      progressCallback: (state: ParseState) =>
        ++checks > this.maxChecks ||
        checks > allowance + state.currentOffset / bytesPerCheck ||
        performance.now() > deadline,
    } as Parameters<Parser['parse']>[2]);
    if (!tree) this.parser.reset();
    return tree ?? undefined;
  }

  dispose(): void {
    this.parser.delete();
  }
}
