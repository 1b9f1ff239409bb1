/** A generated file, and what must hold of what the product prints for it beyond the checks every input gets. */
import type { Language } from '../../src/core/ir/source';

export interface FuzzInput {
  readonly name: string;
  readonly language: Language;
  readonly text: string;
  /** Where the file is: its imports are looked up among `files`, by absolute path. */
  readonly path?: string;
  readonly files?: ReadonlyMap<string, string>;
  readonly expect?: Expected;
}

export interface Expected {
  /** The file must be analysed, not refused: what it holds is plain code, however long. */
  readonly analysed?: boolean;
  readonly counts?: readonly ExpectedCount[];
  readonly heads?: readonly ExpectedHeads[];
}

/** Every count printed for the line (layer, model class, model built) is `params`. */
export interface ExpectedCount {
  /** 1-based. */
  readonly line: number;
  /** undefined: no count may be printed (Python raises there). */
  readonly params: bigint | undefined;
  /** A count must be printed; else none is fine (a bound was passed, the value is unknown). */
  readonly required: boolean;
}

/** Attention written by hand, at its `class` line: the heads and head size, where printed, are exact. */
export interface ExpectedHeads {
  readonly line: number;
  readonly heads: bigint;
  readonly headDim: bigint;
}

/** Lines added one statement at a time, each telling its 1-based number for the expectations. */
export class Lines {
  private readonly lines: string[] = [];

  /** Returns the number of the first line added. */
  add(...lines: string[]): number {
    const first = this.lines.length + 1;
    for (const l of lines) this.lines.push(...l.split('\n'));
    return first;
  }

  get count(): number {
    return this.lines.length;
  }

  get text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
