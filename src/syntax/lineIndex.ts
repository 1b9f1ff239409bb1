import type { Span } from '../core/expr';

/**
 * Line and column of offsets, as tree-sitter counts them (rows at '\n', columns in UTF-16 code units), from a
 * table of line starts instead of a WASM call per position.
 */
export class LineIndex {
  private starts?: number[];
  private last = 0;

  constructor(private readonly source: string) {}

  span(start: number, end: number): Span {
    const [startLine, startChar] = this.position(start);
    const [endLine, endChar] = this.position(end);
    return { start, end, startLine, startChar, endLine, endChar };
  }

  /** Where `offset` is, as tree-sitter's edits take it. */
  point(offset: number): { row: number; column: number } {
    const [row, column] = this.position(offset);
    return { row, column };
  }

  private position(offset: number): [number, number] {
    const starts = (this.starts ??= lineStarts(this.source));
    // Conversion reads nearby offsets one after another: try the last line found first.
    let lo = this.last;
    if (starts[lo] > offset || (lo + 1 < starts.length && starts[lo + 1] <= offset)) {
      lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      this.last = lo;
    }
    return [lo, offset - starts[lo]];
  }
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
