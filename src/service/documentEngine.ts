/**
 * The documents' analyses, kept across versions: for each program (a file, or a notebook's code cells
 * joined), its syntax tree and last text, re-parsed incrementally from the text analysed before; imports
 * read from the workspace folders, an editor's unsaved text first. No editor API: the extension runs it on a
 * worker thread (analysisWorker.ts), off the thread every extension shares, or in its own thread when no
 * worker can start.
 */
import type { Analysis } from '../core/analysis/analyze';
import type { Language } from '../core/source';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { PARSE_GAVE_UP, type Grammars } from '../syntax/parser';
import { changeBetween } from '../syntax/textChange';
import { WorkspaceModels } from '../syntax/workspaceModels';
import { BoundedCache } from './boundedCache';
import { cellLineName, type CellLines } from './cellLines';
import { WorkspaceFileReader } from './workspaceFileReader';

/** Programs whose trees are kept; others are parsed again in full when next analysed. */
const MAX_TREES = 20;

export interface AnalyzeRequest {
  /** The program: a file's URI, or a notebook's with the language. */
  readonly key: string;
  readonly language: Language;
  readonly text: string;
  /** Start afresh, reusing nothing of the last text (a file it imports changed, its cells were renumbered). */
  readonly fresh: boolean;
  /** The file on disk, whose imports are read from the workspace folders; none for an untitled document. */
  readonly file?: string;
  /** For a notebook: where its cells lie in the text, which names its lines. */
  readonly cells?: CellLines;
}

export type AnalyzeReply =
  | {
      readonly analysis: Analysis;
      /** The files its imports were read from; with `fresh`, all of them, else those the edit's runs read. */
      readonly imports: readonly string[];
      readonly fresh: boolean;
      readonly ms: number;
    }
  | { readonly skipped: string };

export type Log = (level: 'error' | 'trace', message: string) => void;

class ProgramState {
  /** The text the analyzer holds; undefined before its first analysis. */
  text: string | undefined;

  constructor(readonly analyzer: DocumentAnalyzer) {}

  dispose(): void {
    this.analyzer.dispose();
  }
}

export class DocumentEngine {
  private readonly states = new BoundedCache<string, ProgramState>(MAX_TREES);
  /** Editors' texts of files on disk, by path: what imports read before the disk. */
  private readonly open = new Map<string, string>();
  private folders: readonly string[];
  private readonly workspace: WorkspaceModels;

  constructor(
    private readonly grammars: Grammars,
    folders: readonly string[],
    private readonly log: Log,
  ) {
    this.folders = folders;
    const reader = new WorkspaceFileReader(() => this.folders);
    this.workspace = new WorkspaceModels(grammars, (file) => reader.read(file, (real) => this.open.get(real)));
  }

  setFolders(folders: readonly string[]): void {
    this.folders = folders;
  }

  /** An editor's text of `path`, or none once it is closed. */
  openText(path: string, text: string | undefined): void {
    if (text === undefined) this.open.delete(path);
    else this.open.set(path, text);
  }

  analyze(request: AnalyzeRequest): AnalyzeReply {
    const started = performance.now();
    const { key, language, text } = request;
    let state = this.states.get(key);
    if (!state || state.analyzer.language !== language) {
      state = new ProgramState(new DocumentAnalyzer(this.grammars, language));
      this.states.set(key, state);
    }
    const fresh = request.fresh || state.text === undefined;
    try {
      const imports = new Set<string>();
      const resolver = request.file ? this.workspace.resolverFor(request.file, language, imports) : undefined;
      const change = fresh ? undefined : changeBetween(state.text!, text);
      const lineName = request.cells && cellLineName(request.cells);
      const analysis = state.analyzer.update(text, change && [change], resolver, lineName);
      if (!analysis) {
        this.states.delete(key);
        return { skipped: `No analysis of this file: ${PARSE_GAVE_UP}.` };
      }
      state.text = text;
      return { analysis, imports: [...imports], fresh, ms: performance.now() - started };
    } catch (e) {
      this.log('error', `analysis of ${key} failed: ${e instanceof Error ? e.stack : String(e)}`);
      this.states.delete(key);
      return { skipped: 'The analysis failed: see the Attention Lens output for details.' };
    }
  }

  forget(key: string): void {
    this.states.delete(key);
  }

  dispose(): void {
    this.states.dispose();
    this.workspace.dispose();
    this.grammars.dispose();
  }
}
