/**
 * A worker process of the CLI: it analyses the files the command sends, one at a time, and sends back each
 * file's output. The worker runs the CLI's own script, which asks isCliWorker() before anything else.
 */
import type { Roots } from '../service/editorFiles';
import type { SourceFile } from './files';
import { FileAnalyser } from './fileAnalyser';
import type { FileOutput, OutputSettings } from './fileOutput';

/** The argument that tells the CLI's script it runs as a worker, not as the command. */
export const WORKER_ARGUMENT = '--attention-lens-worker';

/** The first message a worker gets. */
export interface WorkerSetup {
  readonly roots: Roots;
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
  return process.send !== undefined && process.argv[2] === WORKER_ARGUMENT;
}

export function serveJobs(): void {
  // A command that stops (Ctrl-C, an error) leaves no worker behind.
  process.on('disconnect', () => process.exit());
  let setup: { analyser: Promise<FileAnalyser>; settings: OutputSettings } | undefined;
  // The command sends a job only once the one before is done; loading the grammars is awaited once.
  process.on('message', (message: WorkerSetup | Job) => {
    if (!setup) {
      const { roots, settings } = message as WorkerSetup;
      setup = { analyser: FileAnalyser.load(roots), settings };
      return;
    }
    const { index, file } = message as Job;
    const { analyser, settings } = setup;
    void analyser.then(async (a) => process.send!({ index, output: await a.analyse(file, settings) } satisfies Done));
  });
}
