/**
 * Analyses files on worker threads, each with its own grammars and imported files, and gives back their
 * outputs in the order of `files`: the same as one thread gives, since no file's output depends on another's.
 */
import { Worker } from 'worker_threads';
import type { SourceFile } from './files';
import { outputOf, type FileOutput, type OutputSettings } from './fileOutput';
import { displayPath } from './report';
import type { Done, Job, WorkerSetup } from './worker';

/**
 * The main thread's stack as V8 gives it by default (`--stack-size`, 984 KiB), plus the 192 KiB Node keeps
 * below a worker's: a crafted file nested deeper than the stack is cut where the main thread cuts it, so
 * that its output is the same (a worker's default 4 MiB went on into the work budget and gave another).
 */
const STACK_MB = (984 + 192) / 1024;

/** `script`: the CLI's own script, which serves jobs when it runs as a worker. */
export function analyseOnWorkers(files: readonly SourceFile[], roots: readonly string[], settings: OutputSettings, threads: number, script: string): Promise<FileOutput[]> {
  const outputs: FileOutput[] = new Array<FileOutput>(files.length);
  // In the order found: files of one folder import the same files, which each thread then finds parsed.
  const queue = files.map((_, i) => i);
  const setup: WorkerSetup = { attentionLensWorker: true, roots, settings };
  return new Promise((resolve) => {
    let running = 0;
    const start = () => {
      const worker = new Worker(script, { workerData: setup, resourceLimits: { stackSizeMb: STACK_MB } });
      running++;
      let current: number | undefined;
      const next = () => {
        current = queue.shift();
        if (current === undefined) void worker.terminate();
        else worker.postMessage({ index: current, file: files[current] } satisfies Job);
      };
      const fail = (why: string) => {
        if (current !== undefined) outputs[current] = outputOf({ path: displayPath(files[current].path), language: files[current].language, error: `analysis failed: ${why}` }, settings);
        current = undefined;
      };
      worker.on('message', (done: Done) => {
        outputs[done.index] = done.output;
        next();
      });
      // A worker that dies (out of memory, say) fails the file it was on; another takes the files left.
      worker.on('error', (e) => fail(e.message));
      worker.on('exit', (code) => {
        fail(`the worker thread stopped (exit code ${code})`);
        running--;
        if (queue.length) start();
        else if (running === 0) resolve(outputs);
      });
      next();
    };
    for (let i = 0; i < Math.min(threads, files.length); i++) start();
  });
}
