/**
 * One Analysis per document version, shared by every surface. Typing only records that a document
 * changed: the analysis runs once the typing pauses (or at once when a surface asks for the current
 * version), from the text last analysed, as one incremental re-parse of everything typed in between. It
 * runs on the analysis engine's worker thread: this thread, which every extension shares, only waits.
 * A notebook's code cells are analysed together, as one program, and each cell shows its own part of it.
 */
import type { NamedConfiguration } from '../syntax/ownConfigurations';
import * as vscode from 'vscode';
import type { Analysis } from '../core/analysis/analyze';
import { isConfigurationFile } from '../syntax/configurationFiles';
import type { Language } from '../core/ir/source';
import { BoundedCache } from '../service/boundedCache';
import { cellView, type CellPlace } from '../service/cellView';
import type { Log } from '../service/documentEngine';
import { InlineEngine, WorkerEngine, type Engine } from '../service/engineClient';
import type { Roots } from '../service/editorFiles';
import { onPackagesChanged, packageFolders } from './pythonPackages';
import { Grammars, PARSE_GAVE_UP } from '../syntax/parser';
import { notebookKey, programKey, programOf, type Program } from './notebookCells';
import { hostTurns, nextTurn } from '../service/hostTurns';

const LANGUAGES: Record<string, Language> = { python: 'python', typescript: 'typescript' };
/** Beyond this a file is not analysed: nothing in it would be worth a frozen editor. */
export const MAX_CHARS = 5_000_000;
/** Quiet time after the last keystroke before a document is analysed again. */
export const DEBOUNCE_MS = 200;
/** How long typing pauses before a full analysis follows a first one that left factories out. */
const FULL_AFTER_MS = 1_000;
/** Programs whose last analysis is kept (the engine keeps as many trees). */
const MAX_PROGRAMS = 20;

/** A program's last analysis, as the editor shows it. Its tree lives in the analysis engine. */
class DocumentState implements vscode.Disposable {
  /** The text last analysed (for a notebook, its code cells joined); undefined before the first run. */
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
  /**
   * Set when the last analysis left out the files importing this one (a first analysis does, for its first
   * numbers to come at once): the next one, started at once, runs them.
   */
  importersDue = false;
  /**
   * Set when the last analysis was a first one whose work budget left some of the file's factories out: a
   * full one follows once typing pauses (at once after a file's first analysis).
   */
  fullDue = false;
  /** The configurations chosen when it was last analysed (ConfigurationChoices), as one key. */
  chosen = '';
  /** Files of the workspace whose classes or constants this document imports. */
  imports = new Set<string>();
  /** The analysis under way, for the program's signature then: a second request for it waits for it. */
  running: { readonly signature: string; readonly done: Promise<void> } | undefined;

  constructor(private readonly forget: () => void) {}

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
    this.forget();
  }
}

/** A pending analysis: its timer and the token cancelled by the next edit. */
interface Scheduled {
  readonly timer: ReturnType<typeof setTimeout>;
  readonly source: vscode.CancellationTokenSource;
}

/**
 * A program's choices (configurationChoice.ts): the configurations shown, by their contexts, and the user's
 * own, as expressions.
 */
export interface Chosen {
  readonly chosen: readonly string[];
  readonly own: readonly string[];
  /** The configurations the settings name for the program's classes, listed with the others. */
  readonly listed?: readonly NamedConfiguration[];
}

function choiceKey(chosen: Chosen): string {
  return JSON.stringify([chosen.chosen, chosen.own, chosen.listed ?? []]);
}

export function languageOf(doc: vscode.TextDocument): Language | undefined {
  return LANGUAGES[doc.languageId];
}

/** The workspace folders on disk, where imports are read. */
function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** The workspace folders, and the installed packages' folders imports are read from after them. */
async function roots(): Promise<Roots> {
  const workspace = folders();
  return { folders: workspace, packages: await packageFolders(workspace) };
}

