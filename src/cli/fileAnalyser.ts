/**
 * Runs the editor's analyser over the files of a run, one after another in this thread: the grammars are
 * loaded once and the imported files parsed once. A file that fails is reported and the others go on.
 */
import * as path from 'path';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { fsWasmLoader } from '../syntax/fsLoader';
import { Grammars, PARSE_GAVE_UP } from '../syntax/parser';
import { WorkspaceModels } from '../syntax/workspaceModels';
import { WorkspaceFileReader } from '../service/workspaceFileReader';
import type { SourceFile } from './files';
import { outputOf, type FileOutput, type OutputSettings } from './fileOutput';
import { displayPath, type FileReport } from './report';
import { readOncePerRun } from './runReader';
import { lineNameOf, plainText } from './place';
import { readSource, type Source } from './source';

export class FileAnalyser {
  private constructor(
    private readonly grammars: Grammars,
    private readonly workspace: WorkspaceModels,
  ) {}

  /**
   * `roots`: the folders the paths given name (a file's own folder for a file): imports are read only inside
   * them, as the editor reads them only inside its workspace folders.
   */
  static async load(roots: readonly string[]): Promise<FileAnalyser> {
    const grammars = await Grammars.load(fsWasmLoader);
    return new FileAnalyser(
      grammars,
      new WorkspaceModels(grammars, readOncePerRun(new WorkspaceFileReader(() => roots))),
    );
  }

  /** The file's output; its analysis is dropped once the output is made. */
  async analyse(file: SourceFile, settings: OutputSettings): Promise<FileOutput> {
    return outputOf(await this.report(file), settings);
  }

  private async report({ path: file, language }: SourceFile): Promise<FileReport> {
    const shown = { path: displayPath(file), language };
    let source: Source;
    try {
      source = await readSource(file);
    } catch (e) {
      return { ...shown, error: (e as Error).message };
    }
    const analyzer = new DocumentAnalyzer(this.grammars, language);
    try {
      const analysis = analyzer.update(
        source.text,
        undefined,
        this.workspace.resolverFor(path.resolve(file), language),
        source.locate === plainText ? undefined : lineNameOf(source.locate),
      );
      return analysis
        ? { ...shown, analysis, locate: source.locate }
        : { ...shown, error: `not analysed: ${PARSE_GAVE_UP}` };
    } catch (e) {
      return { ...shown, error: `analysis failed: ${e instanceof Error ? e.message : String(e)}` };
    } finally {
      analyzer.dispose();
    }
  }

  dispose(): void {
    this.workspace.dispose();
    this.grammars.dispose();
  }
}
