/** Moves reused fragments by the characters and lines an edit above them changed. */
import type { Span } from '../core/ir/expr';
import type { ExprRef, Fragment, Param, Scope, Stmt } from '../core/ir/source';

type Shift = (s: Span) => Span;

function spanShifter(delta: number, lineDelta: number): Shift {
  return (s) => ({
    ...s,
    start: s.start + delta,
    end: s.end + delta,
    startLine: s.startLine + lineDelta,
    endLine: s.endLine + lineDelta,
  });
}

/**
 * `f` moved by an edit above it. Typing shifts every statement below the cursor on each key, and a
 * statement's body is mostly read by nobody (its class build is replayed): the statements are shifted when
 * first read, from the fragment as extracted, so that a chain of edits is one shift.
 */
export function shiftFragment(f: Fragment, delta: number, lineDelta: number): Fragment {
  if (delta === 0 && lineDelta === 0) return f;
  if (!(f instanceof MovedFragment)) return new MovedFragment(f, delta, lineDelta);
  // Back where it was extracted (a key typed, then deleted): the extracted fragment, whose expressions are converted already.
  return f.delta + delta === 0 && f.lineDelta + lineDelta === 0
    ? f.base
    : new MovedFragment(f.base, f.delta + delta, f.lineDelta + lineDelta);
}

/** The fragment as it was extracted, before the edits that moved it. */
export function extractedOf(f: Fragment): Fragment {
  return f instanceof MovedFragment ? f.base : f;
}

/** A fragment moved by edits; its statements are shifted when first read. */
class MovedFragment implements Fragment {
  readonly id: number;
  readonly span: Span;
  readonly imports: Fragment['imports'];
  readonly scopes: readonly Scope[];
  readonly calls: Fragment['calls'];
  readonly code: boolean;
  readonly defs: readonly number[];
  private readonly shift: Shifters;
  private moved?: readonly Stmt[];

  constructor(
    readonly base: Fragment,
    readonly delta: number,
    readonly lineDelta: number,
  ) {
    const shift = (this.shift = shifters(delta, lineDelta));
    const { span, ref } = shift;
    this.id = base.id;
    this.span = span(base.span);
    this.imports = base.imports;
    this.code = base.code;
    this.defs = base.defs;
    this.scopes = base.scopes.map((s) => new MovedScope(s, shift));
    this.calls = base.calls.map((c) => ({ scope: c.scope, call: ref(c.call), span: span(c.span) }));
  }

  get body(): readonly Stmt[] {
    return (this.moved ??= this.base.body.map(this.shift.stmt));
  }
}

class MovedScope implements Scope {
  readonly kind: Scope['kind'];
  readonly name: string;
  readonly parent: number;
  readonly locals?: readonly string[];
  readonly fields: readonly string[];
  readonly decorators: readonly string[];
  readonly code: boolean;
  private movedName?: Span;
  private movedExtent?: Span;
  private moved?: readonly Stmt[];
  private movedParams?: readonly Param[];
  private movedBases?: readonly ExprRef[];

  constructor(
    private readonly base: Scope,
    private readonly shift: Shifters,
  ) {
    this.kind = base.kind;
    this.name = base.name;
    this.parent = base.parent;
    if (base.locals) this.locals = base.locals;
    this.fields = base.fields;
    this.decorators = base.decorators;
    this.code = base.code;
  }

  get nameSpan(): Span {
    return (this.movedName ??= this.shift.span(this.base.nameSpan));
  }

  get extent(): Span {
    return (this.movedExtent ??= this.shift.span(this.base.extent));
  }

  get body(): readonly Stmt[] {
    return (this.moved ??= this.base.body.map(this.shift.stmt));
  }

  get params(): readonly Param[] {
    return (this.movedParams ??= this.base.params.map(this.shift.param));
  }

  get bases(): readonly ExprRef[] {
    return (this.movedBases ??= this.base.bases.map(this.shift.ref));
  }
}

interface Shifters {
  readonly span: Shift;
  readonly ref: (r: ExprRef) => ExprRef;
  readonly param: (p: Param) => Param;
  readonly stmt: (s: Stmt) => Stmt;
}

/** The shifters of recent moves: on each key typed, every statement below moves by the same amount. */
const SHIFTERS = new Map<string, Shifters>();

function shifters(delta: number, lineDelta: number): Shifters {
  const key = `${delta},${lineDelta}`;
  let found = SHIFTERS.get(key);
  if (!found) {
    if (SHIFTERS.size >= 64) SHIFTERS.clear();
    const span = spanShifter(delta, lineDelta);
    const ref = (r: ExprRef): ExprRef => ({ start: r.start + delta, end: r.end + delta });
    const param = (p: Param): Param => ({ ...p, default: p.default && ref(p.default) });
    SHIFTERS.set(key, (found = { span, ref, param, stmt: stmtShifter(delta, span, ref) }));
  }
  return found;
}

function stmtShifter(delta: number, span: Shift, ref: (r: ExprRef) => ExprRef): (s: Stmt) => Stmt {
  const opt = (r: ExprRef | undefined) => r && ref(r);
  const shift = (s: Stmt): Stmt => {
    const at = s.at + delta;
    const body = (b: readonly Stmt[]) => b.map(shift);
    switch (s.k) {
      case 'assign':
        return { ...s, at, targets: s.targets.map(ref), value: opt(s.value) };
      case 'aug':
        return { ...s, at, target: ref(s.target), value: opt(s.value) };
      case 'expr':
        return { ...s, at, value: ref(s.value) };
      case 'if':
        return { ...s, at, test: ref(s.test), equals: opt(s.equals), then: body(s.then), otherwise: body(s.otherwise) };
      case 'for':
        return {
          ...s,
          at,
          target: opt(s.target),
          iterable: ref(s.iterable),
          body: body(s.body),
          orelse: body(s.orelse),
        };
      case 'while':
        return { ...s, at, test: ref(s.test), body: body(s.body), orelse: body(s.orelse) };
      case 'return':
        return { ...s, at, value: opt(s.value) };
      case 'raise':
        return { ...s, at, span: span(s.span), value: opt(s.value) };
      case 'assert':
        return { ...s, at, span: span(s.span), test: ref(s.test), message: opt(s.message) };
      case 'try':
        return {
          ...s,
          at,
          body: body(s.body),
          handlers: s.handlers.map(body),
          orelse: body(s.orelse),
          final: body(s.final),
        };
      case 'with':
        return {
          ...s,
          at,
          items: s.items.map((i) => ({ value: ref(i.value), target: opt(i.target) })),
          body: body(s.body),
        };
      default:
        return { ...s, at };
    }
  };
  return shift;
}
