/** Moves reused fragments and their results by the characters and lines an edit above them changed. */
import type { FragmentResult } from '../core/analysis';
import type { Span } from '../core/expr';
import type { Finding } from '../core/layer';
import type { Binding, ExprRef, Fragment, Param, Scope } from '../core/source';

type Shift = (s: Span) => Span;

function spanShifter(delta: number, lineDelta: number): Shift {
  return (s) => ({ ...s, start: s.start + delta, end: s.end + delta, startLine: s.startLine + lineDelta, endLine: s.endLine + lineDelta });
}

export function shiftFragment(f: Fragment, delta: number, lineDelta: number): Fragment {
  if (delta === 0 && lineDelta === 0) return f;
  const span = spanShifter(delta, lineDelta);
  const ref = (r: ExprRef): ExprRef => ({ start: r.start + delta, end: r.end + delta });
  const binding = (b: Binding): Binding => ({ ...b, at: b.at + delta, value: b.value && ref(b.value), append: b.append && { ...b.append, iterable: b.append.iterable && ref(b.append.iterable) } });
  const param = (p: Param): Param => ({ ...p, default: p.default && ref(p.default) });
  const scope = (s: Scope): Scope => ({ ...s, nameSpan: span(s.nameSpan), extent: span(s.extent), params: s.params.map(param), bindings: s.bindings.map(binding), bases: s.bases.map(ref) });
  return {
    span: span(f.span),
    imports: f.imports,
    moduleBindings: f.moduleBindings.map(binding),
    scopes: f.scopes.map(scope),
    calls: f.calls.map((c) => ({ scope: c.scope, call: ref(c.call), span: span(c.span) })),
  };
}

export function shiftResult(r: FragmentResult, delta: number, lineDelta: number): FragmentResult {
  if (delta === 0 && lineDelta === 0) return r;
  const span = spanShifter(delta, lineDelta);
  const finding = (f: Finding): Finding => ({ ...f, span: span(f.span), related: f.related?.map((r) => ({ ...r, span: span(r.span) })), fixes: f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, span: span(e.span) })) })) });
  return {
    layers: r.layers.map((l) => ({ ...l, span: span(l.span), findings: l.findings.map(finding) })),
    findings: r.findings.map(finding),
    modules: r.modules.map((m) => ({ ...m, span: span(m.span), extent: span(m.extent) })),
    instances: r.instances.map((i) => ({ ...i, span: span(i.span) })),
    hints: r.hints.map((h) => ({ ...h, span: span(h.span) })),
    reads: r.reads,
  };
}

/** The module-level names a top-level statement binds: constants, imports, classes, functions. */
export function definedNames(f: Fragment): string[] {
  return [...f.moduleBindings.map((b) => b.target), ...f.imports.map((i) => i.local), ...f.scopes.filter((s) => s.parent === -1).map((s) => s.name)];
}
