/** The default format: a table per file, rows in source order, and a closing summary line. */
import { dimText } from '../core/catalog/spec';
import type { Span } from '../core/expr';
import { builtWhere, siteCount, formatTotal, instanceTotal, untrackedCount } from '../core/format';
import type { Severity } from '../core/layer';
import type { Paint } from './colour';
import { visibleControls } from '../core/controls';
import { placeText } from './place';
import { inSourceOrder, isFailed, type AnalysedFile, type FileReport } from './report';

interface Row {
  readonly span: Span;
  readonly text: string;
  readonly severity?: Severity;
}

/** `unreadable`: paths that could not be searched at all (already reported on stderr). */
export function toText(reports: readonly FileReport[], unreadable: number, paint: Paint): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (isFailed(r)) {
      lines.push(paint.bold(visibleControls(r.path)), `  ${paint.red('not analysed')}: ${visibleControls(r.error)}`);
      continue;
    }
    const rows = rowsOf(r, paint).map((row) => ({ where: placeText(r.locate(row.span.startLine, row.span.startChar)), text: row.text }));
    if (!rows.length) continue;
    const width = Math.max(8, ...rows.map((row) => row.where.length));
    lines.push(paint.bold(visibleControls(r.path)));
    for (const row of rows) lines.push(`  ${paint.dim(row.where.padEnd(width))} ${row.text}`);
  }
  if (lines.length) lines.push('');
  lines.push(summary(reports, unreadable, paint));
  return `${lines.join('\n')}\n`;
}

/** Layers, model classes, models built and diagnostics interleaved by position; at one position a layer comes before its diagnostics. */
function rowsOf(r: AnalysedFile, paint: Paint): Row[] {
  const { layers, modules, instances, findings } = r.analysis;
  // Names, strings and paths from the file reach a terminal: their escape sequences are shown, not run.
  const rows = inSourceOrder<Row>([
    ...layers.map((l) => ({ span: l.span, text: `${l.layer.kind.padEnd(26)} ${(l.layer.rejected ? 'rejected' : siteCount(l)).padStart(16)}  ${l.layer.summary}`.trimEnd() })),
    ...modules.map((m) => {
      const summary = m.built?.summary ?? m.summary;
      const stack = summary.stack ? `${dimText(summary.stack.count)} × ${summary.stack.kind}` : m.attention ? `attention · ${m.attention.summary}` : '';
      const where = m.built ? `${stack ? ' · ' : ''}${builtWhere(m.name, m.built.context)}` : '';
      return { span: m.span, text: `${`class ${m.name}`.padEnd(26)} ${formatTotal(summary).padStart(16)}  ${[`${stack}${where}`, untrackedCount(summary)].filter(Boolean).join(' · ')}`.trimEnd() };
    }),
    ...instances.map((i) => {
      const stack = i.summary.stack ? `${dimText(i.summary.stack.count)} × ${i.summary.stack.kind}` : '';
      return { span: i.span, text: `${`model ${i.className}`.padEnd(26)} ${instanceTotal(i.summary, i.totals).padStart(16)}  ${[stack, untrackedCount(i.summary), i.summary.params || i.totals ? '' : i.summary.reason].filter(Boolean).join(' · ')}`.trimEnd() };
    }),
    ...findings.map((f) => ({ span: f.span, severity: f.severity, text: `[${f.code}] ${f.message}` })),
  ]);
  // The severity's colour is this program's, added once the file's text is made visible.
  return rows.map(({ span, severity, text }) => ({ span, text: `${severity ? `${severityText(severity, paint)} ` : ''}${visibleControls(text)}` }));
}

function severityText(severity: Severity, paint: Paint): string {
  return severity === 'error' ? paint.red(severity) : severity === 'warning' ? paint.yellow(severity) : paint.blue(severity);
}

/** `3 errors in 2 files · 12 models · 48 layers`, or `no errors in 5 files · ...`. */
function summary(reports: readonly FileReport[], unreadable: number, paint: Paint): string {
  const analysed = reports.filter((r): r is AnalysedFile => !isFailed(r));
  const count = (r: AnalysedFile, severity: Severity) => r.analysis.findings.filter((f) => f.severity === severity).length;
  const errors = analysed.reduce((n, r) => n + count(r, 'error'), 0);
  const warnings = analysed.reduce((n, r) => n + count(r, 'warning'), 0);
  const withProblems = analysed.filter((r) => count(r, 'error') + count(r, 'warning') > 0).length;
  const problems = [errors && plural(errors, 'error'), warnings && plural(warnings, 'warning')].filter(Boolean).join(', ');
  const parts = [
    problems ? `${problems} in ${plural(withProblems, 'file')}` : `no errors in ${plural(analysed.length, 'file')}`,
    plural(analysed.reduce((n, r) => n + r.analysis.modules.length, 0), 'model'),
    plural(analysed.reduce((n, r) => n + r.analysis.layers.length, 0), 'layer'),
  ];
  const failed = reports.length - analysed.length;
  if (failed) parts.push(`${plural(failed, 'file')} not analysed`);
  if (unreadable) parts.push(`${plural(unreadable, 'path')} not read`);
  const line = parts.join(' · ');
  return errors || failed || unreadable ? paint.red(line) : warnings ? paint.yellow(line) : paint.green(line);
}

function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

