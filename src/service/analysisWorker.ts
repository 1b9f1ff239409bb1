/**
 * The analysis worker: a DocumentEngine on a thread of its own, so that no analysis blocks the extension
 * host's thread, which every extension's hovers, completions and typing share. Its grammars are read from
 * beside this script; messages are handled one at a time, in order.
 */
import { parentPort, workerData } from 'worker_threads';
import { fsWasmLoader } from '../syntax/fsLoader';
import { Grammars } from '../syntax/parser';
import { DocumentEngine, type AnalyzeReply } from './documentEngine';
import { EditorFiles, type Roots } from './editorFiles';
import type { FromWorker, ToWorker } from './protocol';
import { packReply } from './replyChunks';
import { yieldToOtherThreads } from './yieldingThread';

yieldToOtherThreads();
const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);
/** A reply's chunks are moved to the extension's thread: nothing here reads them again. */
const reply = (id: number, r: AnalyzeReply) => {
  const chunks = packReply(r);
  port.postMessage({ type: 'analyzed', id, chunks } satisfies FromWorker, chunks);
};

const data = workerData as { roots: Roots; firsts: SharedArrayBuffer };
const files = new EditorFiles(data.roots);
/** How many first analyses the extension has asked for: read while a full one runs, which one of them stops. */
const firsts = new Int32Array(data.firsts);

async function start(): Promise<DocumentEngine | undefined> {
  try {
    const grammars = await Grammars.load(fsWasmLoader);
    send({ type: 'ready' });
    return new DocumentEngine(
      grammars,
      files.read,
      (level, message) => send({ type: 'log', level, message }),
      files.list,
      files.packages,
    );
  } catch (e) {
    send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
}

const engine = start();
let queue = Promise.resolve();

function handle(engine: DocumentEngine, m: ToWorker): void {
  switch (m.type) {
    case 'roots':
      return files.setRoots(m.roots);
    case 'forget':
      return engine.forget(m.key);
    case 'analyze':
      for (const [path, text] of m.openTexts) files.openText(path, text);
      return reply(
        m.id,
        engine.analyze(m.request, m.request.depth === 'full' ? () => Atomics.load(firsts, 0) !== m.firsts : undefined),
      );
  }
}

port.on('message', (m: ToWorker) => {
  queue = queue.then(async () => {
    const ready = await engine;
    if (!ready) return;
    try {
      handle(ready, m);
    } catch (e) {
      send({
        type: 'log',
        level: 'error',
        message: `the analysis worker failed: ${e instanceof Error ? e.stack : String(e)}`,
      });
      if (m.type === 'analyze') reply(m.id, { skipped: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  });
});
