/**
 * A notebook cell is analysed below the code cells above it (their imports and constants are in scope),
 * but only what lies inside the cell is its own: results of the cells above would land on negative
 * lines. This keeps the cell's results and moves them into the cell's coordinates.
 */
import type { Analysis, LayerResult } from '../core/analysis';
import type { Span } from '../core/expr';
import type { Finding } from '../core/layer';

/** The text placed above the cell: how many characters and line breaks it holds. */
export interface Preamble {
  readonly chars: number;
  readonly lines: number;
}

export function preambleOf(text: string): Preamble {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return { chars: text.length, lines };
}

export function cellView(analysis: Analysis, preamble: Preamble): Analysis {
  if (preamble.chars === 0) return analysis;
  const inside = (s: Span) => s.start >= preamble.chars;
  const move = (s: Span): Span => ({ ...s, start: s.start - preamble.chars, end: s.end - preamble.chars, startLine: s.startLine - preamble.lines, endLine: s.endLine - preamble.lines });
  const finding = (f: Finding): Finding => ({
    ...f,
    span: move(f.span),
    related: f.related?.filter((r) => inside(r.span)).map((r) => ({ ...r, span: move(r.span) })),
    // A fix that would also edit a cell above is not offered in this one.
    fixes: f.fixes.filter((x) => x.edits.every((e) => inside(e.span))).map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, span: move(e.span) })) })),
  });
  const layer = (l: LayerResult): LayerResult => ({ ...l, span: move(l.span), findings: l.findings.filter((f) => inside(f.span)).map(finding) });
  return {
    language: analysis.language,
    layers: analysis.layers.filter((l) => inside(l.span)).map(layer),
    findings: analysis.findings.filter((f) => inside(f.span)).map(finding),
    modules: analysis.modules.filter((m) => inside(m.span)).map((m) => ({ ...m, span: move(m.span), extent: move(m.extent) })),
    instances: analysis.instances.filter((i) => inside(i.span)).map((i) => ({ ...i, span: move(i.span) })),
    parts: analysis.parts.filter((p) => inside(p.span)).map((p) => ({ ...p, span: move(p.span) })),
    hints: analysis.hints.filter((h) => inside(h.span)).map((h) => ({ ...h, span: move(h.span) })),
  };
}
