/**
 * The variables of one running body. A function's frame points at the frame it was defined in (closures);
 * a top-level function's and a class's point at the module's frame. Branches run on forks and are joined.
 */
import { UNKNOWN, joinValues, type Value } from '../value';

export class Frame {
  /** Values the running function returned on the paths that reached a `return`. */
  returns: Value[];

  constructor(
    /** Where the body is: its fragment (the module frame moves from one to the next), and its scope (-1 for module level). */
    public fragment: number,
    readonly scope: number,
    /** The enclosing function's frame, or the module's; undefined for the module frame itself. */
    readonly parent: Frame | undefined,
    readonly vars: Map<string, Value> = new Map(),
    returns?: Value[],
  ) {
    this.returns = returns ?? [];
  }

  get isModule(): boolean {
    return this.parent === undefined;
  }

  /** A copy for one branch: its own variables, the same list of returns. */
  fork(): Frame {
    return new Frame(this.fragment, this.scope, this.parent, new Map(this.vars), this.returns);
  }

  /** Takes a branch's variables as they are (the other branch ended in a return or raise). */
  adopt(branch: Frame): void {
    this.vars.clear();
    for (const [k, v] of branch.vars) this.vars.set(k, v);
  }

  /** The join of two branches: a name bound alike in both keeps its value; otherwise it is unknown. */
  join(a: Frame, b: Frame): void {
    this.vars.clear();
    for (const [k, v] of a.vars) {
      const other = b.vars.get(k);
      this.vars.set(k, other === undefined ? UNKNOWN : joinValues(v, other));
    }
    for (const k of b.vars.keys()) if (!a.vars.has(k)) this.vars.set(k, UNKNOWN);
  }

  /**
   * After one pass of a loop that cannot be unrolled: a name the pass changed is unknown, unless the pass
   * left it as it was in kind and size (a tensor of the same shape: the residual stream through blocks).
   */
  widen(before: ReadonlyMap<string, Value>, keep: ReadonlySet<string> = new Set()): void {
    for (const [k, v] of this.vars) {
      const old = before.get(k);
      if (old === v || keep.has(k) || (old && sameShape(old, v))) continue;
      this.vars.set(k, UNKNOWN);
    }
  }
}

/**
 * Whether the variables are as `before` left them, tensors by shape, origin and trace: a loop pass that
 * leaves them so, and writes nothing else, does the same again when its next item is the same value.
 */
export function settled(before: ReadonlyMap<string, Value>, after: ReadonlyMap<string, Value>): boolean {
  if (before.size !== after.size) return false;
  for (const [k, v] of after) {
    const old = before.get(k);
    if (old === v) continue;
    if (!old || !sameShape(old, v) || old.t !== 'tensor' || v.t !== 'tensor' || old.origin !== v.origin || old.lead !== v.lead || old.trace !== v.trace) return false;
  }
  return true;
}

function sameShape(a: Value, b: Value): boolean {
  if (a.t !== 'tensor' || b.t !== 'tensor' || a.shape.length !== b.shape.length || !!a.partial !== !!b.partial) return false;
  return a.shape.every((d, i) => (d === undefined ? b.shape[i] === undefined : b.shape[i] !== undefined && d.equals(b.shape[i]!)));
}
