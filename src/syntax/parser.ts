/**
 * Tree-sitter set-up. Grammars are loaded from bytes handed in by the host (the extension reads them
 * through `vscode.workspace.fs`, the CLI and the tests from disk), so nothing here touches a file system.
 */
import { Language as TsLanguage, Parser, type Edit, type Tree } from '@vscode/tree-sitter-wasm';
import type { Language } from '../core/source';
import { useModule } from './wasmCursor';

export type { Tree, Edit };

/** Reads one of the `.wasm` files shipped beside the bundle. */
export type WasmLoader = (file: string) => Promise<Uint8Array>;

const GRAMMAR_FILES: Record<Language, string> = {
  python: 'tree-sitter-python.wasm',
  typescript: 'tree-sitter-typescript.wasm',
};

/** A parse slower than this is abandoned: the document then gets no analysis rather than a frozen host. */
export const PARSE_BUDGET_MS = 2000;

export interface GrammarOptions {
  /** Milliseconds a single parse may take (tests lower it to see a parse abandoned). */
  readonly parseBudgetMs?: number;
}

export class Grammars {
  private constructor(
    private readonly languages: Record<Language, TsLanguage>,
    private readonly parser: Parser,
    private readonly parseBudgetMs: number,
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
    return new Grammars({ python, typescript }, new Parser(), options.parseBudgetMs ?? PARSE_BUDGET_MS);
  }

  language(language: Language): TsLanguage {
    return this.languages[language];
  }

  /**
   * Parses `text`, reusing `oldTree` (already edited to match) when given. Returns undefined when the
   * parse ran over its time budget.
   */
  parse(language: Language, text: string, oldTree?: Tree): Tree | undefined {
    this.parser.setLanguage(this.languages[language]);
    const deadline = performance.now() + this.parseBudgetMs;
    // The typings declare the callback void, but the runtime cancels the parse when it returns true.
    const tree = this.parser.parse(text, oldTree ?? null, {
      progressCallback: () => performance.now() > deadline,
    } as Parameters<Parser['parse']>[2]);
    if (!tree) this.parser.reset();
    return tree ?? undefined;
  }

  dispose(): void {
    this.parser.delete();
  }
}

