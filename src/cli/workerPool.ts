/**
 * Analyses files in worker processes, each with its own grammars and imported files, and gives back their
 * outputs in the order of `files`: the same as one process gives, since no file's output depends on another's.
 */
import type { Roots } from '../service/editorFiles';
import { fork } from 'child_process';
import type { SourceFile } from './files';
import { outputOf, type FileOutput, type OutputSettings } from './fileOutput';
import { displayPath } from './report';
import { WORKER_ARGUMENT, type Done, type Job, type WorkerSetup } from './worker';

/**
 * Processes, not threads, so that each has V8 flags of its own: the garbage collector of each thread of one
 * process helped itself to the process's helper threads, and two analyses on two cores fought for them (each
 * file took twice as long as alone: timm's models took 9.6 s on two threads, 9.9 s on one). A process with a
 * single-threaded collector collects on its own thread. Its main thread has the command's stack, so a file
 * nested deeper than it is cut where the command cuts it, and its output is the same.
 */
const WORKER_FLAGS = ['--single-threaded-gc'];

/** `script`: the CLI's own script, which serves jobs when it runs as a worker. */
export function analyseOnWorkers(
  files: readonly SourceFile[],
  roots: Roots,
  settings: OutputSettings,
  workers: number,
  script: string,
): Promise<FileOutput[]> {
  const outputs: FileOutput[] = new Array<FileOutput>(files.length);
  // In the order found: files of one folder import the same files, which each worker then finds parsed.
  const queue = files.map((_, i) => i);
  const setup: WorkerSetup = { roots, settings };
  return new Promise((resolve) => {
    let running = 0;
    const start = () => {
      const worker = fork(script, [WORKER_ARGUMENT], {
        execArgv: WORKER_FLAGS,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      running++;
      let current: number | undefined;
      const next = () => {
        current = queue.shift();
        if (current === undefined) worker.kill();
        else worker.send({ index: current, file: files[current] } satisfies Job);
      };
      const fail = (why: string) => {
        if (current !== undefined)
          outputs[current] = outputOf(
            {
              path: displayPath(files[current].path),
              language: files[current].language,
              error: `analysis failed: ${why}`,
            },
            settings,
          );
        current = undefined;
      };
      worker.on('message', (done: Done) => {
        outputs[done.index] = done.output;
        next();
      });
      // A worker that dies (out of memory, say) fails the file it was on; another takes the files left.
      worker.on('error', (e) => fail(e.message));
      worker.on('exit', (code, signal) => {
        fail(`the worker process stopped (${signal ?? `exit code ${code}`})`);
        running--;
        if (queue.length) start();
        else if (running === 0) resolve(outputs);
      });
      worker.send(setup);
      next();
    };
    for (let i = 0; i < Math.min(workers, files.length); i++) start();
  });
}
