/** TypeScript's `switch` lowered to the statement IR, and conditions without their parentheses (typescript.ts lowers the rest). */
import type { Stmt } from '../core/ir/source';
import { namedChildren, refOf, type Node } from './nodes';

/** `(x)` as TypeScript writes conditions: the expression inside. */
export function unparenthesized(node: Node): Node {
  return node.type === 'parenthesized_expression' ? (namedChildren(node)[0] ?? node) : node;
}

/**
 * `switch (v) { case a: ...; break; default: ... }` as an if chain on `v === a`. A case that falls through
 * into the next, or breaks from inside a branch, leaves the whole switch out (its calls are still found).
 */
export function switchStatement(node: Node, lower: (n: Node) => Stmt[], findCalls: (n: Node | null) => void): Stmt[] {
  const value = node.childForFieldName('value');
  const body = node.childForFieldName('body');
  if (!value || !body) return [];
  findCalls(value);
  const cases: { test?: Node; body: Stmt[] }[] = [];
  const clauses = namedChildren(body).filter((c) => c.type === 'switch_case' || c.type === 'switch_default');
  let lowered = true;
  for (const [i, clause] of clauses.entries()) {
    const test = clause.type === 'switch_case' ? clause.childForFieldName('value') : undefined;
    findCalls(test ?? null);
    const stmts = namedChildren(clause)
      .filter((c) => c !== test)
      .flatMap(lower);
    const last = stmts[stmts.length - 1];
    const ends = last && (last.k === 'break' || last.k === 'return' || last.k === 'raise');
    if ((!ends && i < clauses.length - 1) || breaksInside(last?.k === 'break' ? stmts.slice(0, -1) : stmts))
      lowered = false;
    cases.push({ test: test ?? undefined, body: last?.k === 'break' ? stmts.slice(0, -1) : stmts });
  }
  if (!lowered) return [];
  const fallback = cases.find((c) => !c.test)?.body ?? [];
  const chain = cases
    .filter((c) => c.test)
    .reduceRight<Stmt[]>(
      (otherwise, c) => [
        {
          k: 'if',
          test: refOf(c.test!),
          equals: refOf(unparenthesized(value)),
          then: c.body,
          otherwise,
          at: c.test!.startIndex,
        },
      ],
      fallback,
    );
  return chain;
}

/** A `break` that would leave the switch from inside a branch (loops inside keep their own). */
function breaksInside(stmts: readonly Stmt[]): boolean {
  return stmts.some(
    (s) =>
      s.k === 'break' ||
      (s.k === 'if' && (breaksInside(s.then) || breaksInside(s.otherwise))) ||
      (s.k === 'try' && (breaksInside(s.body) || s.handlers.some(breaksInside) || breaksInside(s.final))),
  );
}
