/** Analyses the files of a run: in worker processes when there are several files and cores, else in this one. */
import type { Roots } from '../service/editorFiles';
import { availableParallelism } from 'os';
import { FileAnalyser } from './fileAnalyser';
import type { SourceFile } from './files';
import type { FileOutput, OutputSettings } from './fileOutput';
import { analyseOnWorkers } from './workerPool';

/**
 * Each worker warms its own JIT up on the analyser's code, which costs it about as much as its first few
 * files: a worker is started for every this many files, up to the cores.
 */
const FILES_PER_WORKER = 8;

export function defaultWorkers(files: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(files / FILES_PER_WORKER)));
}

export interface Workers {
  /** How many files may be analysed at once (defaultWorkers, unless `--jobs` says). */
  readonly count: number;
  /** The CLI's own script, run by each worker process. */
  readonly script: string;
}

/**
 * `roots`: the folders the paths given name (a file's own folder for a file): imports are read only inside
 * them, as the editor reads them only inside its workspace folders.
 */
export async function analyzeFiles(
  files: readonly SourceFile[],
  roots: Roots,
  settings: OutputSettings,
  workers: Workers,
): Promise<FileOutput[]> {
  // A worker for a single file would only add its start to it.
  if (workers.count > 1 && files.length > 1)
    return analyseOnWorkers(files, roots, settings, workers.count, workers.script);
  const analyser = await FileAnalyser.load(roots);
  try {
    const outputs: FileOutput[] = [];
    for (const file of files) outputs.push(await analyser.analyse(file, settings));
    return outputs;
  } finally {
    analyser.dispose();
  }
}
