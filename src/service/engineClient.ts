/**
 * The extension's side of the analysis: a DocumentEngine on a worker thread, asked by message. Where no
 * worker starts (its grammars fail to load, say), the engine runs in the extension's own thread instead,
 * as before; a worker that stops is started again at the next request, its documents analysed afresh.
 */
import { Worker } from 'worker_threads';
import type { Grammars } from '../syntax/parser';
import { DocumentEngine, type AnalyzeReply, type AnalyzeRequest, type Log } from './documentEngine';
import { EditorFiles, type Roots } from './editorFiles';
import type { FromWorker, ToWorker } from './protocol';
import { unpackReply } from './replyChunks';
import { hostTurns, nextTurn } from './hostTurns';

export interface Engine {
  /** `openTexts`: editors' texts changed since the last request, by path (undefined: closed). */
  analyze(request: AnalyzeRequest, openTexts: ReadonlyMap<string, string | undefined>): Promise<AnalyzeReply>;
  setRoots(roots: Roots): void;
  forget(key: string): void;
  dispose(): void;
}

const STOPPED: AnalyzeReply = { skipped: 'failed', error: 'the analysis worker stopped' };

/** The engine in this thread. */
export class InlineEngine implements Engine {
  private readonly engine: DocumentEngine;
  private readonly files: EditorFiles;

  constructor(grammars: Grammars, roots: Roots, log: Log) {
    this.files = new EditorFiles(roots);
    this.engine = new DocumentEngine(grammars, this.files.read, log, this.files.list, this.files.packages);
  }

  analyze(request: AnalyzeRequest, openTexts: ReadonlyMap<string, string | undefined>): Promise<AnalyzeReply> {
    for (const [path, text] of openTexts) this.files.openText(path, text);
    // A full analysis may take seconds: never on the thread every extension shares.
    return Promise.resolve(this.engine.analyze({ ...request, depth: 'first' }));
  }

  setRoots(roots: Roots): void {
    this.files.setRoots(roots);
  }

  forget(key: string): void {
    this.engine.forget(key);
  }

  dispose(): void {
    this.engine.dispose();
  }
}

/** The engine on a worker thread running `script` (dist/analysisWorker.js). */
export class WorkerEngine implements Engine {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (reply: AnalyzeReply) => void>();
  private nextId = 0;
  private roots: Roots;
  /** Every editor text sent, by path: a worker started again is sent them all with its first request. */
  private readonly sent = new Map<string, string>();
  private restarted = false;
  /**
   * How many first analyses were asked for, shared with the worker: a full analysis there (seconds on the
   * largest files) stops when one is, so that a key typed never waits behind it.
   */
  private readonly firsts = new Int32Array(new SharedArrayBuffer(4));

  private constructor(
    private readonly script: string,
    roots: Roots,
    private readonly log: Log,
  ) {
    this.roots = roots;
  }

  /** A worker engine once its grammars are loaded; undefined when it could not start. */
  static async start(script: string, roots: Roots, log: Log): Promise<WorkerEngine | undefined> {
    const engine = new WorkerEngine(script, roots, log);
    return (await engine.ready()) ? engine : undefined;
  }

  private ready(): Promise<boolean> {
    return new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(this.script, { workerData: { roots: this.roots, firsts: this.firsts.buffer } });
      } catch (e) {
        this.log('error', `the analysis worker did not start: ${String(e)}`);
        resolve(false);
        return;
      }
      this.worker = worker;
      worker.on('message', (m: FromWorker) => {
        if (m.type === 'ready') resolve(true);
        else if (m.type === 'failed') {
          this.log('error', `the analysis worker did not start: ${m.message}`);
          void worker.terminate();
          resolve(false);
        } else if (m.type === 'log') this.log(m.level, m.message);
        else if (m.type === 'analyzed') {
          const done = this.pending.get(m.id);
          this.pending.delete(m.id);
          const turns = hostTurns.split('receiving an analysis');
          void unpackReply(m.chunks, turns.yieldNow).then(async (reply) => {
            turns.end();
            // Taken in, it is applied in a turn of its own.
            await nextTurn();
            done?.(reply);
          });
        }
      });
      worker.on('error', (e) => this.log('error', `the analysis worker failed: ${e.stack ?? e.message}`));
      worker.on('exit', (code) => {
        if (this.worker === worker) this.worker = undefined;
        resolve(false);
        if (code !== 0) this.log('error', `the analysis worker stopped (exit code ${code})`);
        for (const done of this.pending.values()) done(STOPPED);
        this.pending.clear();
        this.restarted = true;
      });
    });
  }

  async analyze(request: AnalyzeRequest, openTexts: ReadonlyMap<string, string | undefined>): Promise<AnalyzeReply> {
    if (!this.worker && !(await this.ready())) return STOPPED;
    for (const [path, text] of openTexts) {
      if (text === undefined) this.sent.delete(path);
      else this.sent.set(path, text);
    }
    const texts = this.restarted ? [...this.sent] : [...openTexts];
    this.restarted = false;
    const id = this.nextId++;
    const reply = new Promise<AnalyzeReply>((resolve) => this.pending.set(id, resolve));
    // Full analyses queue behind each other; any other request stops the one running.
    const firsts = request.depth === 'full' ? Atomics.load(this.firsts, 0) : Atomics.add(this.firsts, 0, 1) + 1;
    // A worker started again holds no tree: its engine analyses each program afresh.
    this.post({ type: 'analyze', id, request, openTexts: texts, firsts });
    return reply;
  }

  setRoots(roots: Roots): void {
    this.roots = roots;
    this.post({ type: 'roots', roots });
  }

  forget(key: string): void {
    this.post({ type: 'forget', key });
  }

  private post(m: ToWorker): void {
    this.worker?.postMessage(m);
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
