/** Runs the editor's analyser over each file; a file that fails is reported and the others go on. */
import * as path from 'path';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { fsWasmLoader } from '../syntax/fsLoader';
import { Grammars, PARSE_GAVE_UP } from '../syntax/parser';
import { WorkspaceModels } from '../syntax/workspaceModels';
import type { SourceFile } from './files';
import { displayPath, type FileReport } from './report';
import { readSource, type Source } from './source';
import { WorkspaceFileReader } from '../service/workspaceFileReader';

/**
 * `roots`: the folders the paths given name (a file's own folder for a file): imports are read only inside
 * them, as the editor reads them only inside its workspace folders.
 */
export async function analyzeFiles(files: readonly SourceFile[], roots: readonly string[]): Promise<FileReport[]> {
  const grammars = await Grammars.load(fsWasmLoader);
  const imports = new WorkspaceFileReader(() => roots);
  const workspace = new WorkspaceModels(grammars, (file) => imports.read(file));
  try {
    const reports: FileReport[] = [];
    for (const file of files) reports.push(await analyzeFile(file, grammars, workspace));
    return reports;
  } finally {
    workspace.dispose();
    grammars.dispose();
  }
}

async function analyzeFile({ path: file, language }: SourceFile, grammars: Grammars, workspace: WorkspaceModels): Promise<FileReport> {
  const shown = { path: displayPath(file), language };
  let source: Source;
  try {
    source = await readSource(file);
  } catch (e) {
    return { ...shown, error: (e as Error).message };
  }
  const analyzer = new DocumentAnalyzer(grammars, language);
  try {
    const analysis = analyzer.update(source.text, undefined, workspace.resolverFor(path.resolve(file), language));
    return analysis ? { ...shown, analysis, locate: source.locate } : { ...shown, error: `not analysed: ${PARSE_GAVE_UP}` };
  } catch (e) {
    return { ...shown, error: `analysis failed: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    analyzer.dispose();
  }
}
