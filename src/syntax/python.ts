/**
 * Python tree -> SourceModel fragments. Walks statements only (module, class and function bodies and the
 * blocks of compound statements); expressions are converted later, on demand, by `pythonExpr` (pythonExpr.ts).
 */
import {
  runsCode,
  type CallSite,
  type ExprRef,
  type Fragment,
  type ImportBinding,
  type Param,
  type Scope,
  type Stmt,
} from '../core/ir/source';
import { importsOf } from './pythonImports';
import type { LineIndex } from './lineIndex';
import { mirror, type Shape } from './mirror';
import { descendantsOfType, fieldOf, namedOf, synText, type Syn } from './syn';
import type { Node } from './nodes';
import { PYTHON_OPERATORS, pythonParams } from './pythonExpr';

/**
 * Leaves, and annotations (read as text), and nothing else: the fragment's copy keeps every expression for
 * the analysis to convert.
 */
const STATEMENT: Shape = {
  leaves: new Set([
    'identifier',
    'integer',
    'float',
    'true',
    'false',
    'none',
    'comment',
    'string_content',
    'escape_sequence',
    'type',
  ]),
  operatorsUnder: PYTHON_OPERATORS,
};

interface MutableScope extends Scope {
  readonly params: Param[];
  readonly fields: string[];
  readonly body: Stmt[];
  code: boolean;
}

class FragmentBuilder {
  readonly imports: ImportBinding[] = [];
  readonly scopes: MutableScope[] = [];
  readonly calls: CallSite[] = [];

  constructor(
    private readonly source: string,
    private readonly candidates: ReadonlySet<string>,
    private readonly lines: LineIndex,
  ) {}

  private spanOf(node: Syn) {
    return this.lines.span(node.start, node.end);
  }

  /** Records the statement's definitions and calls, and returns it lowered to the interpreter's IR. */
  statement(node: Syn, scope: number, decorators: readonly string[] = []): Stmt[] {
    const at = node.start;
    switch (node.type) {
      case 'import_statement':
      case 'import_from_statement':
        if (scope === -1) {
          this.imports.push(...importsOf(node, this.source));
          return [];
        }
        return [{ k: 'import', bindings: importsOf(node, this.source), at }];
      case 'decorated_definition': {
        const names = namedOf(node)
          .filter((c) => c.type === 'decorator')
          .map((d) => decoratorName(d, this.source));
        const def = fieldOf(node, 'definition');
        return def ? this.statement(def, scope, names) : [];
      }
      case 'class_definition':
        return [{ k: 'def', scope: this.classDef(node, scope, decorators), at }];
      case 'function_definition':
        return [{ k: 'def', scope: this.functionDef(node, scope, decorators), at }];
      case 'expression_statement':
        return this.expressionStatement(node, scope);
      case 'return_statement': {
        // A function's result, for calls to helpers such as `clones(layer, N)`.
        const value = namedOf(node)[0];
        this.findCalls(node, scope);
        return [{ k: 'return', value: value ? ref(value) : undefined, at }];
      }
      case 'if_statement':
        return [this.ifStatement(node, scope)];
      case 'for_statement':
        return [this.forStatement(node, scope)];
      case 'while_statement': {
        const test = fieldOf(node, 'condition');
        this.findCalls(test, scope);
        const body = this.block(fieldOf(node, 'body'), scope);
        const orelse = this.block(fieldOf(node, 'alternative'), scope);
        return test ? [{ k: 'while', test: ref(test), body, orelse, at }] : body;
      }
      case 'with_statement': {
        const items: { value: ExprRef; target?: ExprRef }[] = [];
        const clause = namedOf(node).find((c) => c.type === 'with_clause');
        for (const item of clause ? namedOf(clause) : []) {
          const inner = fieldOf(item, 'value') ?? namedOf(item)[0];
          if (!inner) continue;
          this.findCalls(inner, scope);
          if (inner.type === 'as_pattern') {
            const value = namedOf(inner)[0];
            const target = fieldOf(inner, 'alias');
            const name = target ? (namedOf(target)[0] ?? target) : undefined;
            if (value) items.push({ value: ref(value), target: name ? ref(name) : undefined });
          } else items.push({ value: ref(inner) });
        }
        return [{ k: 'with', items, body: this.block(fieldOf(node, 'body'), scope), at }];
      }
      case 'try_statement': {
        const body = this.block(fieldOf(node, 'body'), scope);
        const handlers: Stmt[][] = [];
        let orelse: Stmt[] = [];
        let final: Stmt[] = [];
        for (const child of namedOf(node)) {
          if (child.type === 'except_clause' || child.type === 'except_group_clause')
            handlers.push(
              this.block(
                namedOf(child).find((c) => c.type === 'block'),
                scope,
              ),
            );
          else if (child.type === 'else_clause') orelse = this.block(fieldOf(child, 'body'), scope);
          else if (child.type === 'finally_clause')
            final = this.block(
              namedOf(child).find((c) => c.type === 'block'),
              scope,
            );
        }
        return [{ k: 'try', body, handlers, orelse, final, at }];
      }
      case 'raise_statement': {
        this.findCalls(node, scope);
        const value = namedOf(node)[0];
        return [{ k: 'raise', value: value ? ref(value) : undefined, at, span: this.spanOf(node) }];
      }
      case 'assert_statement': {
        this.findCalls(node, scope);
        const [test, message] = namedOf(node);
        return test
          ? [{ k: 'assert', test: ref(test), message: message ? ref(message) : undefined, at, span: this.spanOf(node) }]
          : [];
      }
      case 'break_statement':
        return [{ k: 'break', at }];
      case 'continue_statement':
        return [{ k: 'continue', at }];
      case 'match_statement':
        // Cases are not decided: each case's calls are still found, and nothing it binds is trusted.
        this.findCalls(node, scope);
        return [];
      default:
        this.findCalls(node, scope);
        return [];
    }
  }

