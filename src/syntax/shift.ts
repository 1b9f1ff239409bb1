/** Moves a reused fragment by the characters and lines an edit above it added or removed. */
import type { Span } from '../core/expr';
import type { Binding, ExprRef, Fragment, Param, Scope } from '../core/source';

export function shiftFragment(f: Fragment, delta: number, lineDelta: number): Fragment {
  const span = (s: Span): Span => ({ ...s, start: s.start + delta, end: s.end + delta, startLine: s.startLine + lineDelta, endLine: s.endLine + lineDelta });
  const ref = (r: ExprRef): ExprRef => ({ start: r.start + delta, end: r.end + delta });
  const binding = (b: Binding): Binding => ({ ...b, at: b.at + delta, value: b.value && ref(b.value) });
  const param = (p: Param): Param => ({ ...p, default: p.default && ref(p.default) });
  const scope = (s: Scope): Scope => ({ ...s, nameSpan: span(s.nameSpan), params: s.params.map(param), bindings: s.bindings.map(binding), bases: s.bases.map(ref) });
  return {
    span: span(f.span),
    imports: f.imports,
    moduleBindings: f.moduleBindings.map(binding),
    scopes: f.scopes.map(scope),
    calls: f.calls.map((c) => ({ scope: c.scope, call: ref(c.call), span: span(c.span) })),
  };
}
