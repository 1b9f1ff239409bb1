/**
 * Every write the interpreter makes to a shared object (a module's children and parameters, an instance's
 * fields) goes through the journal, so that a branch whose condition is not known can be run, undone, and
 * joined with the other branch: what both branches write alike stays, what differs becomes unknown.
 */
export interface Owner {
  /**
   * Called after a join left place `key` of `map` holding one branch's value although the other branch
   * differs: a module marks its total unknown, an instance sets the field to unknown.
   */
  differs(map: Map<string, unknown>, key: string, reason: string): void;
}

interface Entry {
  readonly append: boolean;
  readonly map: Map<string, unknown>;
  readonly key: string;
  readonly had: boolean;
  readonly before: unknown;
  readonly owner: Owner;
}

export interface Write {
  /** The write added an item to a container (`append`), not replaced one. */
  readonly append: boolean;
  readonly map: Map<string, unknown>;
  readonly key: string;
  readonly owner: Owner;
  readonly present: boolean;
  readonly value: unknown;
}

export class Journal {
  private readonly entries: Entry[] = [];

  set<T>(owner: Owner, map: Map<string, T>, key: string, value: T, append = false): void {
    const m = map as Map<string, unknown>;
    this.entries.push({ append, map: m, key, had: m.has(key), before: m.get(key), owner });
    m.set(key, value);
  }

  delete<T>(owner: Owner, map: Map<string, T>, key: string): void {
    const m = map as Map<string, unknown>;
    if (!m.has(key)) return;
    this.entries.push({ append: false, map: m, key, had: true, before: m.get(key), owner });
    m.delete(key);
  }

  /** Each place of `map` written since `position`, with what it held before the first of those writes. */
  before<T>(position: number, map: ReadonlyMap<string, T>): Map<string, T | undefined> {
    const found = new Map<string, T | undefined>();
    for (let i = position; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (e.map === map && !found.has(e.key)) found.set(e.key, e.before as T | undefined);
    }
    return found;
  }

  /** The maps written since `position`. */
  writtenSince(position: number): Set<Map<string, unknown>> {
    return new Set(this.entries.slice(position).map((e) => e.map));
  }

  get position(): number {
    return this.entries.length;
  }

  /** Undoes every write since `position` and returns the final state of each place written. */
  rewind(position: number): Write[] {
    const finals = new Map<Map<string, unknown>, Map<string, Write>>();
    for (let i = this.entries.length - 1; i >= position; i--) {
      const e = this.entries[i];
      let byKey = finals.get(e.map);
      if (!byKey) finals.set(e.map, (byKey = new Map()));
      const known = byKey.get(e.key);
      if (!known)
        byKey.set(e.key, {
          append: e.append,
          map: e.map,
          key: e.key,
          owner: e.owner,
          present: e.map.has(e.key),
          value: e.map.get(e.key),
        });
      else if (!e.append && known.append) byKey.set(e.key, { ...known, append: false });
      if (e.had) e.map.set(e.key, e.before);
      else e.map.delete(e.key);
    }
    this.entries.length = position;
    return [...finals.values()].flatMap((m) => [...m.values()]);
  }

  /**
   * Applies two branches' writes: a place both leave alike keeps that state; a place they leave differently
   * (or only one writes) takes one branch's state and its owner is told, to make it unknown.
   */
  join(a: readonly Write[], b: readonly Write[], same: (x: unknown, y: unknown) => boolean, reason: string): void {
    const key = (w: Write) => w.map;
    const index = new Map<Map<string, unknown>, Map<string, Write>>();
    for (const w of b) {
      let m = index.get(key(w));
      if (!m) index.set(key(w), (m = new Map()));
      m.set(w.key, w);
    }
    const done = new Set<Write>();
    for (const w of a) {
      const other = index.get(w.map)?.get(w.key);
      if (other) done.add(other);
      const before = { present: w.map.has(w.key), value: w.map.get(w.key) };
      const theirs = other ?? { present: before.present, value: before.value };
      if (w.present === theirs.present && (!w.present || same(w.value, theirs.value))) this.apply(w);
      else {
        this.apply(w);
        w.owner.differs(w.map, w.key, reason);
      }
    }
    for (const w of b) {
      if (done.has(w)) continue;
      const before = { present: w.map.has(w.key), value: w.map.get(w.key) };
      this.apply(w);
      if (!(w.present === before.present && (!w.present || same(w.value, before.value))))
        w.owner.differs(w.map, w.key, reason);
    }
  }

  /** Replays one branch's writes as they were. */
  replay(writes: readonly Write[]): void {
    for (const w of writes) this.apply(w);
  }

  private apply(w: Write): void {
    if (w.present) this.set(w.owner, w.map, w.key, w.value, w.append);
    else this.delete(w.owner, w.map, w.key);
  }
}
