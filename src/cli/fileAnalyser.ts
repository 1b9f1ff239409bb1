/**
 * Runs the editor's document engine over the files of a run, one after another in this thread: the grammars
 * are loaded once and the imported files parsed once. A file that fails is reported and the others go on.
 */
import * as path from 'path';
import type { Roots } from '../service/editorFiles';
import { fsWasmLoader } from '../syntax/fsLoader';
import { Grammars, PARSE_GAVE_UP } from '../syntax/parser';
import { DocumentEngine } from '../service/documentEngine';
import { WorkspaceFileReader } from '../service/workspaceFileReader';
import type { SourceFile } from './files';
import { hasConfiguration, outputOf, type FileOutput, type OutputSettings } from './fileOutput';
import { displayPath, type FileReport } from './report';
import { readOncePerRun } from './runReader';
import { readSource, type Source } from './source';

export class FileAnalyser {
  private constructor(private readonly engine: DocumentEngine) {}

  /**
   * `roots`: the folders the paths given name (a file's own folder for a file) and the installed packages'
   * folders: imports are read only inside them, as the editor reads them only inside its workspace folders.
   */
  static async load(roots: Roots): Promise<FileAnalyser> {
    const grammars = await Grammars.load(fsWasmLoader);
    // What fails is reported in the file's row, in the words the engine gives.
    const quiet = () => undefined;
    const reader = new WorkspaceFileReader(() => [...roots.folders, ...roots.packages]);
    const list = (dir: string, suffix: string, max: number) => reader.list(dir, suffix, max);
    return new FileAnalyser(new DocumentEngine(grammars, readOncePerRun(reader), quiet, list, () => roots.packages));
  }

  /** The file's output; its analysis is dropped once the output is made. */
  async analyse(file: SourceFile, settings: OutputSettings): Promise<FileOutput> {
    return outputOf(await this.report(file, settings.chosen), settings);
  }

  private async report({ path: file, language }: SourceFile, chosen: readonly string[]): Promise<FileReport> {
    const shown = { path: displayPath(file), language };
    let source: Source;
    try {
      source = await readSource(file);
    } catch (e) {
      return { ...shown, error: (e as Error).message };
    }
    const key = path.resolve(file);
    const request = { key, language, text: source.text, fresh: true, file: key, cells: source.cells, chosen };
    let reply = this.engine.analyze(request);
    // A `--config` that names no configuration of the file but is an expression (`Transformer(ModelArgs(
    // vocab_size=32000))`) is the user's own: the file is analysed again with it.
    const analysed = 'analysis' in reply ? reply.analysis : undefined;
    const own = analysed ? chosen.filter((c) => c.includes('(') && !hasConfiguration(analysed, c)) : [];
    if (own.length) reply = this.engine.analyze({ ...request, own });
    // A run reads each file once: its tree is no use to the next.
    this.engine.forget(key);
    if ('analysis' in reply) return { ...shown, analysis: reply.analysis, locate: source.locate };
    return {
      ...shown,
      error:
        reply.skipped === 'failed'
          ? `analysis failed: ${reply.error}`
          : reply.skipped === 'parse'
            ? `not analysed: ${PARSE_GAVE_UP}`
            : 'analysis interrupted',
    };
  }

  dispose(): void {
    this.engine.dispose();
  }
}
