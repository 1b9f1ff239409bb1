/**
 * TypeScript tree -> SourceModel fragments: imports, `const` bindings, classes with constructor parameters
 * and `this.x` assignments, functions; expressions are converted on demand by `typescriptExpr`.
 */
import type { Arg, BinaryOp, CompareOp, DictEntry, Expr } from '../core/expr';
import type { CallSite, Fragment, ImportBinding, Param, Scope, Stmt } from '../core/source';
import { findDescendants, mentionsAny, namedChildren, refOf, spanOf, textOf, type Node } from './nodes';

const CALLS = new Set(['call_expression', 'new_expression']);
const NOTHING = new Set<string>();

const BLOCKS = new Set([
  'statement_block', 'if_statement', 'else_clause', 'for_statement', 'for_in_statement', 'while_statement',
  'do_statement', 'try_statement', 'catch_clause', 'finally_clause', 'switch_statement', 'switch_body',
  'switch_case', 'switch_default', 'labeled_statement',
]);

interface MutableScope extends Scope {
  readonly params: Param[];
  readonly fields: string[];
  readonly body: Stmt[];
}

/** `(x)` as TypeScript writes conditions: the expression inside. */
function unparenthesized(node: Node): Node {
  return node.type === 'parenthesized_expression' ? namedChildren(node)[0] ?? node : node;
}

class FragmentBuilder {
  readonly imports: ImportBinding[] = [];
  readonly scopes: MutableScope[] = [];
  readonly calls: CallSite[] = [];

  constructor(
    private readonly source: string,
    private readonly candidates: readonly string[],
  ) {}

