/** Tree -> SourceModel for either language, with expressions converted on demand and memoised. */
import type { Expr } from '../core/expr';
import type { ExprRef, Fragment, Language, SourceModel } from '../core/source';
import { CATALOG_NAMES } from '../core/catalog';
import type { Tree } from './parser';
import { namedChildren, type Node } from './nodes';
import { pythonDeclaredNames, pythonExpr, pythonFragment } from './python';
import { typescriptDeclaredNames, typescriptExpr, typescriptFragment } from './typescript';

interface Adapter {
  declaredNames(root: Node, source: string): string[];
  fragment(node: Node, source: string, candidates: readonly string[]): Omit<Fragment, 'id'>;
  expr(node: Node, source: string): Expr;
}

const ADAPTERS: Record<Language, Adapter> = {
  python: { declaredNames: pythonDeclaredNames, fragment: pythonFragment, expr: pythonExpr },
  typescript: { declaredNames: typescriptDeclaredNames, fragment: typescriptFragment, expr: typescriptExpr },
};

/** The callee names worth looking for: the catalog's, plus what the file imports or declares. */
export function candidateNames(language: Language, tree: Tree, source: string): string[] {
  return [...new Set([...CATALOG_NAMES, ...ADAPTERS[language].declaredNames(tree.rootNode, source)])];
}

let nextFragmentId = 1;

export function extractFragment(language: Language, node: Node, source: string, candidates: readonly string[]): Fragment {
  return { ...ADAPTERS[language].fragment(node, source, candidates), id: nextFragmentId++ };
}

export function topLevelNodes(tree: Tree): Node[] {
  return namedChildren(tree.rootNode);
}

/** A SourceModel over `tree`; valid while `tree` is alive. */
export function sourceModel(language: Language, tree: Tree, source: string, fragments: readonly Fragment[]): SourceModel {
  // By start, then end: the interpreter asks for the same expressions again and again.
  const memo = new Map<number, Map<number, Expr>>();
  const adapter = ADAPTERS[language];
  let root: Node | undefined;
  return {
    language,
    fragments,
    expr(ref: ExprRef): Expr {
      let byEnd = memo.get(ref.start);
      if (!byEnd) memo.set(ref.start, (byEnd = new Map()));
      let e = byEnd.get(ref.end);
      if (!e) {
        // The root node is marshalled out of WASM on every read of `tree.rootNode`: read it once.
        root ??= tree.rootNode;
        const node = root.descendantForIndex(ref.start, ref.end);
        e = node ? adapter.expr(node, source) : { k: 'unknown', text: source.slice(ref.start, ref.end), span: emptySpan(ref.start) };
        byEnd.set(ref.end, e);
      }
      return e;
    },
  };
}

/** Parses nothing: builds the whole model of an already parsed tree. */
export function buildModel(language: Language, tree: Tree, source: string): SourceModel {
  const candidates = candidateNames(language, tree, source);
  const fragments = topLevelNodes(tree).map((n) => extractFragment(language, n, source, candidates));
  return sourceModel(language, tree, source, fragments);
}

function emptySpan(at: number) {
  return { start: at, end: at, startLine: 0, startChar: 0, endLine: 0, endChar: 0 };
}
