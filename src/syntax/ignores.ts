/**
 * `# attention-lens: ignore` and `// attention-lens: ignore[view-mismatch, feature-mismatch]`: a comment that
 * silences the findings starting on its own line, all of them or the codes it lists. Read from the comment
 * nodes of the tree: a directive inside a string is no comment.
 */
import type { Tree } from './parser';

const DIRECTIVE = 'attention-lens: ignore';

/** By line: the codes silenced there, or undefined for every code. */
export function ignoredLines(tree: Tree, source: string): Map<number, ReadonlySet<string> | undefined> {
  const out = new Map<number, ReadonlySet<string> | undefined>();
  // Walking every comment of a large file costs more than the rest of an edit: only a file that has the
  // words at all is walked.
  if (!source.includes(DIRECTIVE)) return out;
  for (const node of tree.rootNode.descendantsOfType('comment')) {
    if (!node) continue;
    const text = node.text;
    const at = text.indexOf(DIRECTIVE);
    if (at < 0) continue;
    const rest = text.slice(at + DIRECTIVE.length).trimStart();
    const line = node.startPosition.row;
    if (!rest.startsWith('[')) {
      out.set(line, undefined);
      continue;
    }
    const close = rest.indexOf(']');
    if (close < 0) continue;
    const codes = rest
      .slice(1, close)
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const known = out.has(line) ? out.get(line) : new Set<string>();
    // A line that silences everything keeps doing so.
    out.set(line, known === undefined ? undefined : new Set([...known, ...codes]));
  }
  return out;
}

/** Text to put in a line, by character offsets within it. */
export interface LineEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The edit that silences `code` on a line: the code added to the line's `ignore[...]` list, else a
 * directive at its end. Undefined where the line already silences every code, or where a comment cannot go
 * (a Python line continued with a backslash would no longer continue).
 */
export function ignoreEdit(line: string, code: string, language: 'python' | 'typescript'): LineEdit | undefined {
  const at = line.indexOf(DIRECTIVE);
  if (at >= 0) {
    const after = at + DIRECTIVE.length;
    const open = line.slice(after).match(/^\s*\[/);
    const close = open ? line.indexOf(']', after) : -1;
    if (close < 0) return undefined;
    const listed = line.slice(after + open![0].length, close).trim();
    return { start: close, end: close, text: listed ? `, ${code}` : code };
  }
  const end = line.trimEnd().length;
  if (language === 'python' && line.slice(0, end).endsWith('\\')) return undefined;
  return {
    start: end,
    end: line.length,
    text: `${end > 0 ? '  ' : ''}${language === 'python' ? '#' : '//'} ${DIRECTIVE}[${code}]`,
  };
}
