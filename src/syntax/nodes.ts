/** Small helpers over tree-sitter nodes shared by the language adapters. */
import type { Node } from '@vscode/tree-sitter-wasm';
import type { Span } from '../core/expr';
import type { ExprRef } from '../core/source';

export type { Node };

export function spanOf(node: Node): Span {
  const s = node.startPosition;
  const e = node.endPosition;
  return { start: node.startIndex, end: node.endIndex, startLine: s.row, startChar: s.column, endLine: e.row, endChar: e.column };
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

/** Calls `visit` on every descendant of `node` in document order; `visit` returning false skips a subtree. */
export function walkDescendants(node: Node, visit: (n: Node) => boolean): void {
  const cursor = node.walk();
  try {
    let descend = true;
    for (;;) {
      if (descend && cursor.gotoFirstChild()) {
        descend = visit(cursor.currentNode);
        continue;
      }
      for (;;) {
        if (cursor.currentNode.id === node.id) return;
        if (cursor.gotoNextSibling()) {
          descend = visit(cursor.currentNode);
          break;
        }
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Whether `text` names any candidate: a cheap test that spares walking statements that cannot hold a layer. */
export function mentionsAny(text: string, candidates: readonly string[]): boolean {
  for (const c of candidates) if (text.includes(c)) return true;
  return false;
}
