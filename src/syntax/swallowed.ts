/**
 * Top-level statements an unclosed bracket swallowed. tree-sitter-python recovers from `y = nn.Linear(3,`
 * by taking the rest of the file into one error (or into the call, as arguments), so a file being typed
 * lost every layer below the line being typed. A top-level statement holding an error that runs over a
 * later line at column 0 (a statement of its own, as Python reads indentation) is blanked up to that
 * line and the text parsed again: what follows is analysed as if the broken statement were not there,
 * and the broken statement, the one the error touches, gives no figure at all. A line at column 0 may
 * also be inside brackets (Python allows it): blanking before it then breaks what comes before, which
 * `brokenBefore` tells, and the blanking is not kept.
 */
import { insideString, type Node } from './nodes';
import type { Tree } from './parser';

/** A range of the text to blank: a broken top-level statement, up to the next statement's line. */
export interface Swallowed {
  readonly start: number;
  readonly end: number;
}

/** Lines at column 0 that go on the statement above them, not start one. */
const CONTINUATIONS = /^(?:else|elif|except|finally)\b|^[)\]}]/;

/** The first top-level statement from offset `from` on that swallowed a later one, if any. */
export function firstSwallowed(tree: Tree, text: string, from: number): Swallowed | undefined {
  const root = tree.rootNode;
  if (!root.hasError) return undefined;
  for (const statement of root.children) {
    if (!statement?.hasError || statement.startIndex < from) continue;
    const next = nextStatementLine(root, statement, text);
    if (next !== undefined) return { start: statement.startIndex, end: next };
  }
  return undefined;
}

/**
 * The top-level statements that still hold an error once nothing is swallowed. Python runs no statement of a
 * file that does not parse, so the figures of one holding an error would be no framework's: a class with
 * `self.a = nn.Linear 3, 4` in its constructor would be counted without `self.a`. Each is left out whole.
 */
export function broken(tree: Tree): Swallowed[] {
  const root = tree.rootNode;
  if (!root.hasError) return [];
  return root.children.flatMap((s) => (s?.hasError ? [{ start: s.startIndex, end: s.endIndex }] : []));
}

/** Where the top-level statements holding an error start, before offset `end`. */
export function brokenBefore(tree: Tree, end: number): number[] {
  const root = tree.rootNode;
  if (!root.hasError) return [];
  const out: number[] = [];
  for (const statement of root.children) {
    if (!statement || statement.startIndex >= end) break;
    if (statement.hasError) out.push(statement.startIndex);
  }
  return out;
}

/** Whether the line ending with the line break at `newline` ends with a backslash. */
function continued(text: string, newline: number): boolean {
  const last = text.charCodeAt(newline - 1) === 0x0d ? newline - 2 : newline - 1;
  return text.charCodeAt(last) === 0x5c;
}

/** The start of the first line inside `statement`, after its first, that starts a top-level statement. */
function nextStatementLine(root: Node, statement: Node, text: string): number | undefined {
  for (
    let at = text.indexOf('\n', statement.startIndex) + 1;
    at > 0 && at < statement.endIndex;
    at = text.indexOf('\n', at) + 1
  ) {
    const first = text.charCodeAt(at);
    if (first === 0x20 || first === 0x09 || first === 0x0a || first === 0x0d || first === 0x0c || first === 0x23)
      continue;
    if (continued(text, at - 1)) continue;
    if (CONTINUATIONS.test(text.slice(at, at + 16)) || insideString(root, at)) continue;
    return at;
  }
  return undefined;
}
