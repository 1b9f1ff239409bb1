/**
 * The default format: a table per file, rows in source order, each starting with `path:line:col` as
 * compilers and linters print it (terminals and CI logs link it), and a closing summary line.
 */
import { dimText } from '../core/catalog/spec';
import type { Span } from '../core/ir/expr';
import {
  builtWhere,
  distinctConfigurations,
  siteCount,
  formatTotal,
  instanceTotal,
  untrackedCount,
} from '../core/present/format';
import type { Severity } from '../core/values/layer';
import { groupDigits } from '../core/values/symbolic';
import type { Paint } from './colour';
import { visibleControls } from '../core/present/controls';
import { DEFAULT_SIZING, OPTIMIZER_NAMES, type SizingOptions } from '../core/sizing/memory';
import type { Sizing } from '../core/sizing/sizing';
import { sizingFigures } from '../core/sizing/sizingFigures';
import { bytesText } from '../core/sizing/units';
import { placeElsewhere, placeText } from './place';
import { inSourceOrder, isFailed, type AnalysedFile, type FileCounts, type FileReport } from './report';

interface Row {
  readonly span: Span;
  readonly text: string;
  readonly severity?: Severity;
}

/** One file's table (or why it was not analysed): the lines it prints, none for a file with nothing to show. */
export function textOfFile(r: FileReport, paint: Paint, sizing: SizingOptions = DEFAULT_SIZING): string[] {
  const path = visibleControls(r.path);
  if (isFailed(r)) return [`${paint.bold(path)}: ${paint.red('not analysed')}: ${visibleControls(r.error)}`];
  const rows = rowsOf(r, paint, sizing).map((row) => ({
    where: `${path}:${placeText(r.locate(row.span.startLine, row.span.startChar))}`,
    text: row.text,
  }));
  const width = Math.max(...rows.map((row) => row.where.length));
  return rows.map((row) => `${paint.dim(row.where.padEnd(width))}  ${row.text}`);
}

/** The files' tables in order, then the summary line; `unreadable`: paths that could not be searched at all (already reported on stderr). */
export function toText(
  tables: readonly (readonly string[])[],
  counts: readonly FileCounts[],
  unreadable: number,
  paint: Paint,
): string {
  const lines = tables.flat();
  if (lines.length) lines.push('');
  lines.push(summary(counts, unreadable, paint));
  return `${lines.join('\n')}\n`;
}

/** Layers, model classes, models built and diagnostics interleaved by position; at one position a layer comes before its diagnostics. */
function rowsOf(r: AnalysedFile, paint: Paint, sizing: SizingOptions): Row[] {
  const { layers, modules, instances, findings } = r.analysis;
  // The columns fit the file's longest kind or name and count (`tensor_parallel.ColumnParallelLinear`,
  // `4 sizes: 74,208 … 4,722,432`), never narrower than usual.
  const label = Math.max(
    26,
    ...layers.map((l) => l.layer.kind.length),
    ...modules.map((m) => `class ${m.name}`.length),
    ...instances.map((i) => `model ${i.className}`.length),
  );
  const count = Math.max(
    16,
    ...layers.map((l) => (l.layer.rejected ? 'rejected' : siteCount(l)).length),
    ...modules.map((m) => formatTotal(m.built?.summary ?? m.summary, m.sizes).length),
    ...instances.map((i) => instanceTotal(i.summary, i.totals).length),
  );
  // Names, strings and paths from the file reach a terminal: their escape sequences are shown, not run.
  const rows = inSourceOrder<Row>([
    ...layers.map((l) => ({
      span: l.span,
      text: `${l.layer.kind.padEnd(label)} ${(l.layer.rejected ? 'rejected' : siteCount(l)).padStart(count)}  ${l.layer.summary}`.trimEnd(),
    })),
    ...modules.flatMap((m) => {
      const summary = m.built?.summary ?? m.summary;
      const stack = summary.stack
        ? `${dimText(summary.stack.count)} × ${summary.stack.kind}`
        : m.attention
          ? `attention · ${m.attention.summary}`
          : '';
      const at = m.built ? builtWhere(m.name, m.built.context) : m.sizes ? `in ${m.sizes.context}` : '';
      const where = at ? `${stack ? ' · ' : ''}${at}` : '';
      const row = {
        span: m.span,
        text: `${`class ${m.name}`.padEnd(label)} ${formatTotal(summary, m.sizes).padStart(count)}  ${[`${stack}${where}`, untrackedCount(summary)].filter(Boolean).join(' · ')}`.trimEnd(),
      };
      // Models that build it with different totals: one row for each total, below the class.
      return [
        row,
        ...distinctConfigurations(m.configurations).map((c) => ({
          span: m.span,
          text: `${''.padEnd(label)} ${groupDigits(c.params.constant!).padStart(count)}  ${builtWhere(m.name, c.context)}${c.elsewhere ? ` · ${visibleControls(placeElsewhere(r.path, c.elsewhere))}` : ''}${c.active ? ' (shown)' : ''}`,
        })),
      ];
    }),
    // A configuration chosen with --config is its class's row; its sizing is in the JSON.
    ...instances
      .filter((i) => !i.configuration)
      .flatMap((i) => {
        const stack = i.summary.stack ? `${dimText(i.summary.stack.count)} × ${i.summary.stack.kind}` : '';
        const model = {
          span: i.span,
          text: `${`model ${i.className}`.padEnd(label)} ${instanceTotal(i.summary, i.totals).padStart(count)}  ${[stack, untrackedCount(i.summary), i.summary.params || i.totals ? '' : i.summary.reason].filter(Boolean).join(' · ')}`.trimEnd(),
        };
        return i.sizing
          ? [
              model,
              {
                span: i.span,
                text: `${''.padEnd(label)} ${'sizing'.padStart(count)}  ${sizingLine(i.sizing, sizing)}`,
              },
            ]
          : [model];
      }),
    ...findings.map((f) => ({ span: f.span, severity: f.severity, text: `[${f.code}] ${f.message}` })),
  ]);
  // The severity's colour is this program's, added once the file's text is made visible.
  return rows.map(({ span, severity, text }) => ({
    span,
    text: `${severity ? `${severityText(severity, paint)} ` : ''}${visibleControls(text)}`,
  }));
}

