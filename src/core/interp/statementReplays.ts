/**
 * Module-level statements that only bind plain values (`D_MODEL = 512`, `cfg = dict(d=D_MODEL)`), replayed
 * in the next version of the document instead of run: their values are bound again while what they read
 * is unchanged. Every key typed runs the module body again, and in a large file most of its statements are
 * such constants, each shifted and converted again after an edit above it before it could run.
 */
import type { Fragment, ImportResolver } from '../ir/source';
import { isTainted, type Value } from '../values/value';
import { LIMITS, type Budget } from '../limits/budget';
import type { Frame } from './frame';
import { allReads, newReads, readsHold, type Reads, type ReadsNow, type Shared } from './hooks';
import { valueKey, type DefiningFiles } from '../values/valueKey';

/** What replaying a module-level statement needs of the interpreter. */
export interface ReplayContext extends DefiningFiles {
  readonly shared: Shared;
  readonly budget: Budget;
  readonly moduleFrame: Frame;
  /** What the statement running now reads, and the calls it reaches, while a run is recorded. */
  reads: Reads | undefined;
  reachedByRun: Set<number> | undefined;
  readonly names: {
    readonly fragmentIdSet: ReadonlySet<number>;
    originOf(name: string): number;
    bound(name: string, fragment: number): void;
  };
  reach(at: number): void;
  guard<T>(work: () => T): T | undefined;
}

/** What a statement did, when that was only binding plain values. */
export interface StatementRun {
  readonly reads: Reads;
  /** Each name it bound, with the value it left (a copy: a later statement may change a dict). */
  readonly writes: readonly (readonly [string, Value])[];
  /** The calls it evaluated, by offset from the statement's start. */
  readonly reached: readonly number[];
  readonly steps: number;
}

/** A statement that did more (built a model, changed an object): it runs in every version. */
export type KeptStatement = StatementRun | 'runs';

export class StatementReplays {
  /** This version's statements by id, and class bodies by `id:scope`, for the next version. */
  readonly kept = new Map<number | string, KeptStatement>();
  private now: ReadsNow | undefined;

  constructor(
    private readonly ev: ReplayContext,
    private readonly last: ReadonlyMap<number | string, KeptStatement>,
    private readonly resolver: ImportResolver | undefined,
  ) {}

  /** Runs statement `fi` with `work` as an entry point, or binds what it bound last time. */
  run(fi: number, fragment: Fragment, work: () => void): void {
    const last = this.last.get(fragment.id);
    if (last === 'runs') this.ev.guard(work);
    else if (last && this.valid(last)) this.apply(fi, fragment, last);
    else {
      this.kept.set(fragment.id, this.record(fragment, work));
      return;
    }
    this.kept.set(fragment.id, last);
  }

  /**
   * Runs the body of class `scope` where the class is defined, as Python does, unless last time it read
   * nothing of the module and did nothing but bind its own names (`width = 384`, `n_embd: int = 768`):
   * then it runs when a build asks for its attributes, which it finds the same whenever it runs.
   */
  classBody(fragment: Fragment, scope: number, work: () => void): void {
    const key = `${fragment.id}:${scope}`;
    const last = this.last.get(key);
    if (last && last !== 'runs' && this.valid(last)) {
      for (const at of last.reached) this.ev.reach(fragment.span.start + at);
      this.kept.set(key, last);
      return;
    }
    if (last === 'runs') {
      this.ev.guard(work);
      this.kept.set(key, last);
      return;
    }
    const run = this.record(fragment, work);
    this.kept.set(key, run !== 'runs' && readsOnly(run, fragment.id) ? run : 'runs');
  }

  private record(fragment: Fragment, work: () => void): KeptStatement {
    const { ev } = this;
    const { shared, moduleFrame } = ev;
    const reads = newReads();
    const reached = new Set<number>();
    const before = { effects: shared.effects, journal: shared.journal.position, steps: shared.budget.spent };
    const outer = { reads: ev.reads, reached: ev.reachedByRun };
    let ended = false;
    ev.reads = reads;
    ev.reachedByRun = reached;
    let written: ReadonlyMap<string, Value | undefined>;
    try {
      written = moduleFrame.changes(() =>
        ev.guard(() => {
          work();
          ended = true;
        }),
      );
    } finally {
      ev.reads = outer.reads;
      ev.reachedByRun = outer.reached;
    }
    // Anything besides binding names (a layer built, a module changed, a dict tainted) is not replayed.
    if (!ended || shared.effects !== before.effects || shared.journal.position !== before.journal) return 'runs';
    const { start, end } = fragment.span;
    for (const at of reached) if (at < start || at > end) return 'runs';
    const writes: [string, Value][] = [];
    for (const name of written.keys()) {
      const v = moduleFrame.vars.get(name);
      if (v === undefined || !plain(ev, v)) return 'runs';
      writes.push([name, copy(v)]);
    }
    return { reads, writes, reached: [...reached].map((at) => at - start), steps: shared.budget.spent - before.steps };
  }

  private valid(run: StatementRun): boolean {
    const { ev } = this;
    if (ev.budget.spent + run.steps > LIMITS.steps) return false;
    // Asked as the module runs: a name's binder and value are the ones bound so far.
    this.now ??= {
      ids: ev.names.fragmentIdSet,
      originOf: (name) => ev.names.originOf(name),
      keyOf: (name) => {
        const v = ev.moduleFrame.vars.get(name);
        return v && valueKey(ev, v);
      },
      file: (module) => this.resolver?.resolve(module),
    };
    return readsHold(run.reads, this.now);
  }

  private apply(fi: number, fragment: Fragment, run: StatementRun): void {
    const { ev } = this;
    for (const [name, v] of run.writes) {
      ev.moduleFrame.set(name, copy(v));
      ev.names.bound(name, fi);
    }
    for (const at of run.reached) ev.reach(fragment.span.start + at);
    ev.budget.charge(run.steps);
  }
}

/** Whether the run read nothing but statement `id` and bound nothing at module level. */
function readsOnly(run: StatementRun, id: number): boolean {
  if (run.writes.length) return false;
  for (const reads of allReads(run.reads))
    if (reads.names.size || reads.values.size || reads.files.size || [...reads.fragments].some((f) => f !== id))
      return false;
  return true;
}

/** A value no later statement reaches into but through dicts, holding no place in the text and no class of a file. */
function plain(ev: ReplayContext, v: Value): boolean {
  switch (v.t) {
    case 'int':
    case 'float':
    case 'bool':
    case 'str':
    case 'none':
    case 'sym':
    case 'ref':
    case 'range':
      return true;
    case 'seq':
      return v.items.every((item) => plain(ev, item));
    case 'repeat':
      return plain(ev, v.item);
    case 'dict':
      return !v.cls && !isTainted(v) && [...v.fields.values()].every((item) => plain(ev, item));
    default:
      return false;
  }
}

/** A plain value with dicts of its own, as mutable as the ones the statement made. */
function copy(v: Value): Value {
  switch (v.t) {
    case 'seq':
      return v.items.some((item) => item.t === 'dict' || item.t === 'seq' || item.t === 'repeat')
        ? { ...v, items: v.items.map(copy) }
        : v;
    case 'repeat':
      return { ...v, item: copy(v.item) };
    case 'dict':
      return { ...v, fields: new Map([...v.fields].map(([k, item]) => [k, copy(item)])) };
    default:
      return v;
  }
}