  /** Records the statement's bindings and calls, and returns it lowered to the interpreter's IR. */
  statement(node: Node, scope: number): Stmt[] {
    const at = node.startIndex;
    switch (node.type) {
      case 'import_statement':
        if (scope === -1) this.imports.push(...importsOf(node, this.source));
        return [];
      case 'export_statement': {
        const decl = node.childForFieldName('declaration');
        if (decl) return this.statement(decl, scope);
        this.findCalls(node, scope);
        return [];
      }
      case 'class_declaration':
      case 'abstract_class_declaration':
        return [{ k: 'def', scope: this.classDecl(node, scope), at }];
      case 'function_declaration':
      case 'generator_function_declaration':
        return [{ k: 'def', scope: this.functionDecl(node, scope, node.childForFieldName('name')), at }];
      case 'lexical_declaration':
      case 'variable_declaration': {
        const out: Stmt[] = [];
        for (const d of namedChildren(node)) {
          if (d.type !== 'variable_declarator') continue;
          const name = d.childForFieldName('name');
          const value = d.childForFieldName('value');
          const type = d.childForFieldName('type');
          if (name) out.push({ k: 'assign', targets: [refOf(name)], value: value ? refOf(value) : undefined, annotation: typeName(type, this.source), at });
        }
        this.findCalls(node, scope);
        return out;
      }
      case 'expression_statement': {
        const inner = namedChildren(node)[0];
        this.findCalls(node, scope);
        if (!inner) return [];
        if (inner.type === 'assignment_expression') {
          const left = inner.childForFieldName('left');
          const right = inner.childForFieldName('right');
          return left ? [{ k: 'assign', targets: [refOf(left)], value: right ? refOf(right) : undefined, at }] : [];
        }
        if (inner.type === 'update_expression') return this.updateStatement(inner, scope);
        if (inner.type === 'augmented_assignment_expression') {
          const left = inner.childForFieldName('left');
          const right = inner.childForFieldName('right');
          const op = inner.childForFieldName('operator');
          return left && right && op ? [{ k: 'aug', target: refOf(left), op: textOf(op, this.source).slice(0, -1), value: refOf(right), at }] : [];
        }
        const superCall = inner.type === 'call_expression' && inner.childForFieldName('function')?.type === 'super';
        return [{ k: 'expr', value: refOf(inner), at, superCall: superCall || undefined }];
      }
      case 'return_statement': {
        const value = namedChildren(node)[0];
        this.findCalls(node, scope);
        return [{ k: 'return', value: value ? refOf(value) : undefined, at }];
      }
      case 'if_statement': {
        const test = node.childForFieldName('condition');
        this.findCalls(test, scope);
        const then = this.block(node.childForFieldName('consequence'), scope);
        const alternative = node.childForFieldName('alternative');
        const otherwise = alternative ? namedChildren(alternative).flatMap((c) => this.block(c, scope)) : [];
        return test ? [{ k: 'if', test: refOf(unparenthesized(test)), then, otherwise, at }] : then;
      }
      case 'for_in_statement': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        this.findCalls(right, scope);
        const body = this.block(node.childForFieldName('body'), scope);
        const of = node.children.some((c) => c?.type === 'of');
        return right && of ? [{ k: 'for', target: left ? refOf(left) : undefined, iterable: refOf(right), body, orelse: [], at }] : [];
      }
      case 'for_statement': {
        // for (init; test; update) body  ==  init; while (test) { body; update }
        const init = node.childForFieldName('initializer');
        const test = node.childForFieldName('condition');
        const update = node.childForFieldName('increment');
        const first = init ? this.statement(init, scope) : [];
        this.findCalls(test, scope);
        const body = this.block(node.childForFieldName('body'), scope);
        const step: Stmt[] = update ? this.updateStatement(update, scope) : [];
        const cond = test?.type === 'expression_statement' ? namedChildren(test)[0] : test;
        return cond ? [...first, { k: 'while', test: refOf(cond), body: [...body, ...step], orelse: [], at }] : first;
      }
      case 'while_statement': {
        const test = node.childForFieldName('condition');
        this.findCalls(test, scope);
        const body = this.block(node.childForFieldName('body'), scope);
        return test ? [{ k: 'while', test: refOf(unparenthesized(test)), body, orelse: [], at }] : [];
      }
      case 'statement_block':
        return namedChildren(node).flatMap((c) => this.statement(c, scope));
      case 'try_statement': {
        const body = this.block(node.childForFieldName('body'), scope);
        const handler = node.childForFieldName('handler');
        const finalizer = node.childForFieldName('finalizer');
        const handlers = handler ? [this.block(handler.childForFieldName('body'), scope)] : [];
        return [{ k: 'try', body, handlers, orelse: [], final: finalizer ? this.block(finalizer.childForFieldName('body'), scope) : [], at }];
      }
      case 'do_statement': {
        // do body while (test)  ==  body; while (test) body
        const body = this.block(node.childForFieldName('body'), scope);
        const test = node.childForFieldName('condition');
        this.findCalls(test, scope);
        return test ? [...body, { k: 'while', test: refOf(unparenthesized(test)), body, orelse: [], at }] : body;
      }
      case 'switch_statement':
        return this.switchStatement(node, scope);
      case 'throw_statement':
        this.findCalls(node, scope);
        return [{ k: 'raise', at, span: spanOf(node) }];
      case 'break_statement':
        return [{ k: 'break', at }];
      case 'continue_statement':
        return [{ k: 'continue', at }];
      default:
        if (BLOCKS.has(node.type)) {
          // Blocks not lowered here (labeled statements): their calls are still found, their bindings not trusted.
          for (const child of namedChildren(node)) {
            if (child.type === 'statement_block' || BLOCKS.has(child.type) || isStatement(child)) this.statement(child, scope);
            else this.findCalls(child, scope);
          }
          return [];
        }
        this.findCalls(node, scope);
        return [];
    }
  }

  /**
   * `switch (v) { case a: ...; break; default: ... }` as an if chain on `v === a`. A case that falls through
   * into the next, or breaks from inside a branch, leaves the whole switch out (its calls are still found).
   */
  private switchStatement(node: Node, scope: number): Stmt[] {
    const value = node.childForFieldName('value');
    const body = node.childForFieldName('body');
    if (!value || !body) return [];
    this.findCalls(value, scope);
    const cases: { test?: Node; body: Stmt[] }[] = [];
    const clauses = namedChildren(body).filter((c) => c.type === 'switch_case' || c.type === 'switch_default');
    let lowered = true;
    for (const [i, clause] of clauses.entries()) {
      const test = clause.type === 'switch_case' ? clause.childForFieldName('value') : undefined;
      this.findCalls(test ?? null, scope);
      const stmts = namedChildren(clause).filter((c) => c !== test).flatMap((c) => this.statement(c, scope));
      const last = stmts[stmts.length - 1];
      const ends = last && (last.k === 'break' || last.k === 'return' || last.k === 'raise');
      if ((!ends && i < clauses.length - 1) || breaksInside(last?.k === 'break' ? stmts.slice(0, -1) : stmts)) lowered = false;
      cases.push({ test: test ?? undefined, body: last?.k === 'break' ? stmts.slice(0, -1) : stmts });
    }
    if (!lowered) return [];
    const fallback = cases.find((c) => !c.test)?.body ?? [];
    const chain = cases.filter((c) => c.test).reduceRight<Stmt[]>(
      (otherwise, c) => [{ k: 'if', test: refOf(c.test!), equals: refOf(unparenthesized(value)), then: c.body, otherwise, at: c.test!.startIndex }],
      fallback,
    );
    return chain;
  }

  private block(node: Node | null, scope: number): Stmt[] {
    return node ? this.statement(node, scope) : [];
  }

  /** `i++`, `i += 1`, `i = i + 1` in a for header. */
  private updateStatement(node: Node, scope: number): Stmt[] {
    const at = node.startIndex;
    this.findCalls(node, scope);
    if (node.type === 'update_expression') {
      const arg = node.childForFieldName('argument');
      const op = node.childForFieldName('operator');
      return arg && op ? [{ k: 'aug', target: refOf(arg), op: textOf(op, this.source) === '++' ? '+' : '-', at }] : [];
    }
    if (node.type === 'augmented_assignment_expression') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const op = node.childForFieldName('operator');
      return left && right && op ? [{ k: 'aug', target: refOf(left), op: textOf(op, this.source).slice(0, -1), value: refOf(right), at }] : [];
    }
    if (node.type === 'assignment_expression') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      return left ? [{ k: 'assign', targets: [refOf(left)], value: right ? refOf(right) : undefined, at }] : [];
    }
    return [{ k: 'expr', value: refOf(node), at }];
  }


  private classDecl(node: Node, parent: number): number {
    const name = node.childForFieldName('name');
    const heritage = namedChildren(node).find((c) => c.type === 'class_heritage');
    const extendsClause = heritage ? namedChildren(heritage).find((c) => c.type === 'extends_clause') : undefined;
    const index = this.scopes.length;
    const scope: MutableScope = {
      kind: 'class', name: name ? textOf(name, this.source) : '', parent, nameSpan: spanOf(name ?? node),
      extent: spanOf(node), params: [], fields: [],
      bases: extendsClause ? namedChildren(extendsClause).filter((c) => c.type !== 'type_arguments').map(refOf) : [], decorators: [], body: [],
    };
    this.scopes.push(scope);
    const body = node.childForFieldName('body');
    const members = body ? namedChildren(body) : [];
    // Field initialisers run on each new instance: before the constructor's body, or right after its
    // super() call in a derived class.
    const fields: Stmt[] = [];
    for (const member of members) {
      const value = member.type === 'public_field_definition' ? member.childForFieldName('value') : null;
      const isStatic = member.children.some((c) => c?.type === 'static');
      if (!value) continue;
      this.findCalls(member, index);
      if (!isStatic) fields.push({ k: 'assign', targets: [refOf(member.childForFieldName('name') ?? member)], value: refOf(value), at: member.startIndex });
    }
    for (const member of members) {
      if (member.type !== 'method_definition') continue;
      const name = member.childForFieldName('name');
      const fi = this.functionDecl(member, index, name);
      if (name && textOf(name, this.source) === 'constructor' && fields.length) withFields(this.scopes[fi].body, fields);
      scope.body.push({ k: 'def', scope: fi, at: member.startIndex });
    }
    return index;
  }

  private functionDecl(node: Node, parent: number, name: Node | null): number {
    const params = node.childForFieldName('parameters');
    const index = this.scopes.length;
    const scope: MutableScope = {
      kind: 'function', name: name ? textOf(name, this.source) : '', parent, nameSpan: spanOf(name ?? node),
      extent: spanOf(node),
      params: params ? namedChildren(params).flatMap((p) => paramOf(p, this.source)) : [], fields: [], bases: [], decorators: [], body: [],
    };
    this.scopes.push(scope);
    const body = node.childForFieldName('body');
    if (body) scope.body.push(...namedChildren(body).flatMap((child) => this.statement(child, index)));
    return index;
  }

  private findCalls(node: Node | null, scope: number): void {
    if (!node || !mentionsAny(textOf(node, this.source), this.candidates)) return;
    findDescendants(node, CALLS, NOTHING, (n) => {
      const callee = n.childForFieldName(n.type === 'call_expression' ? 'function' : 'constructor');
      const last = callee?.type === 'member_expression' ? callee.childForFieldName('property') : callee;
      if (last && this.candidates.includes(textOf(last, this.source))) this.calls.push({ scope, call: refOf(n), span: spanOf(n) });
    });
  }
}