/** `bf16, 1 × 1,024 tokens: weights 237.4 MiB · training 1.9 GiB (AdamW in mixed precision) · …`: the JSON's sizing in a line. */
function sizingLine(s: Sizing, options: SizingOptions): string {
  const f = sizingFigures(s, options);
  const size = (n: bigint | undefined) => (n === undefined ? 'not known' : bytesText(n));
  const activations = 'unknown' in f.activations ? 'not known' : bytesText(f.activations.bytes);
  const parts = [
    `weights ${size(f.weightBytes)}`,
    `training ${size(f.trainingBytes)} (${OPTIMIZER_NAMES[options.optimizer]})`,
    `activations ${activations}`,
    ...(s.kvPerToken ? [`KV cache ${size(f.kvCacheBytes)}`] : []),
  ];
  return `${options.dtype}, ${options.batch.toLocaleString('en-US')} × ${options.sequence.toLocaleString('en-US')} tokens: ${parts.join(' · ')}`;
}

function severityText(severity: Severity, paint: Paint): string {
  return severity === 'error'
    ? paint.red(severity)
    : severity === 'warning'
      ? paint.yellow(severity)
      : paint.blue(severity);
}

/** `3 errors in 2 files · 12 models · 48 layers`, or `no errors in 5 files · ...`. */
function summary(counts: readonly FileCounts[], unreadable: number, paint: Paint): string {
  const analysed = counts.filter((c) => !c.failed);
  const sum = (key: 'errors' | 'warnings' | 'models' | 'layers') => analysed.reduce((n, c) => n + c[key], 0);
  const errors = sum('errors');
  const warnings = sum('warnings');
  const withProblems = analysed.filter((c) => c.errors + c.warnings > 0).length;
  const problems = [errors && plural(errors, 'error'), warnings && plural(warnings, 'warning')]
    .filter(Boolean)
    .join(', ');
  const parts = [
    problems ? `${problems} in ${plural(withProblems, 'file')}` : `no errors in ${plural(analysed.length, 'file')}`,
    plural(sum('models'), 'model'),
    plural(sum('layers'), 'layer'),
  ];
  const failed = counts.length - analysed.length;
  if (failed) parts.push(`${plural(failed, 'file')} not analysed`);
  if (unreadable) parts.push(`${plural(unreadable, 'path')} not read`);
  const line = parts.join(' · ');
  return errors || failed || unreadable ? paint.red(line) : warnings ? paint.yellow(line) : paint.green(line);
}

function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
