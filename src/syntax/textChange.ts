/** The single change that turns one text into another, for an incremental re-parse of buffered edits. */
import { LineIndex } from './lineIndex';
import type { Edit } from './parser';

/** A change as VS Code reports it: the replaced range in the old text and the new text. */
export interface TextChange {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

/**
 * The smallest replacement of one range of `before` that yields `after` (their common prefix and suffix
 * stay). Several edits typed between two analyses become one tree edit, whatever order the editor sent
 * them in; undefined when the texts are equal.
 */
export function changeBetween(before: string, after: string): TextChange | undefined {
  if (before === after) return undefined;
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  // Never split a surrogate pair: tree-sitter positions count whole characters of the UTF-16 text.
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  if (suffix > 0 && isLowSurrogate(after.charCodeAt(after.length - suffix))) suffix--;
  return {
    rangeOffset: prefix,
    rangeLength: before.length - prefix - suffix,
    text: after.slice(prefix, after.length - suffix),
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The tree edit of change `c` to `oldText` (whose lines `lines` indexes). */
export function toEdit(oldText: string, c: TextChange, lines = new LineIndex(oldText)): Edit {
  const startPosition = lines.point(c.rangeOffset);
  const newLines = c.text.split('\n');
  const newEndPosition =
    newLines.length === 1
      ? { row: startPosition.row, column: startPosition.column + c.text.length }
      : { row: startPosition.row + newLines.length - 1, column: newLines[newLines.length - 1].length };
  return {
    startIndex: c.rangeOffset,
    oldEndIndex: c.rangeOffset + c.rangeLength,
    newEndIndex: c.rangeOffset + c.text.length,
    startPosition,
    oldEndPosition: lines.point(c.rangeOffset + c.rangeLength),
    newEndPosition,
  };
}
