import type { Span } from '../core/ir/expr';

/**
 * Line and column of offsets, as tree-sitter counts them (rows at '\n', columns in UTF-16 code units), from a
 * table of line starts instead of a WASM call per position.
 */
export class LineIndex {
  private starts?: Int32Array;
  private last = 0;

  /**
   * `previous` and the change from its text to `source`, when there is one: the line starts are then moved
   * from the previous ones instead of searched for again.
   */
  constructor(
    private readonly source: string,
    private previous?: { readonly lines: LineIndex; readonly change: LineChange },
  ) {
    // Only starts already worked out are moved: a chain of versions is never kept.
    if (!previous?.lines.starts) this.previous = undefined;
  }

  span(start: number, end: number): Span {
    const starts = this.lineStarts();
    const startLine = this.line(starts, start);
    const endLine = this.line(starts, end);
    return { start, end, startLine, startChar: start - starts[startLine], endLine, endChar: end - starts[endLine] };
  }

  /** Where `offset` is, as tree-sitter's edits take it. */
  point(offset: number): { row: number; column: number } {
    const starts = this.lineStarts();
    const row = this.line(starts, offset);
    return { row, column: offset - starts[row] };
  }

  private lineStarts(): Int32Array {
    if (this.starts) return this.starts;
    this.starts = this.previous
      ? movedStarts(this.previous.lines.starts!, this.previous.change)
      : lineStarts(this.source);
    this.previous = undefined;
    return this.starts;
  }

  /** The line of `offset`, from the line starts (no tuple made: a span is made for every expression read). */
  private line(starts: Int32Array, offset: number): number {
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
    return lo;
  }
}

/** A change as the editor reports it: `rangeLength` characters at `rangeOffset` replaced by `text`. */
export interface LineChange {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

function lineStarts(source: string): Int32Array {
  let count = 1;
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) count++;
  const starts = new Int32Array(count);
  let n = 1;
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}

/**
 * The line starts after a change: those up to its start kept, those of lines whose newline it removed
 * dropped, those its text adds, then the rest moved by the difference in length.
 */
function movedStarts(before: Int32Array, c: LineChange): Int32Array {
  const end = c.rangeOffset + c.rangeLength;
  const delta = c.text.length - c.rangeLength;
  const added: number[] = [];
  for (let j = c.text.indexOf('\n'); j !== -1; j = c.text.indexOf('\n', j + 1)) added.push(c.rangeOffset + j + 1);
  const keep = upperBound(before, c.rangeOffset);
  const rest = upperBound(before, end);
  const starts = new Int32Array(keep + added.length + before.length - rest);
  starts.set(before.subarray(0, keep));
  starts.set(added, keep);
  for (let i = rest, n = keep + added.length; i < before.length; i++, n++) starts[n] = before[i] + delta;
  return starts;
}

/** How many of the sorted `xs` are at most `x`. */
function upperBound(xs: Int32Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
