/**
 * Runs a body's statements over a frame, as the code would run, without running anything real: a known
 * condition takes one branch; an unknown one runs both and joins them; loops with a known trip count are
 * unrolled within the budget and widened to unknown beyond it; `return`, `break`, `continue` and `raise`
 * end their path.
 */
import type { Expr, Span } from '../ir/expr';
import type { ExprRef, ImportBinding, Stmt } from '../ir/source';
import type { Poly } from '../values/symbolic';
import { UNKNOWN, int, sameValue, type Value } from '../values/value';
import { truthOf } from './truth';
import { compare } from './arith';
import { LIMITS, type Budget } from '../limits/budget';
import { settled, type Frame } from './frame';
import type { Journal } from './journal';
import { BuiltinRaise, type RaiseSite } from './raises';

/** How a path through a body ended: it runs on (undefined), or it left. */
export type Exit = undefined | 'return' | 'break' | 'continue' | 'raise';

/** What the statement runner needs from the interpreter. */
export interface StatementContext {
  readonly budget: Budget;
  readonly journal: Journal;
  expr(ref: ExprRef): Expr;
  eval(e: Expr, frame: Frame): Value;
  /** Binds `value` to a target expression (`x`, `self.x`, `a, b`, `d[k]`); `source` is the expression it came from. */
  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void;
  /** An expression statement: a call that may mutate (`xs.append(v)`, `self.add_module(...)`). */
  run(e: Expr, frame: Frame): void;
  /** A nested `def` / `class` statement. */
  define(scope: number, frame: Frame): void;
  /** Whether a library path names a layer of the catalog (a class, true as every class is). */
  isCatalogLayer(path: string): boolean;
  /** What a name an import statement binds is: the other file's definition, or the library's by its path. */
  importBinding(binding: ImportBinding): Value;
  /** The values a `for` runs over: listed, or only counted (`range(n)`) with each item alike, or not known. */
  iteration(v: Value): { readonly values?: readonly Value[]; readonly count?: Poly; readonly item?: Value };
  /** Entered while a loop body runs once for `count` passes: appends add `count` copies. */
  readonly repeats: Poly[];
  /** A raise (its exception expression) or a failed assert (its message) on a path the interpreter followed. */
  raised(span: Span, what: RaiseSite, frame: Frame): void;
  /** How many layers were recorded so far; the ones after `since` built in passes that differ. */
  recorded(): number;
  varied(since: number): void;
  /** Counts the paths that may not be taken, inside which a raise is not certain. */
  readonly shared: { unsure: number };
  /**
   * Set while forward() is followed for its activations, which takes one path only: any other ends it. A
   * loop over `times` alike blocks is recorded once, with the tensors each pass hands the next.
   */
  readonly tape?: {
    uncertain(why: string): never;
    repeat(times: bigint): {
      end(changed: ReadonlyMap<string, Value | undefined>, after: ReadonlyMap<string, Value>, wrote: boolean): void;
    };
  };
  /** Called after each assignment, for inlay hints. */
  assigned?(value: Value, expr: Expr): void;
  binary(op: string, l: Value, r: Value, span: Span, inPlace?: boolean): Value;
}

const UNDECIDED = 'depends on a condition Attention Lens cannot decide';
const LOOPED = 'set in a loop Attention Lens cannot unroll';

export class Runner {
  constructor(private readonly i: StatementContext) {}

  body(stmts: readonly Stmt[], frame: Frame): Exit {
    for (const s of stmts) {
      const exit = this.stmt(s, frame);
      if (exit) return exit;
    }
    return undefined;
  }

  private stmt(s: Stmt, frame: Frame): Exit {
    try {
      return this.step(s, frame);
    } catch (e) {
      // A builtin that raised in the statement's own expression ends it as a `raise` would (a statement
      // nested in it has caught what its own expressions raised).
      const value = e instanceof BuiltinRaise ? raisedIn(s) : undefined;
      if (!value) throw e;
      this.i.raised(this.i.expr(value).span, { builtin: e as BuiltinRaise }, frame);
      return 'raise';
    }
  }

