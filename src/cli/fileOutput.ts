/**
 * What the output keeps of one analysed file: the lines, JSON entry or SARIF results of the format asked for,
 * and its counts; then what the run prints from them. Plain data, so that a worker thread can send it back,
 * and small, so that a folder's analyses need not be held until the last file is done.
 */
import type { Analysis } from '../core/analysis/analyze';
import type { SizingOptions } from '../core/sizing/memory';
import type { Format } from './args';
import { paint } from './colour';
import { jsonOfFile, toJson } from './json';
import { countsOf, isFailed, type FileCounts, type FileReport } from './report';
import { sarifOfFile, toSarif, type SarifFile } from './sarif';
import { namesListed } from '../core/analysis/registries';
import { textOfFile, toText } from './text';

export interface OutputSettings {
  readonly format: Format;
  readonly sizing: SizingOptions;
  /** Decided once by the main thread, whose stdout the text goes to. */
  readonly colour: boolean;
  /** The configurations `--config` names: the classes and layers they build show them. */
  readonly chosen: readonly string[];
}

export type FileBody =
  | { readonly format: 'text'; readonly lines: readonly string[] }
  | { readonly format: 'json'; readonly entry: string }
  | { readonly format: 'sarif'; readonly file: SarifFile };

export interface FileOutput {
  readonly counts: FileCounts;
  readonly body: FileBody;
  /** The names of `settings.chosen` that name a configuration of one of the file's classes. */
  readonly chosenFound: readonly string[];
}

export function outputOf(r: FileReport, settings: OutputSettings): FileOutput {
  return {
    counts: countsOf(r),
    body: bodyOf(r, settings),
    chosenFound: isFailed(r) ? [] : settings.chosen.filter((name) => hasConfiguration(r.analysis, name)),
  };
}

/** Whether one of the analysis's classes has a configuration `name` names (a `--config` argument). */
export function hasConfiguration(analysis: Analysis, name: string): boolean {
  return analysis.modules.some((m) => m.configurations?.some((c) => namesListed(name, c)));
}

/** The names `--config` gave that no file analysed has a configuration of. */
export function chosenMissing(outputs: readonly FileOutput[], settings: OutputSettings): string[] {
  return settings.chosen.filter((name) => !outputs.some((o) => o.chosenFound.includes(name)));
}

function bodyOf(r: FileReport, { format, sizing, colour }: OutputSettings): FileBody {
  switch (format) {
    case 'text':
      return { format, lines: textOfFile(r, paint(colour), sizing) };
    case 'json':
      return { format, entry: jsonOfFile(r, sizing) };
    case 'sarif':
      return { format, file: sarifOfFile(r) };
  }
}

/** What the run prints: the files' outputs in order, in the format asked for. */
export function runOutput(
  outputs: readonly FileOutput[],
  settings: OutputSettings,
  problems: readonly string[],
  exitCode: number,
  version: string,
): string {
  const bodies = outputs.map((o) => o.body);
  switch (settings.format) {
    case 'text':
      return toText(
        bodies.flatMap((b) => (b.format === 'text' ? [b.lines] : [])),
        outputs.map((o) => o.counts),
        problems.length,
        paint(settings.colour),
      );
    case 'json':
      return toJson(bodies.flatMap((b) => (b.format === 'json' ? [b.entry] : [])));
    case 'sarif':
      return toSarif({
        files: bodies.flatMap((b) => (b.format === 'sarif' ? [b.file] : [])),
        problems,
        version,
        exitCode,
      });
  }
}

/**
 * 2 when a path or a file could not be read or analysed, or a `--config` name named nothing (`problems`), else
 * 1 when an error diagnostic was found, else 0.
 */
export function exitCodeOf(outputs: readonly FileOutput[], problems: boolean): number {
  if (problems || outputs.some((o) => o.counts.failed)) return 2;
  return outputs.some((o) => o.counts.errors > 0) ? 1 : 0;
}
