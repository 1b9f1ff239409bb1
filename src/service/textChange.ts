/** The single change that turns one text into another, for an incremental re-parse of buffered edits. */
import type { TextChange } from '../syntax/documentAnalyzer';

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
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  if (suffix > 0 && isLowSurrogate(after.charCodeAt(after.length - suffix))) suffix--;
  return { rangeOffset: prefix, rangeLength: before.length - prefix - suffix, text: after.slice(prefix, after.length - suffix) };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
