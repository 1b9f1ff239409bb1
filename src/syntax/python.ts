/**
 * Python tree -> SourceModel fragments. Walks statements only (module, class and function bodies and the
 * blocks of compound statements); expressions are converted later, on demand, by `pythonExpr`.
 */
import type { Arg, BinaryOp, CompareOp, DictEntry, Expr } from '../core/expr';
import type { CallSite, ExprRef, Fragment, ImportBinding, Param, Scope, Stmt } from '../core/source';
import { findDescendants, mentionsAny, namedChildren, refOf, spanOf, textOf, type Node } from './nodes';

const CALL = new Set(['call']);
const LAMBDA = new Set(['lambda']);

interface MutableScope extends Scope {
  readonly params: Param[];
  readonly fields: string[];
  readonly body: Stmt[];
}

class FragmentBuilder {
  readonly imports: ImportBinding[] = [];
  readonly scopes: MutableScope[] = [];
  readonly calls: CallSite[] = [];

  constructor(
    private readonly source: string,
    private readonly candidates: readonly string[],
  ) {}

  /** Records the statement's definitions and calls, and returns it lowered to the interpreter's IR. */
  statement(node: Node, scope: number, decorators: readonly string[] = []): Stmt[] {
    const at = node.startIndex;
    switch (node.type) {
      case 'import_statement':
      case 'import_from_statement':
        if (scope === -1) this.imports.push(...importsOf(node, this.source));
        return [];
      case 'decorated_definition': {
        const names = namedChildren(node)
          .filter((c) => c.type === 'decorator')
          .map((d) => decoratorName(d, this.source));
        const def = node.childForFieldName('definition');
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
        const value = namedChildren(node)[0];
        this.findCalls(node, scope);
        return [{ k: 'return', value: value ? refOf(value) : undefined, at }];
      }
      case 'if_statement':
        return [this.ifStatement(node, scope)];
      case 'for_statement':
        return [this.forStatement(node, scope)];
      case 'while_statement': {
        const test = node.childForFieldName('condition');
        this.findCalls(test, scope);
        const body = this.block(node.childForFieldName('body'), scope);
        const orelse = this.block(node.childForFieldName('alternative'), scope);
        return test ? [{ k: 'while', test: refOf(test), body, orelse, at }] : body;
      }
      case 'with_statement': {
        const items: { value: ExprRef; target?: ExprRef }[] = [];
        const clause = namedChildren(node).find((c) => c.type === 'with_clause');
        for (const item of clause ? namedChildren(clause) : []) {
          const inner = item.childForFieldName('value') ?? namedChildren(item)[0];
          if (!inner) continue;
          this.findCalls(inner, scope);
          if (inner.type === 'as_pattern') {
            const value = namedChildren(inner)[0];
            const target = inner.childForFieldName('alias');
            const name = target ? namedChildren(target)[0] ?? target : undefined;
            if (value) items.push({ value: refOf(value), target: name ? refOf(name) : undefined });
          } else items.push({ value: refOf(inner) });
        }
        return [{ k: 'with', items, body: this.block(node.childForFieldName('body'), scope), at }];
      }
      case 'try_statement': {
        const body = this.block(node.childForFieldName('body'), scope);
        const handlers: Stmt[][] = [];
        let orelse: Stmt[] = [];
        let final: Stmt[] = [];
        for (const child of namedChildren(node)) {
          if (child.type === 'except_clause' || child.type === 'except_group_clause') handlers.push(this.block(namedChildren(child).find((c) => c.type === 'block') ?? null, scope));
          else if (child.type === 'else_clause') orelse = this.block(child.childForFieldName('body'), scope);
          else if (child.type === 'finally_clause') final = this.block(namedChildren(child).find((c) => c.type === 'block') ?? null, scope);
        }
        return [{ k: 'try', body, handlers, orelse, final, at }];
      }
      case 'raise_statement': {
        this.findCalls(node, scope);
        const value = namedChildren(node)[0];
        return [{ k: 'raise', value: value ? refOf(value) : undefined, at, span: spanOf(node) }];
      }
      case 'assert_statement': {
        this.findCalls(node, scope);
        const [test, message] = namedChildren(node);
        return test ? [{ k: 'assert', test: refOf(test), message: message ? refOf(message) : undefined, at, span: spanOf(node) }] : [];
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

  private ifStatement(node: Node, scope: number): Stmt {
    const test = node.childForFieldName('condition');
    this.findCalls(test, scope);
    const then = this.block(node.childForFieldName('consequence'), scope);
    // `elif` chains become nested ifs in the else branch.
    const clauses = namedChildren(node).filter((c) => c.type === 'elif_clause' || c.type === 'else_clause');
    const lower = (i: number): Stmt[] => {
      const clause = clauses[i];
      if (!clause) return [];
      if (clause.type === 'else_clause') return this.block(clause.childForFieldName('body'), scope);
      const cond = clause.childForFieldName('condition');
      this.findCalls(cond, scope);
      const body = this.block(clause.childForFieldName('consequence'), scope);
      return cond ? [{ k: 'if', test: refOf(cond), then: body, otherwise: lower(i + 1), at: clause.startIndex }] : body;
    };
    return { k: 'if', test: test ? refOf(test) : { start: node.startIndex, end: node.startIndex }, then, otherwise: lower(0), at: node.startIndex };
  }

  private forStatement(node: Node, scope: number): Stmt {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    this.findCalls(right, scope);
    const body = this.block(node.childForFieldName('body'), scope);
    const orelse = this.block(node.childForFieldName('alternative'), scope);
    return { k: 'for', target: left ? refOf(left) : undefined, iterable: right ? refOf(right) : { start: node.startIndex, end: node.startIndex }, body, orelse, at: node.startIndex };
  }

  block(node: Node | null, scope: number): Stmt[] {
    if (!node) return [];
    if (node.type === 'else_clause') return this.block(node.childForFieldName('body'), scope);
    if (node.type !== 'block') return this.statement(node, scope);
    return namedChildren(node).flatMap((child) => this.statement(child, scope));
  }

  private classDef(node: Node, parent: number, decorators: readonly string[]): number {
    const name = node.childForFieldName('name');
    const supers = node.childForFieldName('superclasses');
    const index = this.scopes.length;
    const scope: MutableScope = {
      kind: 'class',
      name: name ? textOf(name, this.source) : '',
      parent,
      nameSpan: spanOf(name ?? node),
      extent: spanOf(node),
      params: [],
      fields: [],
      bases: supers ? namedChildren(supers).filter((c) => c.type !== 'keyword_argument').map(refOf) : [],
      decorators,
      body: [],
    };
    this.scopes.push(scope);
    scope.body.push(...this.block(node.childForFieldName('body'), index));
    return index;
  }

  private functionDef(node: Node, parent: number, decorators: readonly string[]): number {
    const name = node.childForFieldName('name');
    const params = node.childForFieldName('parameters');
    const index = this.scopes.length;
    const scope: MutableScope = {
      kind: 'function',
      name: name ? textOf(name, this.source) : '',
      parent,
      nameSpan: spanOf(name ?? node),
      extent: spanOf(node),
      params: params ? paramsOf(params, this.source) : [],
      fields: [],
      bases: [],
      decorators,
      body: [],
    };
    this.scopes.push(scope);
    scope.body.push(...this.block(node.childForFieldName('body'), index));
    return index;
  }

  private expressionStatement(node: Node, scope: number): Stmt[] {
    const inner = namedChildren(node)[0];
    const at = node.startIndex;
    this.findCalls(node, scope);
    if (inner?.type === 'assignment') return [this.assignment(inner, scope, at)];
    if (inner?.type === 'augmented_assignment') return this.augmented(inner, at);
    return inner ? [{ k: 'expr', value: refOf(inner), at }] : [];
  }

  /** `x = v`, `self.x = v`, `x: T = v`, `a = b = v`. */
  private assignment(node: Node, scope: number, at: number): Stmt {
    const targets: ExprRef[] = [];
    let value: Node | null = node;
    let annotation: string | undefined;
    while (value?.type === 'assignment') {
      const left = value.childForFieldName('left');
      const type = value.childForFieldName('type');
      if (type) annotation = textOf(type, this.source);
      if (left) targets.push(refOf(left));
      // `x: int = 3` in a class body: a dataclass field, in order.
      if (type && left?.type === 'identifier' && scope >= 0 && this.scopes[scope].kind === 'class') this.scopes[scope].fields.push(textOf(left, this.source));
      value = value.childForFieldName('right');
    }
    return { k: 'assign', targets, value: value ? refOf(value) : undefined, annotation, at };
  }

  /** `x += value` */
  private augmented(node: Node, at: number): Stmt[] {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const op = node.childForFieldName('operator');
    const symbol = op ? textOf(op, this.source).slice(0, -1) : '';
    if (!left || !right) return [];
    return [{ k: 'aug', target: refOf(left), op: symbol, value: refOf(right), at }];
  }

  private findCalls(node: Node | null, scope: number): void {
    if (!node || !mentionsAny(textOf(node, this.source), this.candidates)) return;
    findDescendants(node, CALL, LAMBDA, (n) => {
      const callee = n.childForFieldName('function');
      const last = callee?.type === 'attribute' ? callee.childForFieldName('attribute') : callee;
      if (last && last.type === 'identifier' && this.candidates.includes(textOf(last, this.source))) {
        this.calls.push({ scope, call: refOf(n), span: spanOf(n) });
      }
    });
  }
}

function importsOf(node: Node, source: string): ImportBinding[] {
  const out: ImportBinding[] = [];
  if (node.type === 'import_statement') {
    for (const child of node.childrenForFieldName('name')) {
      if (!child) continue;
      if (child.type === 'aliased_import') {
        const name = child.childForFieldName('name');
        const alias = child.childForFieldName('alias');
        if (name && alias) out.push({ local: textOf(alias, source), module: textOf(name, source) });
      } else {
        // `import torch.nn` binds `torch`; attribute access then walks into the submodule.
        const dotted = textOf(child, source);
        const head = dotted.split('.')[0];
        out.push({ local: head, module: head });
      }
    }
    return out;
  }
  const moduleNode = node.childForFieldName('module_name');
  if (!moduleNode) return out;
  const module = textOf(moduleNode, source);
  for (const child of node.childrenForFieldName('name')) {
    if (!child) continue;
    if (child.type === 'aliased_import') {
      const name = child.childForFieldName('name');
      const alias = child.childForFieldName('alias');
      if (name && alias) out.push({ local: textOf(alias, source), module, member: textOf(name, source) });
    } else {
      const member = textOf(child, source);
      out.push({ local: member, module, member });
    }
  }
  return out;
}

function decoratorName(node: Node, source: string): string {
  const expr = namedChildren(node)[0];
  if (!expr) return '';
  const target = expr.type === 'call' ? expr.childForFieldName('function') : expr;
  return target ? textOf(target, source) : '';
}

/** The parameters in order; those after `*` or `*args` are keyword-only. */
function paramsOf(node: Node, source: string): Param[] {
  const out: Param[] = [];
  let keywordOnly = false;
  for (const child of namedChildren(node)) {
    if (child.type === 'keyword_separator') keywordOnly = true;
    for (const p of paramOf(child, source)) {
      out.push(keywordOnly && !p.variadic ? { ...p, keywordOnly } : p);
      if (p.variadic === 'list') keywordOnly = true;
    }
  }
  return out;
}

function paramOf(node: Node, source: string): Param[] {
  switch (node.type) {
    case 'identifier':
      return [{ name: textOf(node, source) }];
    case 'default_parameter':
    case 'typed_default_parameter': {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      const type = node.childForFieldName('type');
      return name ? [{ name: textOf(name, source), default: value ? refOf(value) : undefined, annotation: type ? textOf(type, source) : undefined }] : [];
    }
    case 'typed_parameter': {
      const inner = namedChildren(node)[0];
      const type = node.childForFieldName('type');
      if (!inner) return [];
      const variadic = inner.type === 'list_splat_pattern' ? 'list' : inner.type === 'dictionary_splat_pattern' ? 'dict' : undefined;
      const name = variadic ? namedChildren(inner)[0] : inner;
      return name ? [{ name: textOf(name, source), annotation: type ? textOf(type, source) : undefined, variadic }] : [];
    }
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern': {
      const name = namedChildren(node)[0];
      return name ? [{ name: textOf(name, source), variadic: node.type === 'list_splat_pattern' ? 'list' : 'dict' }] : [];
    }
    default:
      return [];
  }
}

/** Class names and imported names: with the catalog's names, the callees worth looking for. */
export function pythonDeclaredNames(root: Node, source: string): string[] {
  const names: string[] = [];
  for (const child of namedChildren(root)) {
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (def?.type === 'class_definition') {
      const name = def.childForFieldName('name');
      if (name) names.push(textOf(name, source));
    } else if (child.type === 'import_statement' || child.type === 'import_from_statement') {
      for (const imp of importsOf(child, source)) names.push(imp.local);
    }
  }
  return names;
}

export function pythonFragment(node: Node, source: string, candidates: readonly string[]): Omit<Fragment, 'id'> {
  const builder = new FragmentBuilder(source, candidates);
  const body = builder.statement(node, -1);
  return { span: spanOf(node), imports: builder.imports, scopes: builder.scopes, calls: builder.calls, body };
}


const BINARY_OPS = new Set<string>(['+', '-', '*', '/', '//', '%', '**', '@']);
const COMPARE_OPS = new Set<string>(['==', '!=', '<', '<=', '>', '>=', 'is', 'is not', 'in', 'not in']);

/** Converts one Python expression node. */
export function pythonExpr(node: Node, source: string): Expr {
  const span = spanOf(node);
  const text = () => textOf(node, source);
  const sub = (n: Node | null): Expr => (n ? pythonExpr(n, source) : { k: 'unknown', text: '', span });
  switch (node.type) {
    case 'integer': {
      const digits = text().replace(/_/g, '');
      // Decimal, 0x, 0o and 0b literals; anything else (`1l` in error-recovered code, `1j`) is not a size.
      if (!/^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)$/.test(digits) || digits.length > 1_000) return { k: 'unknown', text: text(), span };
      return { k: 'int', value: BigInt(digits.replace(/^0+(?=\d)/, '')), span };
    }
    case 'float':
      return /[jJ]$/.test(text()) ? { k: 'unknown', text: text(), span } : { k: 'float', value: Number(text().replace(/_/g, '')), span };
    case 'true':
      return { k: 'bool', value: true, span };
    case 'false':
      return { k: 'bool', value: false, span };
    case 'none':
      return { k: 'none', span };
    case 'string': {
      const parts = namedChildren(node).filter((p) => p.type === 'string_content' || p.type === 'interpolation');
      if (parts.some((p) => p.type === 'interpolation')) {
        // f"proj_{name}": the pieces, joined when each is known; a format spec or conversion is not followed.
        const pieces = parts.map((p) => (p.type === 'string_content' ? textOf(p, source) : namedChildren(p).length === 1 ? pythonExpr(namedChildren(p)[0], source) : undefined));
        if (pieces.some((p) => p === undefined)) return { k: 'unknown', text: text(), span };
        return { k: 'fstring', parts: pieces as (string | Expr)[], span };
      }
      return { k: 'str', value: parts.map((p) => textOf(p, source)).join(''), span };
    }
    case 'list_splat':
    case 'list_splat_pattern': {
      const inner = namedChildren(node)[0];
      return { k: 'star', value: inner ? pythonExpr(inner, source) : { k: 'unknown', text: '', span }, span };
    }
    case 'slice': {
      const [lower, upper, step] = sliceParts(node);
      return { k: 'slice', lower: lower && pythonExpr(lower, source), upper: upper && pythonExpr(upper, source), step: step && pythonExpr(step, source), span };
    }
    case 'identifier':
      return { k: 'name', id: text(), span };
    case 'attribute': {
      const attr = node.childForFieldName('attribute');
      return { k: 'attr', object: sub(node.childForFieldName('object')), id: attr ? textOf(attr, source) : '', span };
    }
    case 'subscript':
      return { k: 'index', object: sub(node.childForFieldName('value')), index: sub(node.childForFieldName('subscript')), span };
    case 'parenthesized_expression': {
      const inner = namedChildren(node)[0];
      return inner ? pythonExpr(inner, source) : { k: 'unknown', text: text(), span };
    }
    case 'binary_operator': {
      const op = node.childForFieldName('operator');
      const opText = op ? textOf(op, source) : '';
      if (!BINARY_OPS.has(opText)) return { k: 'unknown', text: text(), span };
      return { k: 'binary', op: opText as BinaryOp, left: sub(node.childForFieldName('left')), right: sub(node.childForFieldName('right')), span };
    }
    case 'unary_operator': {
      const op = node.childForFieldName('operator');
      const opText = op ? textOf(op, source) : '';
      if (opText !== '-' && opText !== '+') return { k: 'unknown', text: text(), span };
      return { k: 'unary', op: opText, operand: sub(node.childForFieldName('argument')), span };
    }
    case 'not_operator':
      return { k: 'unary', op: 'not', operand: sub(node.childForFieldName('argument')), span };
    case 'boolean_operator': {
      const op = node.childForFieldName('operator');
      const opText = op ? textOf(op, source) : '';
      return { k: 'logic', op: opText === 'and' ? 'and' : 'or', left: sub(node.childForFieldName('left')), right: sub(node.childForFieldName('right')), span };
    }
    case 'comparison_operator': {
      const operands = namedChildren(node);
      const ops = node.childrenForFieldName('operators').filter((o): o is Node => o !== null);
      const opText = ops.length === 1 ? textOf(ops[0], source).replace(/\s+/g, ' ') : '';
      if (operands.length !== 2 || !COMPARE_OPS.has(opText)) return { k: 'unknown', text: text(), span };
      return { k: 'compare', op: opText as CompareOp, left: sub(operands[0]), right: sub(operands[1]), span };
    }
    case 'conditional_expression': {
      const [then, test, otherwise] = namedChildren(node);
      if (!then || !test || !otherwise) return { k: 'unknown', text: text(), span };
      return { k: 'cond', test: sub(test), then: sub(then), otherwise: sub(otherwise), span };
    }
    case 'call': {
      const argsNode = node.childForFieldName('arguments');
      // `f(x for x in xs)` passes the generator itself as the only argument.
      const args: Arg[] = !argsNode ? [] : argsNode.type === 'generator_expression' ? [{ value: pythonExpr(argsNode, source), span: spanOf(argsNode) }] : namedChildren(argsNode).map((a) => pythonArg(a, source));
      return { k: 'call', callee: sub(node.childForFieldName('function')), args, isNew: false, span };
    }
    case 'list':
    case 'tuple':
    case 'expression_list':
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
      return { k: 'list', items: namedChildren(node).map((c) => pythonExpr(c, source)), tuple: node.type !== 'list' && node.type !== 'list_pattern', span };
    case 'list_comprehension':
    case 'generator_expression': {
      const body = node.childForFieldName('body');
      const clauses = namedChildren(node).filter((c) => c.type !== 'comment' && c.startIndex !== body?.startIndex);
      const fors = clauses.filter((c) => c.type === 'for_in_clause');
      const clause = fors.length === 1 && clauses[0] === fors[0] ? fors[0] : undefined;
      const left = clause?.childForFieldName('left');
      const right = clause?.childForFieldName('right');
      if (!body || !clause || !left || !right) return { k: 'unknown', text: text(), span };
      const filters = clauses.slice(1).map((c) => sub(namedChildren(c)[0] ?? null));
      return { k: 'comprehension', element: sub(body), variable: left.type === 'identifier' ? textOf(left, source) : undefined, target: sub(left), iterable: sub(right), filters, span };
    }
    case 'lambda': {
      const params = node.childForFieldName('parameters');
      const parsed = params ? namedChildren(params).flatMap((p) => paramOf(p, source)) : [];
      if (parsed.some((p) => p.variadic)) return { k: 'unknown', text: text(), span };
      const defaults = params ? namedChildren(params).map((p) => p.childForFieldName('value')) : [];
      return {
        k: 'lambda',
        params: parsed.map((p, i) => ({ name: p.name, default: defaults[i] ? pythonExpr(defaults[i]!, source) : undefined })),
        body: sub(node.childForFieldName('body')),
        span,
      };
    }
    case 'dictionary': {
      const entries: DictEntry[] = namedChildren(node).map((c) =>
        c.type === 'pair'
          ? { key: sub(c.childForFieldName('key')), value: sub(c.childForFieldName('value')) }
          : { spread: sub(namedChildren(c)[0] ?? null), value: { k: 'none', span } },
      );
      return { k: 'dict', entries, span };
    }
    default:
      return { k: 'unknown', text: text(), span };
  }
}

/** `a:b:c` with any part left out: the expressions before, between and after the colons. */
function sliceParts(node: Node): (Node | undefined)[] {
  const parts: (Node | undefined)[] = [undefined, undefined, undefined];
  let i = 0;
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === ':') i++;
    else if (child.isNamed && child.type !== 'comment') parts[i] = child;
  }
  return parts;
}

function pythonArg(node: Node, source: string): Arg {
  const span = spanOf(node);
  if (node.type === 'keyword_argument') {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    return { name: name ? textOf(name, source) : '', value: value ? pythonExpr(value, source) : { k: 'unknown', text: '', span }, span };
  }
  if (node.type === 'list_splat' || node.type === 'dictionary_splat') {
    const inner = namedChildren(node)[0];
    return { spread: node.type === 'list_splat' ? 'list' : 'dict', value: inner ? pythonExpr(inner, source) : { k: 'unknown', text: '', span }, span };
  }
  return { value: pythonExpr(node, source), span };
}