  private step(s: Stmt, frame: Frame): Exit {
    const i = this.i;
    i.budget.tick();
    switch (s.k) {
      case 'assign': {
        if (!s.value) {
          // `x: int` declares without binding.
          return undefined;
        }
        const valueExpr = i.expr(s.value);
        const value = i.eval(valueExpr, frame);
        for (const t of s.targets) i.assign(i.expr(t), value, frame, valueExpr);
        i.assigned?.(value, valueExpr);
        return undefined;
      }
      case 'aug': {
        const target = i.expr(s.target);
        const right = s.value ? i.eval(i.expr(s.value), frame) : int(1);
        const result = i.binary(s.op, i.eval(target, frame), right, target.span, true);
        i.assign(target, result, frame);
        return undefined;
      }
      case 'expr':
        i.run(i.expr(s.value), frame);
        return undefined;
      case 'def':
        i.define(s.scope, frame);
        return undefined;
      case 'import':
        for (const binding of s.bindings) frame.set(binding.local, i.importBinding(binding));
        return undefined;
      case 'return':
        frame.returns.push(s.value ? i.eval(i.expr(s.value), frame) : { t: 'none' });
        return 'return';
      case 'raise':
        i.raised(s.span, { raise: s.value && i.expr(s.value) }, frame);
        return 'raise';
      case 'assert': {
        const holds = truthOf(i, i.eval(i.expr(s.test), frame));
        if (holds === false) {
          i.raised(s.span, { message: s.message && i.expr(s.message) }, frame);
          return 'raise';
        }
        return undefined;
      }
      case 'break':
      case 'continue':
        return s.k;
      case 'if': {
        const tested = i.eval(i.expr(s.test), frame);
        // A `switch` case: the case value compared with the switched one (===).
        const test = truthOf(i, s.equals ? compare('==', i.eval(i.expr(s.equals), frame), tested) : tested);
        if (test === true) return this.body(s.then, frame);
        if (test === false) return this.body(s.otherwise, frame);
        return this.both(s.then, s.otherwise, frame);
      }
      case 'for':
        return this.forLoop(s, frame);
      case 'while':
        return this.whileLoop(s, frame);
      case 'with':
        // `torch.no_grad()`, autocast and the like change what autograd keeps.
        i.tape?.uncertain('a with statement');
        for (const item of s.items) {
          const entered = i.eval(i.expr(item.value), frame);
          // A file's `__enter__` gives the file itself (`with open('net.json') as f: json.load(f)`).
          if (item.target) i.assign(i.expr(item.target), entered.t === 'file' ? entered : UNKNOWN, frame);
        }
        return this.body(s.body, frame);
      case 'try': {
        i.tape?.uncertain('a try statement');
        // The handlers run only if the body raises, which the interpreter does not model: the body is
        // taken as the path, and the handlers' calls are still found by running them on a fork.
        let exit = this.unsure(() => this.body(s.body, frame));
        for (const h of s.handlers) this.discard(h, frame);
        // A handler may catch what the body raised: the path goes on after the statement.
        if (exit === 'raise' && s.handlers.length) exit = undefined;
        const rest = exit ? exit : this.body(s.orelse, frame);
        const after = this.body(s.final, frame);
        return after ?? rest;
      }
      default:
        return undefined;
    }
  }

  /** Runs two branches whose condition is not known, and joins them. */
  both(a: readonly Stmt[], b: readonly Stmt[], frame: Frame): Exit {
    const i = this.i;
    i.tape?.uncertain('a condition Attention Lens cannot decide');
    const start = i.journal.position;
    // Each branch runs on the frame itself and is undone: a module frame is too large to copy per branch.
    const { result: exitA, after: left } = frame.trial(() => this.unsure(() => this.body(a, frame)));
    const writesA = i.journal.rewind(start);
    const { result: exitB, after: right } = frame.trial(() => this.unsure(() => this.body(b, frame)));
    const writesB = i.journal.rewind(start);
    if (exitA && !exitB) {
      i.journal.replay(writesB);
      frame.adopt(right);
      return undefined;
    }
    if (exitB && !exitA) {
      i.journal.replay(writesA);
      frame.adopt(left);
      return undefined;
    }
    i.journal.join(writesA, writesB, samePlace, UNDECIDED);
    frame.join(left, right);
    return exitA && exitA === exitB ? exitA : exitA && exitB ? 'return' : undefined;
  }

  /** Runs a body for its calls only: nothing it binds or writes is kept. */
  private discard(stmts: readonly Stmt[], frame: Frame): void {
    const start = this.i.journal.position;
    frame.trial(() => this.unsure(() => this.body(stmts, frame)));
    this.i.journal.rewind(start);
  }

  /** Runs a path that may not be taken. */
  private unsure<T>(work: () => T): T {
    this.i.shared.unsure++;
    try {
      return work();
    } finally {
      this.i.shared.unsure--;
    }
  }

