/** Tree -> SourceModel for either language, with expressions converted on demand and memoised. */
import type { Expr } from '../core/ir/expr';
import {
  fragmentIndexAt,
  runsCode,
  type ExprRef,
  type Fragment,
  type Language,
  type SourceModel,
} from '../core/ir/source';
import { ignoredLines } from './ignores';
import { LineIndex } from './lineIndex';
import { nodeAt, type Syn } from './syn';
import type { Tree } from './parser';
import type { Node } from './nodes';
import { pythonDeclaredNames, pythonFragment } from './python';
import { TopLevel } from './topLevel';
import { candidateNames } from './candidates';
import { extractedOf } from './shift';
import { pythonExpr, pythonExprOf } from './pythonExpr';
import { typescriptFragment } from './typescript';
import { typescriptDeclaredNames } from './typescriptImports';
import { typescriptExpr } from './typescriptExpr';

interface Adapter {
  declaredNames(statement: Node, source: string): string[];
  /** The lowered statement, and for Python the copy of its subtree that its expressions come from. */
  fragment(
    node: Node,
    source: string,
    candidates: ReadonlySet<string>,
    lines: LineIndex,
  ): { fragment: Omit<Fragment, 'id' | 'code' | 'defs'>; syn?: Syn };
  expr(node: Node, source: string, lines: LineIndex): Expr;
  exprOf?(node: Syn, source: string, lines: LineIndex, delta: number): Expr;
}

const ADAPTERS: Record<Language, Adapter> = {
  python: { declaredNames: pythonDeclaredNames, fragment: pythonFragment, expr: pythonExpr, exprOf: pythonExprOf },
  typescript: {
    declaredNames: typescriptDeclaredNames,
    fragment: (node, source, candidates) => ({ fragment: typescriptFragment(node, source, [...candidates]) }),
    expr: typescriptExpr,
  },
};

/** The names one top-level statement declares (a class, imported names): callees worth looking for. */
export function declaredNames(language: Language, statement: Node, source: string): readonly string[] {
  return ADAPTERS[language].declaredNames(statement, source);
}

let nextFragmentId = 1;

/** What the syntax layer keeps of a statement it extracted; a shifted fragment reads its extracted one's. */
interface Kept {
  /** The copy of its subtree, offsets as they were when it was extracted. */
  readonly syn?: Syn;
  /** The names it declares, so that a statement an edit leaves alone is not read again. */
  readonly declared: readonly string[];
}
const KEPT = new WeakMap<Fragment, Kept>();

export function extractFragment(
  language: Language,
  node: Node,
  source: string,
  candidates: ReadonlySet<string>,
  lines: LineIndex,
  declared: readonly string[],
): Fragment {
  const { fragment, syn } = ADAPTERS[language].fragment(node, source, candidates, lines);
  const defs = fragment.scopes.flatMap((s, i) => (s.parent === -1 ? [i] : []));
  const f = { ...fragment, id: nextFragmentId++, code: fragment.imports.length > 0 || runsCode(fragment.body), defs };
  KEPT.set(f, { syn, declared });
  return f;
}

export function declaredBy(f: Fragment): readonly string[] {
  return KEPT.get(extractedOf(f))?.declared ?? [];
}

/**
 * Each range's expression, by the range object of the statement that holds it: the interpreter asks for the
 * same ones again and again, and a statement an edit leaves in place keeps its ranges, and so its expressions,
 * for the next version (a statement that moves gets new ranges).
 */
const CONVERTED = new WeakMap<ExprRef, Expr>();

/** A SourceModel over `tree`; valid while `tree` is alive. */
export function sourceModel(
  language: Language,
  tree: Tree,
  source: string,
  fragments: readonly Fragment[],
  lines = new LineIndex(source),
): SourceModel {
  const adapter = ADAPTERS[language];
  let root: Node | undefined;
  const convert = (ref: ExprRef): Expr => {
    const f = fragments[fragmentIndexAt(fragments, ref.start)];
    const syn = f && KEPT.get(extractedOf(f))?.syn;
    if (syn && adapter.exprOf) {
      const delta = f.span.start - syn.start;
      const node = nodeAt(syn, ref.start - delta, ref.end - delta);
      if (node) return adapter.exprOf(node, source, lines, delta);
    }
    // The root node is marshalled out of WASM on every read of `tree.rootNode`: read it once.
    root ??= tree.rootNode;
    const node = root.descendantForIndex(ref.start, ref.end);
    return node
      ? adapter.expr(node, source, lines)
      : { k: 'unknown', text: source.slice(ref.start, ref.end), span: lines.span(ref.start, ref.start) };
  };
  return {
    language,
    fragments,
    ignores: ignoredLines(tree, source),
    text: (ref) => source.slice(ref.start, ref.end),
    expr(ref: ExprRef): Expr {
      let e = CONVERTED.get(ref);
      if (!e) CONVERTED.set(ref, (e = convert(ref)));
      return e;
    },
  };
}

/** Parses nothing: builds the whole model of an already parsed tree. */
export function buildModel(language: Language, tree: Tree, source: string): SourceModel {
  const top = new TopLevel(tree);
  const declared = top.starts.map((_, i) => declaredNames(language, top.node(i), source));
  const candidates = candidateNames(declared);
  const lines = new LineIndex(source);
  const fragments = declared.map((names, i) =>
    extractFragment(language, top.node(i), source, candidates, lines, names),
  );
  return sourceModel(language, tree, source, fragments, lines);
}