/** Puts the field initialisers where TypeScript runs them: after a leading `super(...)` call, else first. */
function withFields(body: Stmt[], fields: readonly Stmt[]): void {
  const afterSuper = body.findIndex((s) => s.k === 'expr' && s.superCall) + 1;
  body.splice(afterSuper, 0, ...fields);
}

/** A `break` that would leave the switch from inside a branch (loops inside keep their own). */
function breaksInside(stmts: readonly Stmt[]): boolean {
  return stmts.some((s) => s.k === 'break' || (s.k === 'if' && (breaksInside(s.then) || breaksInside(s.otherwise))) || (s.k === 'try' && (breaksInside(s.body) || s.handlers.some(breaksInside) || breaksInside(s.final))));
}

function isStatement(node: Node): boolean {
  return node.type.endsWith('_statement') || node.type.endsWith('_declaration');
}

function typeName(node: Node | null, source: string): string | undefined {
  if (!node) return undefined;
  const inner = node.type === 'type_annotation' ? namedChildren(node)[0] : node;
  return inner ? textOf(inner, source) : undefined;
}

function importsOf(node: Node, source: string): ImportBinding[] {
  const sourceNode = node.childForFieldName('source');
  const fragment = sourceNode ? namedChildren(sourceNode).find((c) => c.type === 'string_fragment') : undefined;
  if (!fragment) return [];
  const module = textOf(fragment, source);
  const clause = namedChildren(node).find((c) => c.type === 'import_clause');
  const out: ImportBinding[] = [];
  for (const part of clause ? namedChildren(clause) : []) {
    if (part.type === 'identifier') out.push({ local: textOf(part, source), module });
    else if (part.type === 'namespace_import') {
      const id = namedChildren(part)[0];
      if (id) out.push({ local: textOf(id, source), module });
    } else if (part.type === 'named_imports') {
      for (const spec of namedChildren(part)) {
        const name = spec.childForFieldName('name');
        const alias = spec.childForFieldName('alias');
        if (name) out.push({ local: textOf(alias ?? name, source), module, member: textOf(name, source) });
      }
    }
  }
  return out;
}

