/** One file's outcome, shared by the text, JSON and SARIF formats. */
import * as path from 'path';
import type { Analysis } from '../core/analysis/analyze';
import type { Span } from '../core/ir/expr';
import type { LayerInstance } from '../core/values/layer';
import type { Language } from '../core/ir/source';
import type { Poly } from '../core/values/symbolic';
import type { Locate } from './place';

interface FileBase {
  /** As given on the command line (or found under it), with `/` separators. */
  readonly path: string;
  readonly language: Language;
}

export interface AnalysedFile extends FileBase {
  readonly analysis: Analysis;
  readonly locate: Locate;
}

export interface FailedFile extends FileBase {
  /** Why the file could not be analysed; the other files still are. */
  readonly error: string;
}

export type FileReport = AnalysedFile | FailedFile;

export function isFailed(r: FileReport): r is FailedFile {
  return 'error' in r;
}

/** What the summary line and the exit status add up of one file. */
export interface FileCounts {
  readonly failed: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly models: number;
  readonly layers: number;
}

export function countsOf(r: FileReport): FileCounts {
  if (isFailed(r)) return { failed: true, errors: 0, warnings: 0, models: 0, layers: 0 };
  const { findings, modules, layers } = r.analysis;
  const count = (severity: string) => findings.filter((f) => f.severity === severity).length;
  return {
    failed: false,
    errors: count('error'),
    warnings: count('warning'),
    models: modules.length,
    layers: layers.length,
  };
}

export function displayPath(file: string): string {
  return file.split(path.sep).join('/');
}

export interface Count {
  /** A JSON number only where it is exact (up to 2^53 - 1); larger counts are in `paramsExact`. */
  readonly params: number | null;
  readonly paramsExact: string | null;
}

export function exactCount(p: Poly | undefined): Count {
  const c = p?.constant;
  if (c === undefined) return { params: null, paramsExact: null };
  const n = Number(c);
  return { params: Number.isSafeInteger(n) ? n : null, paramsExact: c.toString() };
}

/** A layer the framework would refuse to build has no count, whatever its tensors add up to. */
export function layerCount(layer: LayerInstance): Poly | undefined {
  return layer.rejected ? undefined : layer.params;
}

/** Sorted by line, then column; notebook cells keep their order in the analysed text, so this holds there too. */
export function inSourceOrder<T extends { readonly span: Span }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.span.startLine - b.span.startLine || a.span.startChar - b.span.startChar);
}
