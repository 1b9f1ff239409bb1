/**
 * A notebook is analysed as one program, its code cells joined in order (as "Run All" runs them: a class
 * gets the sizes of the models built in later cells, a cell the imports and constants of those above), but
 * only what lies inside a cell is its own: results of the other cells would land on lines outside it. This
 * keeps a cell's results and moves them into the cell's coordinates.
 */
import type { Analysis, LayerResult } from '../core/analysis/analyze';
import type { Span } from '../core/ir/expr';
import type { Finding } from '../core/values/layer';

/** Where a cell lies in the joined text: its first character and line, and its length. */
export interface CellPlace {
  readonly start: number;
  readonly line: number;
  readonly length: number;
}

export function cellView(analysis: Analysis, cell: CellPlace): Analysis {
  const end = cell.start + cell.length;
  const inside = (s: Span) => s.start >= cell.start && s.start <= end;
  const move = (s: Span): Span => ({
    ...s,
    start: s.start - cell.start,
    end: s.end - cell.start,
    startLine: s.startLine - cell.line,
    endLine: s.endLine - cell.line,
  });
  const finding = (f: Finding): Finding => ({
    ...f,
    span: move(f.span),
    related: f.related?.filter((r) => inside(r.span)).map((r) => ({ ...r, span: move(r.span) })),
    // A fix that would also edit another cell is not offered in this one.
    fixes: f.fixes
      .filter((x) => x.edits.every((e) => inside(e.span) && e.span.end <= end))
      .map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, span: move(e.span) })) })),
  });
  const layer = (l: LayerResult): LayerResult => ({
    ...l,
    span: move(l.span),
    findings: l.findings.filter((f) => inside(f.span)).map(finding),
  });
  return {
    language: analysis.language,
    layers: analysis.layers.filter((l) => inside(l.span)).map(layer),
    findings: analysis.findings.filter((f) => inside(f.span)).map(finding),
    modules: analysis.modules
      .filter((m) => inside(m.span))
      .map((m) => ({
        ...m,
        span: move(m.span),
        extent: move(m.extent),
        // Where a configuration is stated, when it is in this cell: another cell's line is no line of this one.
        ...(m.configurations && {
          configurations: m.configurations.map(({ source, ...c }) =>
            source && inside(source) ? { ...c, source: move(source) } : c,
          ),
        }),
      })),
    instances: analysis.instances.filter((i) => inside(i.span)).map((i) => ({ ...i, span: move(i.span) })),
    parts: analysis.parts.filter((p) => inside(p.span)).map((p) => ({ ...p, span: move(p.span) })),
    hints: analysis.hints.filter((h) => inside(h.span)).map((h) => ({ ...h, span: move(h.span) })),
    ...(analysis.configurationsCut && { configurationsCut: analysis.configurationsCut }),
  };
}
