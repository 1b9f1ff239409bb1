/**
 * The variables of one running body. A function's frame points at the frame it was defined in (closures);
 * a top-level function's and a class's point at the module's frame. Branches run on forks and are joined.
 */
import { UNKNOWN, joinValues, type Value } from '../value';

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
    const outer = this.written;
    const written = (this.written = new Map());
    try {
      work();
    } finally {
      this.written = outer;
      if (outer) for (const [k, v] of written) if (!outer.has(k)) outer.set(k, v);
    }
    return written;
  }

  /** A copy for one branch: its own variables, the same list of returns. */
  fork(): Frame {
    return new Frame(this.fragment, this.scope, this.parent, new Map(this.vars), this.returns);
  }

  /** Takes a branch's variables as they are (the other branch ended in a return or raise). */
  adopt(branch: Frame): void {
    for (const k of [...this.vars.keys()]) if (!branch.vars.has(k)) this.delete(k);
    for (const [k, v] of branch.vars) if (this.vars.get(k) !== v) this.set(k, v);
  }

  /** The join of two branches: a name bound alike in both keeps its value; otherwise it is unknown. */
  join(a: Frame, b: Frame): void {
    for (const k of [...this.vars.keys()]) if (!a.vars.has(k) && !b.vars.has(k)) this.delete(k);
    for (const [k, v] of a.vars) {
      const other = b.vars.get(k);
      const joined = other === undefined ? UNKNOWN : v === other ? v : joinValues(v, other);
      if (this.vars.get(k) !== joined) this.set(k, joined);
    }
    for (const k of b.vars.keys()) if (!a.vars.has(k) && this.vars.get(k) !== UNKNOWN) this.set(k, UNKNOWN);
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
    if (!old || !v || !sameShape(old, v) || old.t !== 'tensor' || v.t !== 'tensor' || old.origin !== v.origin || old.lead !== v.lead || old.trace !== v.trace) return false;
  }
  return true;
}

function sameShape(a: Value, b: Value): boolean {
  if (a.t !== 'tensor' || b.t !== 'tensor' || a.shape.length !== b.shape.length || !!a.partial !== !!b.partial) return false;
  return a.shape.every((d, i) => (d === undefined ? b.shape[i] === undefined : b.shape[i] !== undefined && d.equals(b.shape[i]!)));
}
