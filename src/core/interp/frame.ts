/**
 * The variables of one running body. A function's frame points at the frame it was defined in (closures);
 * a top-level function's and a class's point at the module's frame. Branches run on the frame itself, are
 * undone, and their writes joined.
 */
import { UNKNOWN, joinValues, type Value } from '../values/value';

/**
 * The frames functions close over, by number: a function value names the frame it was defined in by its
 * number, so that values stay plain data, and the run's environments give the frame back.
 */
export class Environments {
  private readonly frames: Frame[] = [];
  private readonly numbers = new WeakMap<Frame, number>();

  numberOf(frame: Frame): number {
    let n = this.numbers.get(frame);
    if (n === undefined) {
      n = this.frames.push(frame) - 1;
      this.numbers.set(frame, n);
    }
    return n;
  }

  frame(n: number): Frame {
    return this.frames[n];
  }
}

/** What a branch wrote: each name with the value it left, undefined when it deleted it. */
export type Branch = ReadonlyMap<string, Value | undefined>;

export class Frame {
  /** Values the running function returned on the paths that reached a `return`. */
  returns: Value[];
  /** While a loop pass runs: each name written since it began, with the value it had then. */
  private written: Map<string, Value | undefined> | undefined;

  constructor(
    /** Where the body is: its fragment (the module frame moves from one to the next), and its scope (-1 for module level). */
    public fragment: number,
    readonly scope: number,
    /** The enclosing function's frame, or the module's; undefined for the module frame itself. */
    readonly parent: Frame | undefined,
    /** Read freely; written through `set`, so that a loop pass knows what it changed. */
    readonly vars: ReadonlyMap<string, Value> = new Map(),
    returns?: Value[],
  ) {
    this.returns = returns ?? [];
  }

  get isModule(): boolean {
    return this.parent === undefined;
  }

  set(name: string, value: Value): void {
    const vars = this.vars as Map<string, Value>;
    if (this.written && !this.written.has(name)) this.written.set(name, vars.get(name));
    vars.set(name, value);
  }

  private delete(name: string): void {
    if (this.written && !this.written.has(name)) this.written.set(name, this.vars.get(name));
    (this.vars as Map<string, Value>).delete(name);
  }

  /**
   * Runs `work` (a loop pass), returning what it changed: each name written, with its value before. A
   * module frame holds every class of a large file; a copy of it for each pass would cost more than the pass.
   */
  changes(work: () => void): ReadonlyMap<string, Value | undefined> {
    const written = new Map<string, Value | undefined>();
    this.logging(written, work, (outer) => {
      if (outer) for (const [k, v] of written) if (!outer.has(k)) outer.set(k, v);
    });
    return written;
  }

  /**
   * Runs `work` (a branch that may not be taken) and undoes what it wrote to the variables, even if it
   * throws; returns its result and each name it wrote with the value it left (undefined: deleted).
   */
  trial<T>(work: () => T): { result: T; after: Branch } {
    const written = new Map<string, Value | undefined>();
    const vars = this.vars as Map<string, Value>;
    const after = new Map<string, Value | undefined>();
    // Restored as they were: a loop pass around the branch sees no change from it.
    const result = this.logging(written, work, () => {
      for (const [k, old] of written) {
        after.set(k, vars.get(k));
        if (old === undefined) vars.delete(k);
        else vars.set(k, old);
      }
    });
    return { result, after };
  }

  /** Runs `work` with `written` as the log of names it writes; `done` runs after, even if it throws, with the log it ran inside. */
  private logging<T>(
    written: Map<string, Value | undefined>,
    work: () => T,
    done: (outer: Map<string, Value | undefined> | undefined) => void,
  ): T {
    const outer = this.written;
    this.written = written;
    try {
      return work();
    } finally {
      this.written = outer;
      done(outer);
    }
  }

  /** Takes a branch's writes as they are (the other branch ended in a return or raise). */
  adopt(branch: Branch): void {
    for (const [k, v] of branch) {
      if (v === undefined) this.delete(k);
      else this.set(k, v);
    }
  }

  /** The join of two branches' writes: a name bound alike in both keeps its value; otherwise it is unknown. */
  join(a: Branch, b: Branch): void {
    for (const k of new Set([...a.keys(), ...b.keys()])) {
      const x = a.has(k) ? a.get(k) : this.vars.get(k);
      const y = b.has(k) ? b.get(k) : this.vars.get(k);
      if (x === undefined && y === undefined) this.delete(k);
      else this.set(k, x === undefined || y === undefined ? UNKNOWN : x === y ? x : joinValues(x, y));
    }
  }

  /**
   * After one pass of a loop that cannot be unrolled (`changed` by it): a name the pass changed is unknown,
   * unless the pass left it as it was in kind and size (a tensor of the same shape: the residual stream
   * through blocks).
   */
  widen(changed: ReadonlyMap<string, Value | undefined>, keep: ReadonlySet<string> = new Set()): void {
    for (const [k, old] of changed) {
      const v = this.vars.get(k);
      if (v === undefined || old === v || keep.has(k) || (old && sameShape(old, v))) continue;
      this.set(k, UNKNOWN);
    }
  }
}

/**
 * Whether a loop pass left the variables as they were (`changed` by it), tensors by shape, origin and trace:
 * a pass that does so, and writes nothing else, does the same again when its next item is the same value.
 */
export function settled(changed: ReadonlyMap<string, Value | undefined>, now: ReadonlyMap<string, Value>): boolean {
  for (const [k, old] of changed) {
    const v = now.get(k);
    if (old === v) continue;
    if (
      !old ||
      !v ||
      !sameShape(old, v) ||
      old.t !== 'tensor' ||
      v.t !== 'tensor' ||
      old.origin !== v.origin ||
      old.lead !== v.lead ||
      old.trace !== v.trace
    )
      return false;
  }
  return true;
}

function sameShape(a: Value, b: Value): boolean {
  if (a.t !== 'tensor' || b.t !== 'tensor' || a.shape.length !== b.shape.length || !!a.partial !== !!b.partial)
    return false;
  return a.shape.every((d, i) =>
    d === undefined ? b.shape[i] === undefined : b.shape[i] !== undefined && d.equals(b.shape[i]!),
  );
}