  private ifStatement(node: Syn, scope: number): Stmt {
    const test = fieldOf(node, 'condition');
    this.findCalls(test, scope);
    const then = this.block(fieldOf(node, 'consequence'), scope);
    // `elif` chains become nested ifs in the else branch.
    const clauses = namedOf(node).filter((c) => c.type === 'elif_clause' || c.type === 'else_clause');
    const lower = (i: number): Stmt[] => {
      const clause = clauses[i];
      if (!clause) return [];
      if (clause.type === 'else_clause') return this.block(fieldOf(clause, 'body'), scope);
      const cond = fieldOf(clause, 'condition');
      this.findCalls(cond, scope);
      const body = this.block(fieldOf(clause, 'consequence'), scope);
      return cond ? [{ k: 'if', test: ref(cond), then: body, otherwise: lower(i + 1), at: clause.start }] : body;
    };
    return {
      k: 'if',
      test: test ? ref(test) : { start: node.start, end: node.start },
      then,
      otherwise: lower(0),
      at: node.start,
    };
  }

  private forStatement(node: Syn, scope: number): Stmt {
    const left = fieldOf(node, 'left');
    const right = fieldOf(node, 'right');
    this.findCalls(right, scope);
    const body = this.block(fieldOf(node, 'body'), scope);
    const orelse = this.block(fieldOf(node, 'alternative'), scope);
    return {
      k: 'for',
      target: left ? ref(left) : undefined,
      iterable: right ? ref(right) : { start: node.start, end: node.start },
      body,
      orelse,
      at: node.start,
    };
  }

  block(node: Syn | undefined, scope: number): Stmt[] {
    if (!node) return [];
    if (node.type === 'else_clause') return this.block(fieldOf(node, 'body'), scope);
    if (node.type !== 'block') return this.statement(node, scope);
    return namedOf(node).flatMap((child) => this.statement(child, scope));
  }

  private classDef(node: Syn, parent: number, decorators: readonly string[]): number {
    const name = fieldOf(node, 'name');
    const supers = fieldOf(node, 'superclasses');
    const index = this.scopes.length;
    const scope: MutableScope = {
      kind: 'class',
      name: name ? synText(name, this.source) : '',
      parent,
      nameSpan: this.spanOf(name ?? node),
      extent: this.spanOf(node),
      params: [],
      fields: [],
      bases: supers
        ? namedOf(supers)
            .filter((c) => c.type !== 'keyword_argument')
            .map(ref)
        : [],
      decorators,
      body: [],
      code: false,
    };
    this.scopes.push(scope);
    scope.body.push(...this.block(fieldOf(node, 'body'), index));
    scope.code = runsCode(scope.body);
    return index;
  }

  private functionDef(node: Syn, parent: number, decorators: readonly string[]): number {
    const name = fieldOf(node, 'name');
    const params = fieldOf(node, 'parameters');
    const index = this.scopes.length;
    const scope: MutableScope = {
      kind: 'function',
      name: name ? synText(name, this.source) : '',
      parent,
      nameSpan: this.spanOf(name ?? node),
      extent: this.spanOf(node),
      params: params ? pythonParams(params, this.source) : [],
      fields: [],
      bases: [],
      decorators,
      body: [],
      code: false,
    };
    this.scopes.push(scope);
    scope.body.push(...this.block(fieldOf(node, 'body'), index));
    scope.code = runsCode(scope.body);
    return index;
  }

