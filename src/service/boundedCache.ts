/**
 * A least-recently-used map that disposes what it drops. Trees live in WASM memory, which the garbage
 * collector never reclaims: an unbounded map of them grows with every file opened in a session.
 */
export interface Disposable {
  dispose(): void;
}

export class BoundedCache<K, V extends Disposable> implements Disposable {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (capacity < 1) throw new RangeError(`capacity must be at least 1, not ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // A Map iterates in insertion order: re-inserting moves the key to the young end.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The value for `key`, leaving the order of use as it is. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    const old = this.entries.get(key);
    this.entries.delete(key);
    if (old !== undefined && old !== value) old.dispose();
    this.entries.set(key, value);
    for (const [oldest, evicted] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
      evicted.dispose();
    }
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    this.entries.delete(key);
    value?.dispose();
  }

  dispose(): void {
    for (const value of this.entries.values()) value.dispose();
    this.entries.clear();
  }
}
