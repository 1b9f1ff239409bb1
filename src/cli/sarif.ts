/**
 * `--format sarif`: SARIF 2.1.0 for GitHub code scanning. Paths are relative to the working directory
 * (the repository root in CI); columns count UTF-16 code units, as the analysis does.
 */
import * as path from 'path';
import { pathToFileURL } from 'url';
import type { Span } from '../core/ir/expr';
import type { Finding, Severity } from '../core/values/layer';
import { ruleFor, RULES, type Rule } from './rules';
import { isFailed, inSourceOrder, type AnalysedFile, type FileReport } from './report';

/** What the log keeps of one file: its results (their rule index is the run's), or why it was not analysed. */
export type SarifFile =
  { readonly notAnalysed: object } | { readonly codes: readonly string[]; readonly results: readonly SarifResult[] };

/** A result before the run numbers its rule. */
interface SarifResult {
  readonly code: string;
  readonly rest: object;
}

export interface SarifRun {
  readonly files: readonly SarifFile[];
  /** Paths that could not be searched, with the reason. */
  readonly problems: readonly string[];
  readonly version: string;
  readonly exitCode: number;
}

const LEVELS: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };

export function sarifOfFile(r: FileReport): SarifFile {
  if (isFailed(r))
    return {
      notAnalysed: {
        level: 'error',
        message: { text: `${r.path} not analysed: ${r.error}` },
        locations: [{ physicalLocation: { artifactLocation: artifact(r.path) } }],
      },
    };
  // The codes in the order the analysis found them: the order in which the run lists the rules not in RULES.
  return {
    codes: [...new Set(r.analysis.findings.map((f) => f.code))],
    results: inSourceOrder(r.analysis.findings).map((f) => ({ code: f.code, rest: result(r, f) })),
  };
}

export function toSarif({ files, problems, version, exitCode }: SarifRun): string {
  const analysed = files.filter((f): f is Extract<SarifFile, { codes: unknown }> => 'codes' in f);
  const codes = new Set(analysed.flatMap((f) => f.codes));
  const rules: Rule[] = [...RULES, ...[...codes].filter((c) => !RULES.some((r) => r.id === c)).map(ruleFor)];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'attention-lens',
            version,
            rules: rules.map((r) => ({ id: r.id, shortDescription: { text: r.summary }, help: { text: r.help } })),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            exitCode,
            toolExecutionNotifications: [
              ...problems.map((p) => ({ level: 'error', message: { text: p } })),
              ...files.flatMap((f) => ('notAnalysed' in f ? [f.notAnalysed] : [])),
            ],
          },
        ],
        originalUriBaseIds: { SRCROOT: { uri: `${pathToFileURL(process.cwd()).href}/` } },
        columnKind: 'utf16CodeUnits',
        results: analysed.flatMap((f) =>
          f.results.map(({ code, rest }) => ({
            ruleId: code,
            ruleIndex: rules.findIndex((rule) => rule.id === code),
            ...rest,
          })),
        ),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** A result from its level on: the run puts its rule before it. */
function result(r: AnalysedFile, f: Finding): object {
  return {
    level: LEVELS[f.severity],
    message: { text: f.message },
    locations: [location(r, f.span)],
    ...(f.related?.length
      ? {
          relatedLocations: f.related.map((rel, id) => ({
            id,
            ...location(r, rel.span),
            message: { text: rel.message },
          })),
        }
      : {}),
  };
}

/** In a notebook a line means nothing in the .ipynb's JSON, so the cell and line go into the location's message instead. */
function location(r: AnalysedFile, span: Span): object {
  const start = r.locate(span.startLine, span.startChar);
  const end = r.locate(span.endLine, span.endChar);
  if (start.cell !== undefined) {
    return {
      physicalLocation: { artifactLocation: artifact(r.path) },
      message: { text: `cell ${start.cell}, line ${start.line}, column ${start.column}` },
      properties: { ...start },
    };
  }
  return {
    physicalLocation: {
      artifactLocation: artifact(r.path),
      region: { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column },
    },
  };
}

/** Relative to the working directory where the file is under it, else an absolute file URI. */
function artifact(file: string): object {
  const absolute = path.resolve(file);
  const relative = path.relative(process.cwd(), absolute);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
    return { uri: pathToFileURL(absolute).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
}