function paramOf(node: Node, source: string): Param[] {
  if (node.type !== 'required_parameter' && node.type !== 'optional_parameter') return [];
  const pattern = node.childForFieldName('pattern');
  if (!pattern) return [];
  const value = node.childForFieldName('value');
  const variadic = pattern.type === 'rest_pattern' ? 'list' : undefined;
  const name = variadic ? namedChildren(pattern)[0] : pattern;
  if (!name || name.type !== 'identifier') return [];
  return [{ name: textOf(name, source), default: value ? refOf(value) : undefined, annotation: typeName(node.childForFieldName('type'), source), variadic }];
}

export function typescriptDeclaredNames(root: Node, source: string): string[] {
  const names: string[] = [];
  for (const child of namedChildren(root)) {
    const decl = child.type === 'export_statement' ? child.childForFieldName('declaration') : child;
    if (decl?.type === 'class_declaration') {
      const name = decl.childForFieldName('name');
      if (name) names.push(textOf(name, source));
    } else if (child.type === 'import_statement') {
      for (const imp of importsOf(child, source)) names.push(imp.local);
    }
  }
  return names;
}

export function typescriptFragment(node: Node, source: string, candidates: readonly string[]): Omit<Fragment, 'id'> {
  const builder = new FragmentBuilder(source, candidates);
  const body = builder.statement(node, -1);
  return { span: spanOf(node), imports: builder.imports, scopes: builder.scopes, calls: builder.calls, body };
}

