/**
 * One Analysis per document version, shared by every surface. Typing only records that a document
 * changed: the analysis runs once the typing pauses (or at once when a surface asks for the current
 * version), from the text last analysed, as one incremental re-parse of everything typed in between.
 * A notebook cell is analysed below the code cells above it, whose imports and constants it uses.
 */
import * as vscode from 'vscode';
import type { Analysis } from '../core/analysis';
import type { Language } from '../core/source';
import { BoundedCache } from '../service/boundedCache';
import { cellView, preambleOf } from '../service/cellView';
import { changeBetween } from '../syntax/textChange';
import { WorkspaceFileReader } from '../service/workspaceFileReader';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { Grammars, PARSE_GAVE_UP } from '../syntax/parser';
import { WorkspaceModels } from '../syntax/workspaceModels';
import { laterCells, notebookContext, notebookOf, type NotebookContext } from './notebookCells';

const LANGUAGES: Record<string, Language> = { python: 'python', typescript: 'typescript' };
/** Beyond this a file is not analysed: nothing in it would be worth a frozen editor. */
export const MAX_CHARS = 5_000_000;
/** Quiet time after the last keystroke before a document is analysed again. */
export const DEBOUNCE_MS = 200;
/** Documents whose trees are kept; others are parsed again in full when next needed. */
const MAX_TREES = 20;

/** A document's tree and last analysis. Dropping it from the cache frees the tree. */
class DocumentState implements vscode.Disposable {
  /** The text the analyzer holds (for a notebook cell, the code cells above it too); undefined before the first run. */
  text: string | undefined;
  version = -1;
  /** For a notebook cell, the code cells above it and how the notebook numbers its cells. */
  around: NotebookContext = { before: '', numbering: '' };
  analysis: Analysis | undefined;
  /** Why there is no analysis, when there is none. */
  skipped: string | undefined;
  /** Set when a file this one imports changed: the next run starts afresh. */
  stale = false;
  /** Files of the workspace whose classes or constants this document imports. */
  imports = new Set<string>();

  constructor(readonly analyzer: DocumentAnalyzer) {}

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
  private readonly files = new WorkspaceFileReader(() => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
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
        // Cells added, removed or moved change what every code cell sees above it.
        if (e.contentChanges.length) for (const cell of e.notebook.getCells()) this.schedule(cell.document);
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
    return this.states.peek(doc.uri.toString())?.skipped;
  }

  /** A span of the analysis as a range of the document (a cell's analysis is already in cell coordinates). */
  range(_doc: vscode.TextDocument, span: { startLine: number; startChar: number; endLine: number; endChar: number }): vscode.Range {
    return new vscode.Range(span.startLine, span.startChar, span.endLine, span.endChar);
  }

  private async loadGrammars(): Promise<Grammars> {
    const started = Date.now();
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const grammars = await Grammars.load((file) => Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(dist, file))));
    this.log.info(`grammars loaded in ${Date.now() - started} ms`);
    return grammars;
  }

  private current(doc: vscode.TextDocument): Analysis | undefined {
    const language = languageOf(doc);
    if (!language || !this.loaded) return undefined;
    const key = doc.uri.toString();
    const around = notebookContext(doc);
    let state = this.states.get(key);
    if (state && state.version === doc.version && sameContext(state.around, around) && !state.stale) return state.analysis;
    this.cancelScheduled(key);
    if (!state) {
      state = new DocumentState(new DocumentAnalyzer(this.loaded, language));
      this.states.set(key, state);
    }
    this.run(doc, state, around);
    this._onDidAnalyze.fire(doc);
    return state.analysis;
  }

  private run(doc: vscode.TextDocument, state: DocumentState, around: NotebookContext): void {
    const started = performance.now();
    const text = around.before + doc.getText();
    // Cells numbered anew rename the lines that contexts name (`GPT (cell 4, line 2)`): nothing is kept.
    const fresh = state.text === undefined || state.stale || state.around.numbering !== around.numbering;
    state.version = doc.version;
    state.around = around;
    state.stale = false;
    if (!fresh && state.text === text) return;
    if (text.length > MAX_CHARS) {
      this.skip(state, `The file is too large to analyse (${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_CHARS.toLocaleString('en-US')}).`);
      return;
    }
    try {
      const imports = new Set<string>();
      const resolver = doc.uri.scheme === 'file' && this.workspace ? this.workspace.resolverFor(doc.uri.fsPath, state.analyzer.language, imports) : undefined;
      const change = fresh ? undefined : changeBetween(state.text!, text);
      const analysis = state.analyzer.update(text, change && [change], resolver, around.lineName);
      if (!analysis) {
        this.skip(state, `No analysis of this file: ${PARSE_GAVE_UP}.`);
        return;
      }
      state.text = text;
      state.analysis = cellView(analysis, preambleOf(around.before));
      state.skipped = undefined;
      // Results reused across an edit keep the imports they were computed with.
      if (fresh) state.imports = imports;
      else for (const f of imports) state.imports.add(f);
    } catch (e) {
      this.log.error(`analysis of ${doc.uri.toString()} failed: ${e instanceof Error ? e.stack : String(e)}`);
      this.skip(state, 'The analysis failed: see the Attention Lens output for details.');
      return;
    }
    this.log.trace(`analysed ${doc.uri.toString()} v${doc.version} in ${(performance.now() - started).toFixed(1)} ms`);
  }

  /** No analysis for this version; the next one starts afresh, with a new tree. */
  private skip(state: DocumentState, reason: string): void {
    state.analyzer.dispose();
    state.text = undefined;
    state.analysis = undefined;
    state.skipped = reason;
  }

  /** Analyses `doc` once typing has paused; each new edit cancels the run before it. */
  private schedule(doc: vscode.TextDocument, delay = DEBOUNCE_MS): void {
    if (!languageOf(doc) || doc.isClosed) return;
    const key = doc.uri.toString();
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
    // Later cells of the same notebook see this cell above them.
    const notebook = notebookOf(e.document);
    if (notebook) for (const cell of laterCells(notebook, e.document)) this.schedule(cell);
    this.schedule(e.document);
  }

  /** A file others import changed: they are analysed again in full. */
  private importedChanged(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    for (const dependent of vscode.workspace.textDocuments) {
      const state = this.states.peek(dependent.uri.toString());
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

function sameContext(a: NotebookContext, b: NotebookContext): boolean {
  return a.before === b.before && a.numbering === b.numbering;
}

/** An editor's unsaved text of a file, which wins over the disk. */
function openText(realPath: string): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === realPath)?.getText();
}
