/**
 * An analysis reply as the worker sends it: bytes in chunks, moved to the extension host, not copied. A
 * structured clone is taken in whole, before the host's handler runs, on the host's thread: a 5,000-line
 * file's (half a megabyte) held it 10 to 45 ms while other extensions waited. In chunks of a few
 * results, each taken in on a turn of its own, no chunk holds it for more than a millisecond.
 *
 * The results of one chunk share what they share (toWire keeps it); across chunks an object met twice
 * arrives as two equal copies, which nothing on the editor's side tells apart.
 */
import { deserialize, serialize } from 'v8';
import type { AnalyzeReply } from './documentEngine';
import { fromWire, toWire } from './wire';

/**
 * Results per chunk: a layer's result is one to two kilobytes. 32 took under 1 ms a chunk alone, but up to
 * 16 ms of a loaded two-core machine's host thread (its waits for a core and the collector's pauses left out).
 */
const ITEMS_PER_CHUNK = 16;

/** The reply as chunks: the first holds everything but the analysis's lists, the others their items in order. */
export function packReply(reply: AnalyzeReply): ArrayBuffer[] {
  const wire = toWire(reply) as Record<string, unknown>;
  if (!('analysis' in reply)) return [bytes(wire)];
  const head: Record<string, unknown> = {};
  const chunks: ArrayBuffer[] = [];
  for (const [key, value] of Object.entries(wire.analysis as Record<string, unknown>)) {
    if (!Array.isArray(value)) {
      head[key] = value;
      continue;
    }
    head[key] = [];
    for (let i = 0; i < value.length; i += ITEMS_PER_CHUNK)
      chunks.push(bytes([key, value.slice(i, i + ITEMS_PER_CHUNK)]));
  }
  return [bytes({ ...wire, analysis: head }), ...chunks];
}

/** The reply packReply made, taken in a chunk per turn (`yieldNow` lets the thread go on between them). */
export async function unpackReply(
  chunks: readonly ArrayBuffer[],
  yieldNow?: () => Promise<void>,
): Promise<AnalyzeReply> {
  const [first, ...rest] = chunks;
  const reply = deserialize(new Uint8Array(first)) as { analysis?: Record<string, unknown[]> };
  for (const chunk of rest) {
    if (yieldNow) await yieldNow();
    const [key, items] = deserialize(new Uint8Array(chunk)) as [string, unknown[]];
    reply.analysis![key].push(...items);
  }
  return fromWire<AnalyzeReply>(reply, yieldNow);
}

/** `value` serialized into an ArrayBuffer of its own, which postMessage can move rather than copy. */
function bytes(value: unknown): ArrayBuffer {
  const b = serialize(value);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}
