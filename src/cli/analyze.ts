/** Runs the editor's analyser over each file; a file that fails is reported and the others go on. */
import { readFileSync, statSync } from 'fs';
import * as path from 'path';
import { DocumentAnalyzer } from '../syntax/documentAnalyzer';
import { fsWasmLoader } from '../syntax/fsLoader';
import { Grammars } from '../syntax/parser';
import { WorkspaceModels } from '../syntax/workspaceModels';
import type { SourceFile } from './files';
import { displayPath, type FileReport } from './report';
import { MAX_BYTES, readSource, type Source } from './source';

export async function analyzeFiles(files: readonly SourceFile[]): Promise<FileReport[]> {
  const grammars = await Grammars.load(fsWasmLoader);
  const workspace = new WorkspaceModels(grammars, readIfPresent);
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
    return analysis ? { ...shown, analysis, locate: source.locate } : { ...shown, error: 'not parsed within the time limit' };
  } catch (e) {
    return { ...shown, error: `analysis failed: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    analyzer.dispose();
  }
}

/** Files other files import, read as they are on disk; never a FIFO, which would wait for a writer. */
function readIfPresent(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return stat.isFile() && stat.size <= MAX_BYTES ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
