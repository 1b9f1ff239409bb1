/**
 * The documents' analyses, kept across versions: for each program (a file, or a notebook's code cells
 * joined), its syntax tree and last text, re-parsed incrementally from the text analysed before; imported
 * files read through the reader it is given. No editor API: the extension runs it on a worker thread
 * (analysisWorker.ts), off the thread every extension shares, reading the workspace folders with an
 * editor's unsaved text first (editorFiles.ts); the CLI drives it over the files of a run.
 */
import type { Analysis, Depth } from '../core/analysis/analyze';
import { AnalysisInterrupted } from '../core/limits/budget';
import type { Language } from '../core/ir/source';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import type { Grammars } from '../syntax/parser';
import { changeBetween } from '../syntax/textChange';
import { WorkspaceModels, type ListFiles, type ReadText } from '../syntax/workspaceModels';
import type { NamedConfiguration } from '../syntax/ownConfigurations';
import { BoundedCache } from './boundedCache';
import { cellLineName, type CellLines } from '../core/ir/cellLines';

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
  /** The configurations the user chose, by name or context: the places they build show them. */
  readonly chosen?: readonly string[];
  /** The user's own configurations, as expressions building a model (`Transformer(ModelArgs(vocab_size=32000))`). */
  readonly own?: readonly string[];
  /** Configurations named in the settings: listed with the others, shown only once chosen by name. */
  readonly listed?: readonly NamedConfiguration[];
  /**
   * Whether the files importing this one are run for the configurations they state (the default): an editor
   * leaves them out of a file's first analysis, for its first numbers to come as fast as the file's own.
   */
  readonly importers?: boolean;
  /**
   * `first` (an editor's first answer) gives the factories less work, saying so (`configurationsCut`) where
   * some were left out; `full`, the default, is what the CLI runs.
   */
  readonly depth?: Depth;
}

/**
 * Why a text has no analysis: the parser gave up on it, the analysis failed (`error` says how), or a full
 * analysis gave way to a newer request (`interrupted`: the last analysis still stands).
 */
export type Skipped =
  | { readonly skipped: 'parse' }
  | { readonly skipped: 'failed'; readonly error: string }
  | { readonly skipped: 'interrupted' };

export type AnalyzeReply =
  | {
      readonly analysis: Analysis;
      /** The files its imports were read from; with `fresh`, all of them, else those the edit's runs read. */
      readonly imports: readonly string[];
      readonly fresh: boolean;
      readonly ms: number;
      /** Left out (`importers: false`) where the files importing this one may state configurations of its classes. */
      readonly importersLeftOut?: true;
    }
  | Skipped;

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
  private readonly workspace: WorkspaceModels;

  constructor(
    private readonly grammars: Grammars,
    read: ReadText,
    private readonly log: Log,
    list?: ListFiles,
    /** The folders of the installed Python packages imports are read from (site-packages). */
    packages?: () => readonly string[],
  ) {
    this.workspace = new WorkspaceModels(grammars, read, list, packages);
  }

  /** `interrupted`: asked as the work goes; true stops it, the program's last analysis left standing. */
  analyze(request: AnalyzeRequest, interrupted?: () => boolean): AnalyzeReply {
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
      const found = request.file ? this.workspace.resolverFor(request.file, language, imports, fresh) : undefined;
      const resolver = found && request.importers === false ? { ...found, importers: undefined } : found;
      const change = fresh ? undefined : changeBetween(state.text!, text);
      const lineName = request.cells && cellLineName(request.cells);
      const analysis = state.analyzer.update(
        text,
        change && [change],
        resolver,
        lineName,
        request.chosen,
        request.own,
        request.listed,
        request.depth,
        interrupted,
      );
      if (!analysis) {
        this.states.delete(key);
        return { skipped: 'parse' };
      }
      state.text = text;
      const leftOut =
        request.importers === false && request.file?.endsWith('.py') && found && analysis.modules.length > 0;
      return {
        analysis,
        imports: [...imports],
        fresh,
        ms: performance.now() - started,
        ...(leftOut ? { importersLeftOut: true as const } : {}),
      };
    } catch (e) {
      // Stopped after parsing: its tree is of this text; the runs it kept may be half of a version's.
      if (e instanceof AnalysisInterrupted) {
        state.text = text;
        state.analyzer.forgetRuns();
        return { skipped: 'interrupted' };
      }
      this.log('error', `analysis of ${key} failed: ${e instanceof Error ? e.stack : String(e)}`);
      this.states.delete(key);
      return { skipped: 'failed', error: e instanceof Error ? e.message : String(e) };
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
