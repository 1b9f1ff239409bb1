/**
 * An analysis as a message between threads carries it. A structured clone copies data but drops classes:
 * polynomials are sent as their fields and made polynomials again on arrival. An analysis is plain data
 * otherwise (no function, no interpreter). Objects met twice stay one object, as the clone keeps them.
 *
 * On arrival the clone is mended in place, a slice at a time: the thread it arrives on is the extension
 * host's, which a walk over a large file's analysis in one go would stall (17 ms for 5,000 lines).
 */
import { Poly, type PolyWire } from '../core/values/symbolic';

const POLY = '__attentionLensPoly';

/** `value` ready for postMessage: a copy with polynomials as their fields, sharing kept. */
export function toWire(value: unknown): unknown {
  const copies = new Map<object, unknown>();
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const known = copies.get(v);
    if (known !== undefined) return known;
    if (v instanceof Poly) {
      const marked = { [POLY]: v.wire };
      copies.set(v, marked);
      return marked;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      copies.set(v, out);
      for (const item of v) out.push(copy(item));
      return out;
    }
    if (v instanceof Map) {
      const out = new Map();
      copies.set(v, out);
      for (const [k, item] of v) out.set(copy(k), copy(item));
      return out;
    }
    if (v instanceof Set) {
      const out = new Set();
      copies.set(v, out);
      for (const item of v) out.add(copy(item));
      return out;
    }
    const out: Record<string, unknown> = {};
    copies.set(v, out);
    for (const [k, item] of Object.entries(v)) out[k] = copy(item);
    return out;
  };
  return copy(value);
}

/** How long one slice of mending may hold the thread before it lets others run: short, as a loaded host runs slower. */
const SLICE_MS = 1.5;

function isMarked(v: unknown): v is Record<typeof POLY, PolyWire> {
  return typeof v === 'object' && v !== null && POLY in v;
}

/**
 * What toWire gave, after the clone, mended in place: its polynomials made polynomials again. `yieldNow`
 * lets the thread go on between slices (setImmediate on the extension host; none in tests).
 */
export async function fromWire<T>(value: unknown, yieldNow?: () => Promise<void>): Promise<T> {
  const polys = new Map<object, Poly>();
  const revive = (marked: Record<typeof POLY, PolyWire>): Poly => {
    let p = polys.get(marked);
    if (!p) polys.set(marked, (p = Poly.fromWire(marked[POLY])));
    return p;
  };
  if (isMarked(value)) return revive(value) as T;
  const seen = new Set<object>();
  const stack: object[] = [];
  const visit = (v: unknown) => {
    if (typeof v === 'object' && v !== null && !seen.has(v)) {
      seen.add(v);
      stack.push(v);
    }
  };
  visit(value);
  // The turn that received the message spent its time taking the clone in.
  if (yieldNow) await yieldNow();
  let sliceStart = performance.now();
  for (let n = 0; stack.length; n++) {
    if (yieldNow && n % 32 === 0 && performance.now() - sliceStart > SLICE_MS) {
      await yieldNow();
      sliceStart = performance.now();
    }
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (isMarked(item)) v[i] = revive(item);
        else visit(item);
      }
    } else if (v instanceof Map) {
      for (const [k, item] of v) {
        if (isMarked(item)) v.set(k, revive(item));
        else visit(item);
        visit(k);
      }
    } else if (v instanceof Set) {
      for (const item of v) visit(item);
    } else {
      const o = v as Record<string, unknown>;
      for (const k in o) {
        const item = o[k];
        if (isMarked(item)) o[k] = revive(item);
        else visit(item);
      }
    }
  }
  return value as T;
}