const BINARY_OPS = new Set(['+', '-', '*', '/', '%', '**']);
const COMPARE_OPS: Record<string, CompareOp> = { '===': '==', '==': '==', '!==': '!=', '!=': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const LOGIC_OPS: Record<string, 'or' | 'and' | 'nullish'> = { '||': 'or', '&&': 'and', '??': 'nullish' };
const TRANSPARENT = new Set(['parenthesized_expression', 'as_expression', 'satisfies_expression', 'non_null_expression', 'type_assertion']);

export function typescriptExpr(node: Node, source: string): Expr {
  const span = spanOf(node);
  const text = () => textOf(node, source);
  const sub = (n: Node | null): Expr => (n ? typescriptExpr(n, source) : { k: 'unknown', text: '', span });
  if (TRANSPARENT.has(node.type)) {
    const inner = namedChildren(node)[0];
    return inner ? typescriptExpr(inner, source) : { k: 'unknown', text: text(), span };
  }
  switch (node.type) {
    case 'number': {
      // JavaScript has one number type: a whole value is an integer size (above 2^53, the double the
      // literal rounds to), anything else is not.
      const n = Number(text().replace(/_/g, ''));
      return Number.isInteger(n) ? { k: 'int', value: BigInt(n), span } : { k: 'float', value: n, span };
    }
    case 'string':
      return { k: 'str', value: namedChildren(node).filter((c) => c.type === 'string_fragment').map((c) => textOf(c, source)).join(''), span };
    case 'true':
      return { k: 'bool', value: true, span };
    case 'false':
      return { k: 'bool', value: false, span };
    case 'null':
    case 'undefined':
      return { k: 'none', span };
    case 'property_identifier':
      return node.parent?.type === 'public_field_definition' ? { k: 'attr', object: { k: 'name', id: 'this', span }, id: text(), span } : { k: 'unknown', text: text(), span };
    case 'identifier':
    case 'this':
      if (text() === 'Infinity' || text() === 'NaN') return { k: 'float', value: Number(text()), span };
      return text() === 'undefined' ? { k: 'none', span } : { k: 'name', id: text(), span };
    case 'member_expression': {
      const prop = node.childForFieldName('property');
      return { k: 'attr', object: sub(node.childForFieldName('object')), id: prop ? textOf(prop, source) : '', span };
    }
    case 'subscript_expression':
      return { k: 'index', object: sub(node.childForFieldName('object')), index: sub(node.childForFieldName('index')), span };
    case 'binary_expression': {
      const op = node.childForFieldName('operator');
      const opText = op ? textOf(op, source) : '';
      const left = sub(node.childForFieldName('left'));
      const right = sub(node.childForFieldName('right'));
      if (BINARY_OPS.has(opText)) return { k: 'binary', op: opText as BinaryOp, left, right, span };
      if (COMPARE_OPS[opText]) return { k: 'compare', op: COMPARE_OPS[opText], left, right, span };
      if (LOGIC_OPS[opText]) return { k: 'logic', op: LOGIC_OPS[opText], left, right, span };
      return { k: 'unknown', text: text(), span };
    }
    case 'unary_expression': {
      const op = node.childForFieldName('operator');
      const opText = op ? textOf(op, source) : '';
      const operand = sub(node.childForFieldName('argument'));
      if (opText === '-' || opText === '+') return { k: 'unary', op: opText, operand, span };
      if (opText === '!') return { k: 'unary', op: 'not', operand, span };
      return { k: 'unknown', text: text(), span };
    }
    case 'ternary_expression':
      return { k: 'cond', test: sub(node.childForFieldName('condition')), then: sub(node.childForFieldName('consequence')), otherwise: sub(node.childForFieldName('alternative')), span };
    case 'call_expression':
    case 'new_expression': {
      const isNew = node.type === 'new_expression';
      const argsNode = node.childForFieldName('arguments');
      const args: Arg[] = argsNode ? namedChildren(argsNode).map((a) => typescriptArg(a, source)) : [];
      return { k: 'call', callee: sub(node.childForFieldName(isNew ? 'constructor' : 'function')), args, isNew, span };
    }
    case 'array':
      return { k: 'list', items: namedChildren(node).map((c) => typescriptExpr(c, source)), span };
    case 'arrow_function': {
      // `(x) => expr`; a block body is not followed (its calls are found, its value is unknown).
      const body = node.childForFieldName('body');
      const params = node.childForFieldName('parameters');
      const single = node.childForFieldName('parameter');
      const names = single ? [{ name: textOf(single, source) }] : params ? namedChildren(params).flatMap((p) => paramOf(p, source)).filter((p) => !p.variadic) : undefined;
      if (!body || body.type === 'statement_block' || !names) return { k: 'unknown', text: text(), span };
      return { k: 'lambda', params: names.map((p) => ({ name: p.name })), body: sub(body), span };
    }
    case 'object': {
      const entries: DictEntry[] = [];
      for (const c of namedChildren(node)) {
        if (c.type === 'pair') {
          const key = c.childForFieldName('key');
          const keyExpr: Expr = key && (key.type === 'property_identifier' || key.type === 'identifier')
            ? { k: 'str', value: textOf(key, source), span: spanOf(key) }
            : sub(key);
          entries.push({ key: keyExpr, value: sub(c.childForFieldName('value')) });
        } else if (c.type === 'shorthand_property_identifier') {
          entries.push({ key: { k: 'str', value: textOf(c, source), span: spanOf(c) }, value: { k: 'name', id: textOf(c, source), span: spanOf(c) } });
        } else if (c.type === 'spread_element') {
          entries.push({ spread: sub(namedChildren(c)[0] ?? null), value: { k: 'none', span } });
        }
      }
      return { k: 'dict', entries, span };
    }
    default:
      return { k: 'unknown', text: text(), span };
  }
}

function typescriptArg(node: Node, source: string): Arg {
  if (node.type === 'spread_element') {
    const inner = namedChildren(node)[0];
    return { spread: 'list', value: inner ? typescriptExpr(inner, source) : { k: 'unknown', text: '', span: spanOf(node) }, span: spanOf(node) };
  }
  return { value: typescriptExpr(node, source), span: spanOf(node) };
}