  private expressionStatement(node: Syn, scope: number): Stmt[] {
    const inner = namedOf(node)[0];
    const at = node.start;
    this.findCalls(node, scope);
    if (inner?.type === 'assignment') return [this.assignment(inner, scope, at)];
    if (inner?.type === 'augmented_assignment') return this.augmented(inner, at);
    // A docstring does nothing: no statement, so that a class of methods and a docstring stays a body of definitions.
    if (inner?.type === 'string' && !namedOf(inner).some((p) => p.type === 'interpolation')) return [];
    return inner ? [{ k: 'expr', value: ref(inner), at }] : [];
  }

  /** `x = v`, `self.x = v`, `x: T = v`, `a = b = v`. */
  private assignment(node: Syn, scope: number, at: number): Stmt {
    const targets: ExprRef[] = [];
    let value: Syn | undefined = node;
    let annotation: string | undefined;
    while (value?.type === 'assignment') {
      const left = fieldOf(value, 'left');
      const type = fieldOf(value, 'type');
      if (type) annotation = synText(type, this.source);
      if (left) targets.push(ref(left));
      // `x: int = 3` in a class body: a dataclass field, in order.
      if (type && left?.type === 'identifier' && scope >= 0 && this.scopes[scope].kind === 'class')
        this.scopes[scope].fields.push(synText(left, this.source));
      value = fieldOf(value, 'right');
    }
    return { k: 'assign', targets, value: value ? ref(value) : undefined, annotation, at };
  }

  /** `x += value` */
  private augmented(node: Syn, at: number): Stmt[] {
    const left = fieldOf(node, 'left');
    const right = fieldOf(node, 'right');
    const op = fieldOf(node, 'operator');
    const symbol = op ? synText(op, this.source).slice(0, -1) : '';
    if (!left || !right) return [];
    return [{ k: 'aug', target: ref(left), op: symbol, value: ref(right), at }];
  }

  /** Calls whose callee ends in a candidate name, below `node` (not `node` itself) and outside lambdas. */
  private findCalls(node: Syn | undefined, scope: number): void {
    if (!node) return;
    for (const n of descendantsOfType(node, 'call', 'lambda')) {
      const callee = fieldOf(n, 'function');
      const last = callee?.type === 'attribute' ? fieldOf(callee, 'attribute') : callee;
      if (last?.type === 'identifier' && this.candidates.has(synText(last, this.source)))
        this.calls.push({ scope, call: ref(n), span: this.spanOf(n) });
    }
  }
}

function ref(node: Syn): ExprRef {
  return { start: node.start, end: node.end };
}

function decoratorName(node: Syn, source: string): string {
  const expr = namedOf(node)[0];
  if (!expr) return '';
  const target = expr.type === 'call' ? fieldOf(expr, 'function') : expr;
  return target ? synText(target, source) : '';
}

/** The class name or imported names one top-level statement declares: with the catalog's names, the callees worth looking for. */
export function pythonDeclaredNames(statement: Node, source: string): string[] {
  const syn = copyOf(statement, source);
  const def = syn.type === 'decorated_definition' ? fieldOf(syn, 'definition') : syn;
  if (def?.type === 'class_definition') {
    const name = fieldOf(def, 'name');
    return name ? [synText(name, source)] : [];
  }
  if (syn.type === 'import_statement' || syn.type === 'import_from_statement')
    return importsOf(syn, source).map((imp) => imp.local);
  return [];
}

/** The copy of a statement, made once for the names it declares and for its lowering. */
const COPIES = new WeakMap<Node, Syn>();

function copyOf(statement: Node, source: string): Syn {
  let syn = COPIES.get(statement);
  if (!syn) COPIES.set(statement, (syn = mirror(statement, STATEMENT, source)));
  return syn;
}

/** One top-level statement, lowered, with the copy of its subtree that its expressions are converted from. */
export function pythonFragment(
  node: Node,
  source: string,
  candidates: ReadonlySet<string>,
  lines: LineIndex,
): { fragment: Omit<Fragment, 'id' | 'code' | 'defs'>; syn: Syn } {
  const syn = copyOf(node, source);
  const builder = new FragmentBuilder(source, candidates, lines);
  const body = builder.statement(syn, -1);
  return {
    fragment: {
      span: lines.span(syn.start, syn.end),
      imports: builder.imports,
      scopes: builder.scopes,
      calls: builder.calls,
      body,
    },
    syn,
  };
}
