/**
 * One Analysis per document version, shared by every surface. Typing only records that a document
 * changed: the analysis runs once the typing pauses (or at once when a surface asks for the current
 * version), from the text last analysed, as one incremental re-parse of everything typed in between.
 * A notebook's code cells are analysed together, as one program, and each cell shows its own part of it.
 */
import * as vscode from 'vscode';
import type { Analysis } from '../core/analysis/analyze';
import type { Language } from '../core/source';
import { BoundedCache } from '../service/boundedCache';
import { cellView, type CellPlace } from '../service/cellView';
import { changeBetween } from '../syntax/textChange';
import { WorkspaceFileReader } from '../service/workspaceFileReader';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { Grammars, PARSE_GAVE_UP } from '../syntax/parser';
import { WorkspaceModels } from '../syntax/workspaceModels';
import { notebookKey, programKey, programOf, type Program } from './notebookCells';

const LANGUAGES: Record<string, Language> = { python: 'python', typescript: 'typescript' };
/** Beyond this a file is not analysed: nothing in it would be worth a frozen editor. */
export const MAX_CHARS = 5_000_000;
/** Quiet time after the last keystroke before a document is analysed again. */
export const DEBOUNCE_MS = 200;
/** Documents whose trees are kept; others are parsed again in full when next needed. */
const MAX_TREES = 20;

/** A program's tree and last analysis. Dropping it from the cache frees the tree. */
class DocumentState implements vscode.Disposable {
  /** The text the analyzer holds (for a notebook, its code cells joined); undefined before the first run. */
  text: string | undefined;
  /** The program's signature when it was last analysed. */
  signature: string | undefined;
  /** The cells' places among all cells when the tree was made: when they change, so do the names of lines. */
  numbering: string | undefined;
  analysis: Analysis | undefined;
  /** For a notebook, where each cell lies in the joined text, and each cell's part of the analysis once asked for. */
  cells = new Map<vscode.TextDocument, CellPlace>();
  private readonly views = new Map<vscode.TextDocument, Analysis>();
  /** Why there is no analysis, when there is none. */
  skipped: string | undefined;
  /** Set when a file this one imports changed: the next run starts afresh. */
  stale = false;
  /** Files of the workspace whose classes or constants this document imports. */
  imports = new Set<string>();

  constructor(readonly analyzer: DocumentAnalyzer) {}

  /** The analysis as `doc` shows it: a notebook cell's own part, in the cell's lines. */
  viewOf(doc: vscode.TextDocument): Analysis | undefined {
    if (!this.analysis || !this.cells.size) return this.analysis;
    const place = this.cells.get(doc);
    if (!place) return undefined;
    let view = this.views.get(doc);
    if (!view) {
      view = cellView(this.analysis, place);
      this.views.set(doc, view);
    }
    return view;
  }

  /** A new analysis (or none) of the text the cells lie in as `cells` says. */
  analysed(analysis: Analysis | undefined, cells: Map<vscode.TextDocument, CellPlace>): void {
    this.analysis = analysis;
    this.cells = cells;
    this.views.clear();
  }

  dispose(): void {
    this.analyzer.dispose();
  }
}

/** A pending analysis: its timer and the token cancelled by the next edit. */
interface Scheduled {
  readonly timer: ReturnType<typeof setTimeout>;
  readonly source: vscode.CancellationTokenSource;
}

export function languageOf(doc: vscode.TextDocument): Language | undefined {
  return LANGUAGES[doc.languageId];
}

