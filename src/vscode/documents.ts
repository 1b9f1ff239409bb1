/**
 * One Analysis per document version, shared by every surface. Edits are analysed incrementally as they
 * arrive; a notebook cell is analysed after the code cells above it, whose imports and constants it uses.
 */
import * as vscode from 'vscode';
import type { Analysis } from '../core/analysis';
import type { Language } from '../core/source';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { Grammars } from '../syntax/parser';
import { WorkspaceModels } from '../syntax/workspaceModels';
import { readFileSync } from 'fs';

const LANGUAGES: Record<string, Language> = { python: 'python', typescript: 'typescript' };
/** Beyond this a file is not analysed: nothing in it would be worth a frozen editor. */
const MAX_CHARS = 5_000_000;

interface Entry {
  readonly analyzer: DocumentAnalyzer;
  version: number;
  analysis: Analysis | undefined;
  /** Lines of earlier notebook cells placed above this cell's text. */
  preambleLines: number;
  /** Files of the workspace whose classes or constants this document imports. */
  imports: Set<string>;
}

export function languageOf(doc: vscode.TextDocument): Language | undefined {
  return LANGUAGES[doc.languageId];
}

export class AnalysisService implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private grammars: Promise<Grammars> | undefined;
  private loaded: Grammars | undefined;
  private workspace: WorkspaceModels | undefined;
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
    );
  }

  /** The analysis of the document's current version, loading the grammars on first use. */
  async analysis(doc: vscode.TextDocument): Promise<Analysis | undefined> {
    if (!languageOf(doc)) return undefined;
    this.grammars ??= this.loadGrammars();
    this.loaded = await this.grammars;
    this.workspace ??= new WorkspaceModels(this.loaded, readWorkspaceFile);
    return this.current(doc);
  }

  /** Maps a span of the analysed text back to the document (notebook cells have a preamble). */
  range(doc: vscode.TextDocument, span: { startLine: number; startChar: number; endLine: number; endChar: number }): vscode.Range {
    const shift = this.entries.get(doc.uri.toString())?.preambleLines ?? 0;
    return new vscode.Range(span.startLine - shift, span.startChar, span.endLine - shift, span.endChar);
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
    let entry = this.entries.get(key);
    if (entry && entry.version === doc.version) return entry.analysis;
    if (!entry) {
      entry = { analyzer: new DocumentAnalyzer(this.loaded, language), version: -1, analysis: undefined, preambleLines: 0, imports: new Set() };
      this.entries.set(key, entry);
    }
    return this.run(doc, entry);
  }

  private run(doc: vscode.TextDocument, entry: Entry, changes?: readonly vscode.TextDocumentContentChangeEvent[]): Analysis | undefined {
    const started = performance.now();
    try {
      const preamble = notebookPreamble(doc);
      const text = preamble + doc.getText();
      entry.preambleLines = preamble ? preamble.split('\n').length - 1 : 0;
      const imports = new Set<string>();
      const resolver = doc.uri.scheme === 'file' && this.workspace ? this.workspace.resolverFor(doc.uri.fsPath, entry.analyzer.language, imports) : undefined;
      entry.analysis = text.length > MAX_CHARS ? undefined : entry.analyzer.update(text, preamble ? undefined : changes, resolver);
      // Results reused across an edit keep the imports they were computed with.
      if (!changes) entry.imports = imports;
      else for (const f of imports) entry.imports.add(f);
    } catch (e) {
      this.log.error(`analysis of ${doc.uri.toString()} failed: ${e instanceof Error ? e.stack : String(e)}`);
      entry.analysis = undefined;
    }
    entry.version = doc.version;
    this.log.trace(`analysed ${doc.uri.toString()} v${doc.version} in ${(performance.now() - started).toFixed(1)} ms`);
    this._onDidAnalyze.fire(doc);
    return entry.analysis;
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length) return;
    this.importedChanged(e.document);
    const entry = this.entries.get(e.document.uri.toString());
    if (!entry) return;
    // Incremental only from the version just before; otherwise the next reader re-analyses in full.
    if (entry.version === e.document.version - 1) this.run(e.document, entry, e.contentChanges);
  }

  /** A file others import changed: they are analysed again in full when next read. */
  private importedChanged(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    for (const [key, entry] of this.entries) {
      if (!entry.imports.has(doc.uri.fsPath)) continue;
      entry.version = -1;
      const dependent = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      if (dependent) this._onDidAnalyze.fire(dependent);
    }
  }

  private forget(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    this.entries.get(key)?.analyzer.dispose();
    this.entries.delete(key);
  }

  dispose(): void {
    for (const entry of this.entries.values()) entry.analyzer.dispose();
    this.entries.clear();
    this.workspace?.dispose();
    this.loaded?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** An open editor's text (the newest), else the file on disk; undefined when there is none. */
function readWorkspaceFile(file: string): string | undefined {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
  if (open) return open.getText();
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The Python code cells above `doc` in its notebook, so the cell sees their imports and constants. */
function notebookPreamble(doc: vscode.TextDocument): string {
  if (doc.uri.scheme !== 'vscode-notebook-cell') return '';
  for (const notebook of vscode.workspace.notebookDocuments) {
    const cells = notebook.getCells();
    const index = cells.findIndex((c) => c.document === doc);
    if (index < 0) continue;
    return cells
      .slice(0, index)
      .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === doc.languageId)
      .map((c) => `${c.document.getText()}\n`)
      .join('');
  }
  return '';
}
