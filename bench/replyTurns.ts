/**
 * Taking an analysis in on the extension host, as the worker sends it (replyChunks.ts): each turn of the
 * host's thread it takes, split at the points where it lets other work run.
 */
import { packReply, unpackReply } from '../src/service/replyChunks';
import type { Analysis } from '../src/core/analysis/analyze';

export async function replyTurns(analysis: Analysis): Promise<{ turns: number[]; kilobytes: number }> {
  const chunks = packReply({ analysis, imports: [], fresh: true, ms: 0 });
  const turns: number[] = [];
  let start = performance.now();
  await unpackReply(chunks, async () => {
    turns.push(performance.now() - start);
    await new Promise<void>((resolve) => setImmediate(resolve));
    start = performance.now();
  });
  turns.push(performance.now() - start);
  return { turns, kilobytes: chunks.reduce((s, c) => s + c.byteLength, 0) / 1024 };
}