export class AnalysisService implements vscode.Disposable {
  private readonly states = new BoundedCache<string, DocumentState>(MAX_TREES);
  private readonly scheduled = new Map<string, Scheduled>();
  private grammars: Promise<Grammars> | undefined;
  private loaded: Grammars | undefined;
  private workspace: WorkspaceModels | undefined;
  private readonly files = new WorkspaceFileReader(() =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  );
  private readonly disposables: vscode.Disposable[] = [];
  private readonly _onDidAnalyze = new vscode.EventEmitter<vscode.TextDocument>();
  readonly onDidAnalyze = this._onDidAnalyze.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this._onDidAnalyze,
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc)),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        // Cells added, removed or moved change the program.
        const first = e.notebook.getCells().find((c) => languageOf(c.document));
        if (e.contentChanges.length && first) this.schedule(first.document);
      }),
      vscode.workspace.onDidCloseNotebookDocument((notebook) => {
        for (const language of Object.keys(LANGUAGES)) this.states.delete(notebookKey(notebook, language));
      }),
    );
  }

  /** The analysis of the document's current version, computed now when the last one is out of date. */
  async analysis(doc: vscode.TextDocument): Promise<Analysis | undefined> {
    if (!languageOf(doc)) return undefined;
    this.grammars ??= this.loadGrammars();
    this.loaded = await this.grammars;
    this.workspace ??= new WorkspaceModels(this.loaded, (file) => this.files.read(file, openText));
    return doc.isClosed ? undefined : this.current(doc);
  }

  /** Why the document has no analysis (too large, the parser gave up, an internal error), if so. */
  skippedReason(doc: vscode.TextDocument): string | undefined {
    return this.states.peek(programKey(doc))?.skipped;
  }

  /** A span of the analysis as a range of the document (a cell's analysis is already in cell coordinates). */
  range(
    _doc: vscode.TextDocument,
    span: { startLine: number; startChar: number; endLine: number; endChar: number },
  ): vscode.Range {
    return new vscode.Range(span.startLine, span.startChar, span.endLine, span.endChar);
  }

  private async loadGrammars(): Promise<Grammars> {
    const started = Date.now();
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const grammars = await Grammars.load((file) =>
      Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(dist, file))),
    );
    this.log.info(`grammars loaded in ${Date.now() - started} ms`);
    return grammars;
  }

  private current(doc: vscode.TextDocument): Analysis | undefined {
    const language = languageOf(doc);
    if (!language || !this.loaded) return undefined;
    const program = programOf(doc);
    let state = this.states.get(program.key);
    if (state && state.signature === program.signature && !state.stale) return state.viewOf(doc);
    this.cancelScheduled(program.key);
    if (!state) {
      state = new DocumentState(new DocumentAnalyzer(this.loaded, language));
      this.states.set(program.key, state);
    }
    this.run(program, state);
    for (const d of program.docs) this._onDidAnalyze.fire(d);
    return state.viewOf(doc);
  }

  private run(program: Program, state: DocumentState): void {
    const started = performance.now();
    const [doc] = program.docs;
    const texts = program.docs.map((d) => d.getText());
    const text = texts.join('\n');
    const cells = new Map<vscode.TextDocument, CellPlace>();
    if (program.lineName) {
      let start = 0;
      let line = 0;
      program.docs.forEach((d, i) => {
        cells.set(d, { start, line, length: texts[i].length });
        start += texts[i].length + 1;
        line += d.lineCount;
      });
    }
    // Cells numbered anew rename the lines that contexts name (`GPT (cell 4, line 2)`): nothing is kept.
    const fresh = state.text === undefined || state.stale || state.numbering !== program.numbering;
    state.signature = program.signature;
    state.numbering = program.numbering;
    state.stale = false;
    // The same joined text may still be cut into cells elsewhere (a line break moved from one cell to the next).
    if (!fresh && state.text === text) return state.analysed(state.analysis, cells);
    if (text.length > MAX_CHARS) {
      this.skip(
        state,
        `The file is too large to analyse (${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_CHARS.toLocaleString('en-US')}).`,
      );
      return;
    }
    try {
      const imports = new Set<string>();
      const resolver =
        doc.uri.scheme === 'file' && this.workspace
          ? this.workspace.resolverFor(doc.uri.fsPath, state.analyzer.language, imports)
          : undefined;
      const change = fresh ? undefined : changeBetween(state.text!, text);
      const analysis = state.analyzer.update(text, change && [change], resolver, program.lineName);
      if (!analysis) {
        this.skip(state, `No analysis of this file: ${PARSE_GAVE_UP}.`);
        return;
      }
      state.text = text;
      state.analysed(analysis, cells);
      state.skipped = undefined;
      // Results reused across an edit keep the imports they were computed with.
      if (fresh) state.imports = imports;
      else for (const f of imports) state.imports.add(f);
    } catch (e) {
      this.log.error(`analysis of ${program.key} failed: ${e instanceof Error ? e.stack : String(e)}`);
      this.skip(state, 'The analysis failed: see the Attention Lens output for details.');
      return;
    }
    this.log.trace(`analysed ${program.key} (${program.signature}) in ${(performance.now() - started).toFixed(1)} ms`);
  }

  /** No analysis for this version; the next one starts afresh, with a new tree. */
  private skip(state: DocumentState, reason: string): void {
    state.analyzer.dispose();
    state.text = undefined;
    state.analysed(undefined, new Map());
    state.skipped = reason;
  }

  /** Analyses `doc` once typing has paused; each new edit cancels the run before it. */
  private schedule(doc: vscode.TextDocument, delay = DEBOUNCE_MS): void {
    if (!languageOf(doc) || doc.isClosed) return;
    const key = programKey(doc);
    this.cancelScheduled(key);
    const source = new vscode.CancellationTokenSource();
    const timer = setTimeout(() => {
      if (source.token.isCancellationRequested) return;
      this.scheduled.delete(key);
      source.dispose();
      void this.analysis(doc).catch((e: unknown) => this.log.error(`scheduled analysis failed: ${String(e)}`));
    }, delay);
    this.scheduled.set(key, { timer, source });
  }

  private cancelScheduled(key: string): void {
    const pending = this.scheduled.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.source.cancel();
    pending.source.dispose();
    this.scheduled.delete(key);
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length) return;
    this.importedChanged(e.document);
    this.schedule(e.document);
  }

  /** A file others import changed: they are analysed again in full. */
  private importedChanged(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    for (const dependent of vscode.workspace.textDocuments) {
      const state = this.states.peek(programKey(dependent));
      if (!state?.imports.has(doc.uri.fsPath)) continue;
      state.stale = true;
      this.schedule(dependent);
    }
  }

  private forget(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    this.cancelScheduled(key);
    this.states.delete(key);
  }

  dispose(): void {
    for (const key of [...this.scheduled.keys()]) this.cancelScheduled(key);
    this.states.dispose();
    this.workspace?.dispose();
    this.loaded?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** An editor's unsaved text of a file, which wins over the disk. */
function openText(realPath: string): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === realPath)?.getText();
}
