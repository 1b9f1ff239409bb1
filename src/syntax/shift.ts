/** Moves reused fragments by the characters and lines an edit above them changed. */
import type { Span } from '../core/expr';
import type { ExprRef, Fragment, Param, Scope, Stmt } from '../core/source';

type Shift = (s: Span) => Span;

function spanShifter(delta: number, lineDelta: number): Shift {
  return (s) => ({ ...s, start: s.start + delta, end: s.end + delta, startLine: s.startLine + lineDelta, endLine: s.endLine + lineDelta });
}

export function shiftFragment(f: Fragment, delta: number, lineDelta: number): Fragment {
  if (delta === 0 && lineDelta === 0) return f;
  const span = spanShifter(delta, lineDelta);
  const ref = (r: ExprRef): ExprRef => ({ start: r.start + delta, end: r.end + delta });
  const param = (p: Param): Param => ({ ...p, default: p.default && ref(p.default) });
  const stmt = stmtShifter(delta, span, ref);
  const scope = (s: Scope): Scope => ({ ...s, nameSpan: span(s.nameSpan), extent: span(s.extent), params: s.params.map(param), bases: s.bases.map(ref), body: s.body.map(stmt) });
  return {
    id: f.id,
    span: span(f.span),
    imports: f.imports,
    scopes: f.scopes.map(scope),
    calls: f.calls.map((c) => ({ scope: c.scope, call: ref(c.call), span: span(c.span) })),
    body: f.body.map(stmt),
  };
}

function stmtShifter(delta: number, span: Shift, ref: (r: ExprRef) => ExprRef): (s: Stmt) => Stmt {
  const opt = (r: ExprRef | undefined) => r && ref(r);
  const shift = (s: Stmt): Stmt => {
    const at = s.at + delta;
    const body = (b: readonly Stmt[]) => b.map(shift);
    switch (s.k) {
      case 'assign': return { ...s, at, targets: s.targets.map(ref), value: opt(s.value) };
      case 'aug': return { ...s, at, target: ref(s.target), value: opt(s.value) };
      case 'expr': return { ...s, at, value: ref(s.value) };
      case 'if': return { ...s, at, test: ref(s.test), equals: opt(s.equals), then: body(s.then), otherwise: body(s.otherwise) };
      case 'for': return { ...s, at, target: opt(s.target), iterable: ref(s.iterable), body: body(s.body), orelse: body(s.orelse) };
      case 'while': return { ...s, at, test: ref(s.test), body: body(s.body), orelse: body(s.orelse) };
      case 'return': return { ...s, at, value: opt(s.value) };
      case 'raise': return { ...s, at, span: span(s.span), value: opt(s.value) };
      case 'assert': return { ...s, at, span: span(s.span), test: ref(s.test), message: opt(s.message) };
      case 'try': return { ...s, at, body: body(s.body), handlers: s.handlers.map(body), orelse: body(s.orelse), final: body(s.final) };
      case 'with': return { ...s, at, items: s.items.map((i) => ({ value: ref(i.value), target: opt(i.target) })), body: body(s.body) };
      default: return { ...s, at };
    }
  };
  return shift;
}
