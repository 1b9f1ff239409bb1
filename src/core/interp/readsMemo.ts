/**
 * Results an analysis computes once (a class's method resolution order, the names of its body), each kept
 * with what computing it read: an entry point that finds a result kept reads the same, so that replaying it
 * in a later version depends on them too, whichever entry point computed it first.
 */
import { addReads, newReads, type Reads } from './hooks';

interface Kept<T> {
  readonly value: T;
  readonly reads: Reads;
  /** The reads of the entry point it was last added to: an entry point asks for the same result again and again. */
  addedTo?: Reads;
}

export class ReadsMemo<T> {
  private readonly kept = new Map<string, Kept<T> | undefined>();

  constructor(private readonly reader: { reads: Reads | undefined }) {}

  /**
   * The result for `key`; `cycle()` while it is being computed. A computation that throws (out of budget),
   * or whose result `keep` refuses, keeps nothing.
   */
  get(key: string, compute: () => T, cycle: () => T, keep: (value: T) => boolean = () => true): T {
    const known = this.kept.get(key);
    if (known) return this.reused(known);
    if (this.kept.has(key)) return cycle();
    this.kept.set(key, undefined);
    try {
      const kept = this.keeping(compute);
      if (keep(kept.value)) this.kept.set(key, kept);
      else this.kept.delete(key);
      return kept.value;
    } catch (e) {
      this.kept.delete(key);
      throw e;
    }
  }

  private keeping(compute: () => T): Kept<T> {
    const outer = this.reader.reads;
    const reads = newReads();
    this.reader.reads = reads;
    try {
      return { value: compute(), reads, addedTo: outer };
    } finally {
      this.reader.reads = outer;
      if (outer) addReads(outer, reads);
    }
  }

  private reused(kept: Kept<T>): T {
    const reads = this.reader.reads;
    if (reads && kept.addedTo !== reads) {
      addReads(reads, kept.reads);
      kept.addedTo = reads;
    }
    return kept.value;
  }
}
