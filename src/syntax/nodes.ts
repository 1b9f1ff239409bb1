/** Small helpers over tree-sitter nodes shared by the language adapters. */
import type { Node } from '@vscode/tree-sitter-wasm';
import type { Span } from '../core/ir/expr';
import type { ExprRef } from '../core/ir/source';

export type { Node };

export function spanOf(node: Node): Span {
  const s = node.startPosition;
  const e = node.endPosition;
  return {
    start: node.startIndex,
    end: node.endIndex,
    startLine: s.row,
    startChar: s.column,
    endLine: e.row,
    endChar: e.column,
  };
}

export function refOf(node: Node): ExprRef {
  return { start: node.startIndex, end: node.endIndex };
}

export function textOf(node: Node, source: string): string {
  return source.slice(node.startIndex, node.endIndex);
}

/** Named children without the comments tree-sitter attaches anywhere. */
export function namedChildren(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/**
 * Calls `visit` with every descendant of `node` of one of `types`, in document order, skipping the
 * subtrees of `skip` types. Reads types from the cursor and builds a Node object only for matches:
 * building one for every step costs as much as the parse itself.
 */
export function findDescendants(
  node: Node,
  types: ReadonlySet<string>,
  skip: ReadonlySet<string>,
  visit: (n: Node) => void,
): void {
  const cursor = node.walk();
  try {
    let depth = 0;
    for (;;) {
      const type = depth > 0 ? cursor.nodeType : '';
      if (types.has(type)) visit(cursor.currentNode);
      if (!skip.has(type) && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (depth > 0 && !cursor.gotoNextSibling()) {
        cursor.gotoParent();
        depth--;
      }
      if (depth === 0) return;
    }
  } finally {
    cursor.delete();
  }
}

/** Whether offset `at` lies inside a string (its text, or a value in an f-string's braces). */
export function insideString(root: Node, at: number): boolean {
  for (let node = root.descendantForIndex(at); node; node = node.parent) if (node.type === 'string') return true;
  return false;
}

/** Whether `text` names any candidate: a cheap test that spares walking statements that cannot hold a layer. */
export function mentionsAny(text: string, candidates: readonly string[]): boolean {
  for (const c of candidates) if (text.includes(c)) return true;
  return false;
}
