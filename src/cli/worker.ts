/**
 * A worker thread of the CLI: it analyses the files the main thread sends, one at a time, and sends back
 * each file's output. The worker runs the CLI's own script, which asks isCliWorker() before anything else.
 */
import { isMainThread, parentPort, workerData } from 'worker_threads';
import type { SourceFile } from './files';
import { FileAnalyser } from './fileAnalyser';
import type { FileOutput, OutputSettings } from './fileOutput';

export interface WorkerSetup {
  /** Tells the CLI's script that it runs as this worker, not as the command. */
  readonly attentionLensWorker: true;
  readonly roots: readonly string[];
  readonly settings: OutputSettings;
}

export interface Job {
  readonly index: number;
  readonly file: SourceFile;
}

export interface Done {
  readonly index: number;
  readonly output: FileOutput;
}

export function isCliWorker(): boolean {
  return !isMainThread && (workerData as Partial<WorkerSetup> | null)?.attentionLensWorker === true;
}

export function serveJobs(): void {
  const { roots, settings } = workerData as WorkerSetup;
  const port = parentPort!;
  const analyser = FileAnalyser.load(roots);
  // The main thread sends a job only once the one before is done; loading the grammars is awaited once.
  port.on('message', (job: Job) => {
    void analyser.then(async (a) => port.postMessage({ index: job.index, output: await a.analyse(job.file, settings) } satisfies Done));
  });
}