export class AnalysisService implements vscode.Disposable {
  private readonly states = new BoundedCache<string, DocumentState>(MAX_PROGRAMS);
  private readonly scheduled = new Map<string, Scheduled>();
  private engine: Promise<Engine> | undefined;
  /** Editors' texts of files on disk changed since the engine was last sent them (undefined: closed). */
  private readonly changedTexts = new Map<string, vscode.TextDocument | undefined>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly _onDidAnalyze = new vscode.EventEmitter<vscode.TextDocument>();
  readonly onDidAnalyze = this._onDidAnalyze.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    /**
     * The configurations the user chose in a program, their own, which its analysis shows, and those the settings
     * name for the document's folder.
     */
    private readonly chosen: (key: string, doc: vscode.TextDocument) => Chosen = () => ({
      chosen: [],
      own: [],
    }),
  ) {
    for (const doc of vscode.workspace.textDocuments) this.textChanged(doc);
    this.disposables.push(
      this._onDidAnalyze,
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      vscode.workspace.onDidOpenTextDocument((doc) => this.textChanged(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === 'file') this.changedTexts.set(doc.uri.fsPath, undefined);
        this.forget(doc);
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        // Cells added, removed or moved change the program.
        const first = e.notebook.getCells().find((c) => languageOf(c.document));
        if (e.contentChanges.length && first) this.schedule(first.document);
      }),
      vscode.workspace.onDidCloseNotebookDocument((notebook) => {
        for (const language of Object.keys(LANGUAGES)) this.states.delete(notebookKey(notebook, language));
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rootsChanged()),
      onPackagesChanged(() => this.rootsChanged()),
    );
  }

  /** The analysis of the document's current version, computed now when the last one is out of date. */
  async analysis(doc: vscode.TextDocument): Promise<Analysis | undefined> {
    if (!languageOf(doc)) return undefined;
    this.engine ??= this.startEngine();
    await this.engine;
    const analysis = doc.isClosed ? undefined : await this.current(doc);
    // Each asker goes on in a turn of its own, not in the one that applied the analysis, all of them one after another.
    await nextTurn();
    hostTurns.resume();
    return analysis;
  }

  /**
   * The document's last analysis, of whatever version, without asking for one: what follows the cursor reads
   * it while the user types, and is refreshed by onDidAnalyze after the pause. Asking for the analysis of each
   * version instead analysed the file on every key, and took each analysis into this thread.
   */
  latest(doc: vscode.TextDocument): Analysis | undefined {
    return languageOf(doc) ? this.states.peek(programKey(doc))?.viewOf(doc) : undefined;
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

  /** The engine on a worker thread; in this thread when no worker starts. */
  private async startEngine(): Promise<Engine> {
    const started = Date.now();
    const log: Log = (level, message) => (level === 'error' ? this.log.error(message) : this.log.trace(message));
    const script = vscode.Uri.joinPath(this.extensionUri, 'dist', 'analysisWorker.js').fsPath;
    const worker = await WorkerEngine.start(script, await roots(), log);
    if (worker) {
      this.log.info(`analysis worker started in ${Date.now() - started} ms`);
      return worker;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const grammars = await Grammars.load((file) =>
      Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(dist, file))),
    );
    this.log.info(`analysing in the extension host's thread; grammars loaded in ${Date.now() - started} ms`);
    return new InlineEngine(grammars, await roots(), log);
  }

  private async current(doc: vscode.TextDocument): Promise<Analysis | undefined> {
    const language = languageOf(doc);
    if (!language) return undefined;
    const program = programOf(doc);
    let state = this.states.get(program.key);
    for (;;) {
      // An analysis under way: of this version, it is the answer; of an older one, this one starts from it.
      if (state?.running) {
        const same = state.running.signature === program.signature;
        await state.running.done;
        if (same) return state.viewOf(doc);
        continue;
      }
      if (
        state &&
        state.signature === program.signature &&
        !state.stale &&
        !state.importersDue &&
        !state.fullDue &&
        state.chosen === choiceKey(this.chosen(program.key, doc))
      )
        return state.viewOf(doc);
      break;
    }
    this.cancelScheduled(program.key);
    if (!state) {
      const key = program.key;
      state = new DocumentState(() => void this.engine?.then((e) => e.forget(key)));
      this.states.set(key, state);
    }
    const running = state;
    const done = this.run(program, language, running).finally(() => (running.running = undefined));
    running.running = { signature: program.signature, done };
    await done;
    // The surfaces refresh in a turn of their own, not in the one that received the analysis.
    setImmediate(() =>
      hostTurns.time('refreshing the surfaces', () => {
        for (const d of program.docs) if (!d.isClosed) this._onDidAnalyze.fire(d);
      }),
    );
    return running.viewOf(doc);
  }

  private async run(program: Program, language: Language, state: DocumentState): Promise<void> {
    const [doc] = program.docs;
    const texts = program.docs.map((d) => d.getText());
    const text = texts.join('\n');
    const cells = new Map<vscode.TextDocument, CellPlace>();
    if (program.cells) {
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
    const chosen = this.chosen(program.key, doc);
    const rechosen = state.chosen !== choiceKey(chosen);
    state.signature = program.signature;
    state.numbering = program.numbering;
    state.stale = false;
    state.chosen = choiceKey(chosen);
    // The same joined text may still be cut into cells elsewhere (a line break moved from one cell to the next).
    if (!fresh && !rechosen && !state.importersDue && !state.fullDue && state.text === text)
      return state.analysed(state.analysis, cells);
    if (text.length > MAX_CHARS) {
      // The engine's tree of the last text is no use to the next: it starts afresh.
      void this.engine?.then((e) => e.forget(program.key));
      this.skip(
        state,
        `The file is too large to analyse (${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_CHARS.toLocaleString('en-US')}).`,
      );
      return;
    }
    // The factories' full allowance takes seconds on the largest files (timm's vision_transformer.py): given
    // once the first numbers are shown and typing has paused, never while a key waits for its own.
    const depth = state.fullDue && !fresh && state.text === text ? 'full' : 'first';
    const engine = await this.engine!;
    const reply = await engine.analyze(
      {
        key: program.key,
        language,
        text,
        fresh,
        file: doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined,
        cells: program.cells,
        chosen: chosen.chosen,
        own: chosen.own,
        listed: chosen.listed,
        // A file's first analysis comes without its importers' configurations; the next one, at once, with them.
        importers: state.analysis !== undefined,
        depth,
      },
      this.takeChangedTexts(),
    );
    hostTurns.time('applying an analysis', () => {
      // A full analysis gave way to a newer request: the first analysis stands, the full one is asked again.
      if ('skipped' in reply && reply.skipped === 'interrupted') {
        this.schedule(doc, FULL_AFTER_MS);
        return;
      }
      if ('skipped' in reply) {
        this.skip(
          state,
          reply.skipped === 'parse'
            ? `No analysis of this file: ${PARSE_GAVE_UP}.`
            : 'The analysis failed: see the Attention Lens output for details.',
        );
        return;
      }
      const firstAnalysis = state.analysis === undefined;
      state.text = text;
      state.analysed(reply.analysis, cells);
      state.skipped = undefined;
      state.importersDue = reply.importersLeftOut === true;
      state.fullDue = depth === 'first' && reply.analysis.configurationsCut === true;
      if (state.importersDue || (state.fullDue && firstAnalysis)) this.schedule(doc, 0);
      else if (state.fullDue) this.schedule(doc, FULL_AFTER_MS);
      // Results reused across an edit keep the imports they were computed with.
      if (reply.fresh) state.imports = new Set(reply.imports);
      else for (const f of reply.imports) state.imports.add(f);
      this.log.trace(`analysed ${program.key} (${program.signature}) in ${reply.ms.toFixed(1)} ms`);
    });
  }

  /** The configurations the settings name changed: every open document is analysed again. */
  /** The folders imports are read from changed: every open document is analysed again in full. */
  private rootsChanged(): void {
    void (async () => {
      const now = await roots();
      const engine = await this.engine;
      if (!engine) return;
      engine.setRoots(now);
      for (const doc of vscode.workspace.textDocuments) {
        const state = languageOf(doc) ? this.states.peek(programKey(doc)) : undefined;
        if (!state) continue;
        state.stale = true;
        this.schedule(doc, 0);
      }
    })().catch((e: unknown) => this.log.error(`reading the Python packages' folders failed: ${String(e)}`));
  }

  settingsChanged(): void {
    for (const doc of vscode.workspace.textDocuments) if (languageOf(doc)) this.schedule(doc, 0);
  }

  /** The user chose another configuration in a program: its open documents are analysed again at once. */
  choiceChanged(key: string): void {
    for (const doc of vscode.workspace.textDocuments) if (programKey(doc) === key) this.schedule(doc, 0);
  }

  /** No analysis for this version; the next one starts afresh. */
  private skip(state: DocumentState, reason: string): void {
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
    this.textChanged(e.document);
    this.importedChanged(e.document);
    this.schedule(e.document);
  }

  /** An editor's text of a file others may import or read their sizes from: the engine reads it before the disk. */
  private textChanged(doc: vscode.TextDocument): void {
    if (doc.uri.scheme === 'file' && (languageOf(doc) || isConfigurationFile(doc.uri.fsPath)))
      this.changedTexts.set(doc.uri.fsPath, doc);
  }

  private takeChangedTexts(): Map<string, string | undefined> {
    const texts = new Map<string, string | undefined>();
    for (const [path, doc] of this.changedTexts) texts.set(path, doc && !doc.isClosed ? doc.getText() : undefined);
    this.changedTexts.clear();
    return texts;
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
    void this.engine?.then((e) => e.dispose());
    for (const d of this.disposables) d.dispose();
  }
}
