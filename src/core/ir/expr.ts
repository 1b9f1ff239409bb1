/**
 * The small expression tree the syntax layer hands to the core. It covers what layer arguments are made
 * of in Python and TypeScript; everything else arrives as `unknown` and evaluates to "not known".
 */

/** A place in the source: UTF-16 offsets and 0-based line/character, as VS Code counts them. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly startChar: number;
  readonly endLine: number;
  readonly endChar: number;
}

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%' | '**' | '@';
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'is' | 'is not' | 'in' | 'not in';

export interface Arg {
  /** Keyword name (Python `k=v`), absent for positional arguments. */
  readonly name?: string;
  /** `*xs` or `**kw` in Python; `...xs` in TypeScript. */
  readonly spread?: 'list' | 'dict';
  readonly value: Expr;
  readonly span: Span;
}

export interface DictEntry {
  readonly key?: Expr;
  /** `**other` inside a dict display, `...other` inside an object literal. */
  readonly spread?: Expr;
  readonly value: Expr;
}

export type Expr =
  | { readonly k: 'int'; readonly value: bigint; readonly span: Span }
  | { readonly k: 'float'; readonly value: number; readonly span: Span }
  | { readonly k: 'str'; readonly value: string; readonly span: Span }
  | { readonly k: 'bool'; readonly value: boolean; readonly span: Span }
  | { readonly k: 'none'; readonly span: Span }
  | { readonly k: 'name'; readonly id: string; readonly span: Span }
  | { readonly k: 'attr'; readonly object: Expr; readonly id: string; readonly span: Span }
  | { readonly k: 'index'; readonly object: Expr; readonly index: Expr; readonly span: Span }
  /** `opSpan`: where the operator is written (Python), for a fix that rewrites `/` as `//`. */
  | {
      readonly k: 'binary';
      readonly op: BinaryOp;
      readonly left: Expr;
      readonly right: Expr;
      readonly span: Span;
      readonly opSpan?: Span;
    }
  | { readonly k: 'unary'; readonly op: '-' | '+' | 'not'; readonly operand: Expr; readonly span: Span }
  | { readonly k: 'compare'; readonly op: CompareOp; readonly left: Expr; readonly right: Expr; readonly span: Span }
  | {
      readonly k: 'logic';
      readonly op: 'or' | 'and' | 'nullish';
      readonly left: Expr;
      readonly right: Expr;
      readonly span: Span;
    }
  | { readonly k: 'cond'; readonly test: Expr; readonly then: Expr; readonly otherwise: Expr; readonly span: Span }
  | {
      readonly k: 'call';
      readonly callee: Expr;
      readonly args: readonly Arg[];
      /** TypeScript `new X(...)`. */
      readonly isNew: boolean;
      readonly span: Span;
    }
  /** A list or (with `tuple`) a tuple display; with `set`, a set display (`{BatchNormAct2d, GroupNormAct}`). */
  | {
      readonly k: 'list';
      readonly items: readonly Expr[];
      readonly tuple?: boolean;
      readonly set?: boolean;
      readonly span: Span;
    }
  /**
   * `[element for target in iterable if filter]` with one `for` (what model code repeats layers with);
   * `variable` is the target when it is a plain name.
   */
  | {
      readonly k: 'comprehension';
      readonly element: Expr;
      readonly variable?: string;
      readonly target: Expr;
      readonly iterable: Expr;
      readonly filters: readonly Expr[];
      /** `{m for n, m in table.items()}`: a set comprehension. */
      readonly set?: boolean;
      readonly span: Span;
    }
  /** `*xs` inside a list or tuple display, or a starred target (`first, *rest, last = dims`). */
  | { readonly k: 'star'; readonly value: Expr; readonly span: Span }
  /** `f"proj_{name}"`: literal pieces and expressions. */
  | { readonly k: 'fstring'; readonly parts: readonly (string | Expr)[]; readonly span: Span }
  /** `a[lower:upper:step]`'s index. */
  | { readonly k: 'slice'; readonly lower?: Expr; readonly upper?: Expr; readonly step?: Expr; readonly span: Span }
  /** `lambda x, y=1: body` / `(x) => body`. */
  | {
      readonly k: 'lambda';
      readonly params: readonly { readonly name: string; readonly default?: Expr }[];
      readonly body: Expr;
      readonly span: Span;
    }
  /**
   * A function written inline with a body of statements (TypeScript's `(x) => { ... }`): the function scope
   * of its fragment whose extent starts where it does.
   */
  | { readonly k: 'function'; readonly span: Span }
  | { readonly k: 'dict'; readonly entries: readonly DictEntry[]; readonly span: Span }
  | { readonly k: 'unknown'; readonly text: string; readonly span: Span };

/** The expressions `e` holds directly, in order (a lambda's defaults and body, a comprehension's parts). */
export function children(e: Expr): readonly Expr[] {
  switch (e.k) {
    case 'attr':
      return [e.object];
    case 'index':
      return [e.object, e.index];
    case 'binary':
    case 'compare':
    case 'logic':
      return [e.left, e.right];
    case 'unary':
      return [e.operand];
    case 'cond':
      return [e.test, e.then, e.otherwise];
    case 'call':
      return [e.callee, ...e.args.map((a) => a.value)];
    case 'list':
      return e.items;
    case 'dict':
      return e.entries.flatMap((d) => [d.key, d.spread, d.value].filter((x): x is Expr => x !== undefined));
    case 'comprehension':
      return [e.element, e.target, e.iterable, ...e.filters];
    case 'star':
      return [e.value];
    case 'fstring':
      return e.parts.filter((p): p is Expr => typeof p !== 'string');
    case 'slice':
      return [e.lower, e.upper, e.step].filter((x): x is Expr => x !== undefined);
    case 'lambda':
      return [...e.params.flatMap((p) => (p.default ? [p.default] : [])), e.body];
    default:
      return [];
  }
}

/** Whether `name` is read anywhere in `e` (a comprehension element that uses its loop variable). */
export function mentionsName(e: Expr, name: string): boolean {
  switch (e.k) {
    case 'name':
      return e.id === name;
    case 'attr':
      return mentionsName(e.object, name);
    case 'index':
      return mentionsName(e.object, name) || mentionsName(e.index, name);
    case 'binary':
    case 'compare':
    case 'logic':
      return mentionsName(e.left, name) || mentionsName(e.right, name);
    case 'unary':
      return mentionsName(e.operand, name);
    case 'cond':
      return mentionsName(e.test, name) || mentionsName(e.then, name) || mentionsName(e.otherwise, name);
    case 'call':
      return mentionsName(e.callee, name) || e.args.some((a) => mentionsName(a.value, name));
    case 'list':
      return e.items.some((i) => mentionsName(i, name));
    case 'dict':
      return e.entries.some(
        (d) =>
          (d.key && mentionsName(d.key, name)) ||
          (d.spread && mentionsName(d.spread, name)) ||
          mentionsName(d.value, name),
      );
    case 'comprehension':
      return (
        mentionsName(e.iterable, name) ||
        (!mentionsName(e.target, name) &&
          (mentionsName(e.element, name) || e.filters.some((f) => mentionsName(f, name))))
      );
    case 'star':
      return mentionsName(e.value, name);
    case 'fstring':
      return e.parts.some((p) => typeof p !== 'string' && mentionsName(p, name));
    case 'slice':
      return [e.lower, e.upper, e.step].some((p) => p !== undefined && mentionsName(p, name));
    case 'lambda':
      return !e.params.some((p) => p.name === name) && mentionsName(e.body, name);
    case 'unknown':
    case 'function':
      return true;
    default:
      return false;
  }
}