  private forLoop(s: Extract<Stmt, { k: 'for' }>, frame: Frame): Exit {
    const i = this.i;
    const iterable = i.eval(i.expr(s.iterable), frame);
    const target = s.target ? i.expr(s.target) : undefined;
    const { values, count, item } = i.iteration(iterable);
    if (values && values.length <= LIMITS.loopPasses) {
      // `for block in self.blocks: x = block(x)` over 12 copies of one block: once a pass changes nothing,
      // the passes over the same item that follow would do exactly what it did.
      let previous: Value | undefined;
      let idle = false;
      for (const v of values) {
        if (idle && v === previous) continue;
        const position = i.journal.position;
        const recorded = i.recorded();
        let exit: Exit;
        const changed = frame.changes(() => {
          if (target) i.assign(target, v, frame);
          exit = this.body(s.body, frame);
        });
        if (exit === 'break') return undefined;
        if (exit === 'return' || exit === 'raise') return exit;
        idle =
          v === previous &&
          settled(changed, frame.vars) &&
          i.journal.position === position &&
          i.recorded() === recorded;
        previous = v;
      }
      return this.body(s.orelse, frame);
    }
    return this.once(s.body, frame, count, () => {
      if (target) i.assign(target, item ?? UNKNOWN, frame);
    });
  }

  private whileLoop(s: Extract<Stmt, { k: 'while' }>, frame: Frame): Exit {
    const i = this.i;
    for (let pass = 0; pass < LIMITS.loopPasses; pass++) {
      const test = truthOf(i, i.eval(i.expr(s.test), frame));
      if (test === false) return this.body(s.orelse, frame);
      if (test === undefined) return this.once(s.body, frame, undefined, () => undefined);
      const exit = this.body(s.body, frame);
      if (exit === 'break') return undefined;
      if (exit === 'return' || exit === 'raise') return exit;
    }
    return this.once(s.body, frame, undefined, () => undefined);
  }

  /**
   * A loop that cannot be unrolled: its body runs once so its layers are still found; with a count
   * (`range(n)`, n unknown) each append adds n copies; everything else it changes becomes unknown.
   */
  private once(body: readonly Stmt[], frame: Frame, count: Poly | undefined, bindTarget: () => void): Exit {
    const i = this.i;
    const times = count?.constant;
    const repeat =
      i.tape && (times !== undefined ? i.tape.repeat(times) : i.tape.uncertain('a loop Attention Lens cannot unroll'));
    bindTarget();
    const start = i.journal.position;
    const recorded = i.recorded();
    if (count) i.repeats.push(count);
    let changed: Map<string, Value | undefined>;
    try {
      const own = frame.changes(() => this.unsure(() => this.body(body, frame)));
      // A closure's writes to this frame's names (TypeScript) go through the journal.
      changed = i.journal.before(start, frame.vars);
      for (const [k, v] of own) changed.set(k, v);
    } finally {
      if (count) i.repeats.pop();
    }
    repeat?.end(changed, frame.vars, i.journal.position !== start);
    const appended = appendedIn(frame, changed);
    // A name the pass rebinds (`d = d * 2`) makes the passes differ: the copies appended are then not alike.
    const alike = [...changed].every(([k, old]) => !frame.vars.has(k) || old === frame.vars.get(k) || appended.has(k));
    // Appends under a count were written as repeated copies and stay when the passes are alike; every
    // other write is widened.
    for (const w of i.journal.rewind(start)) {
      i.journal.replay([w]);
      if (!(count && w.append && alike)) w.owner.differs(w.map, w.key, LOOPED);
    }
    frame.widen(changed, alike ? appended : new Set());
    if (!alike) i.varied(recorded);
    return undefined;
  }
}

/** Names whose new value only extends the old sequence (appends under a repeat count); `changed` by the pass. */
function appendedIn(frame: Frame, changed: ReadonlyMap<string, Value | undefined>): Set<string> {
  const keep = new Set<string>();
  for (const [k, old] of changed) {
    const v = frame.vars.get(k);
    if (
      old?.t === 'seq' &&
      v?.t === 'seq' &&
      v.items.length >= old.items.length &&
      old.items.every((x, n) => v.items[n] === x) &&
      v.items.slice(old.items.length).every((x) => x.t === 'repeat')
    )
      keep.add(k);
  }
  return keep;
}

/** What a journal place holds: the same object, or equal plain values. */
function samePlace(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  const isValue = (v: unknown): v is Value => typeof v === 'object' && v !== null && 't' in v;
  return isValue(x) && isValue(y) && sameValue(x, y);
}

/** The expression of `s` that Python evaluates before its body: where a builtin raising in it is reported. */
function raisedIn(s: Stmt): ExprRef | undefined {
  switch (s.k) {
    case 'assign':
    case 'aug':
    case 'expr':
    case 'return':
    case 'raise':
      return s.value;
    case 'assert':
    case 'if':
    case 'while':
      return s.test;
    case 'for':
      return s.iterable;
    case 'with':
      return s.items[0]?.value;
    default:
      return undefined;
  }
}
