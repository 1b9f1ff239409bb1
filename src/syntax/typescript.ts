/**
 * TypeScript tree -> SourceModel fragments: imports, `const` bindings, classes with constructor parameters
 * and `this.x` assignments, functions; expressions are converted on demand by `typescriptExpr`
 * (typescriptExpr.ts).
 */
import {
  runsCode,
  type CallSite,
  type Fragment,
  type ImportBinding,
  type Param,
  type Scope,
  type Stmt,
} from '../core/ir/source';
import { findDescendants, mentionsAny, namedChildren, refOf, spanOf, textOf, type Node } from './nodes';
import { exportAliases, importsOf, reexportsOf } from './typescriptImports';
import { PATTERN_NAMES, paramOf, typeName } from './typescriptExpr';
import { switchStatement, unparenthesized } from './typescriptSwitch';

const CALLS = new Set(['call_expression', 'new_expression']);
/** Calls, and the arrow functions whose bodies are lowered on their own (their calls are theirs). */
const CALLS_AND_ARROWS = new Set([...CALLS, 'arrow_function', 'method_definition']);
const ARROWS = new Set(['arrow_function', 'method_definition']);

const BLOCKS = new Set([
  'statement_block',
  'if_statement',
  'else_clause',
  'for_statement',
  'for_in_statement',
  'while_statement',
  'do_statement',
  'try_statement',
  'catch_clause',
  'finally_clause',
  'switch_statement',
  'switch_body',
  'switch_case',
  'switch_default',
  'labeled_statement',
]);

interface MutableScope extends Scope {
  readonly params: Param[];
  readonly locals: string[];
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
        if (node.childForFieldName('source')) {
          if (scope === -1) this.imports.push(...reexportsOf(node, this.source));
          return [];
        }
        this.findCalls(node, scope);
        return exportAliases(node);
      }
      case 'class_declaration':
      case 'abstract_class_declaration':
        this.declare(scope, node.childForFieldName('name'));
        return [{ k: 'def', scope: this.classDecl(node, scope), at }];
      case 'function_declaration':
      case 'generator_function_declaration':
        this.declare(scope, node.childForFieldName('name'));
        return [{ k: 'def', scope: this.functionDecl(node, scope, node.childForFieldName('name')), at }];
      case 'lexical_declaration':
      case 'variable_declaration': {
        const out: Stmt[] = [];
        for (const d of namedChildren(node)) {
          if (d.type !== 'variable_declarator') continue;
          const name = d.childForFieldName('name');
          const value = d.childForFieldName('value');
          const type = d.childForFieldName('type');
          this.declare(scope, name);
          if (name)
            out.push({
              k: 'assign',
              targets: [refOf(name)],
              value: value ? refOf(value) : undefined,
              annotation: typeName(type, this.source),
              at,
            });
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
          return left && right && op
            ? [{ k: 'aug', target: refOf(left), op: textOf(op, this.source).slice(0, -1), value: refOf(right), at }]
            : [];
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
        if (node.childForFieldName('kind')) this.declare(scope, left);
        this.findCalls(right, scope);
        const body = this.block(node.childForFieldName('body'), scope);
        const of = node.children.some((c) => c?.type === 'of');
        return right && of
          ? [{ k: 'for', target: left ? refOf(left) : undefined, iterable: refOf(right), body, orelse: [], at }]
          : [];
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
        return [
          {
            k: 'try',
            body,
            handlers,
            orelse: [],
            final: finalizer ? this.block(finalizer.childForFieldName('body'), scope) : [],
            at,
          },
        ];
      }
      case 'do_statement': {
        // do body while (test)  ==  body; while (test) body
        const body = this.block(node.childForFieldName('body'), scope);
        const test = node.childForFieldName('condition');
        this.findCalls(test, scope);
        return test ? [...body, { k: 'while', test: refOf(unparenthesized(test)), body, orelse: [], at }] : body;
      }
      case 'switch_statement':
        return switchStatement(
          node,
          (n) => this.statement(n, scope),
          (n) => this.findCalls(n, scope),
        );
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
            if (child.type === 'statement_block' || BLOCKS.has(child.type) || isStatement(child))
              this.statement(child, scope);
            else this.findCalls(child, scope);
          }
          return [];
        }
        this.findCalls(node, scope);
        return [];
    }
  }

  /** A name the function declares (`let`, `const`, `var`, a nested function or class): its own, not the enclosing one's. */
  private declare(scope: number, name: Node | null): void {
    const locals = scope >= 0 && name ? this.scopes[scope].locals : undefined;
    if (!locals || !name) return;
    if (name.type === 'identifier') locals.push(textOf(name, this.source));
    else findDescendants(name, PATTERN_NAMES, ARROWS, (n) => locals.push(textOf(n, this.source)));
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
      return left && right && op
        ? [{ k: 'aug', target: refOf(left), op: textOf(op, this.source).slice(0, -1), value: refOf(right), at }]
        : [];
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
      kind: 'class',
      name: name ? textOf(name, this.source) : '',
      parent,
      nameSpan: spanOf(name ?? node),
      extent: spanOf(node),
      params: [],
      locals: [],
      fields: [],
      bases: extendsClause
        ? namedChildren(extendsClause)
            .filter((c) => c.type !== 'type_arguments')
            .map(refOf)
        : [],
      decorators: [],
      body: [],
      code: false,
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
      if (!isStatic)
        fields.push({
          k: 'assign',
          targets: [refOf(member.childForFieldName('name') ?? member)],
          value: refOf(value),
          at: member.startIndex,
        });
    }
    for (const member of members) {
      if (member.type !== 'method_definition') continue;
      const name = member.childForFieldName('name');
      const fi = this.functionDecl(member, index, name);
      if (name && textOf(name, this.source) === 'constructor' && fields.length)
        withFields(this.scopes[fi].body, fields);
      scope.body.push({ k: 'def', scope: fi, at: member.startIndex });
    }
    scope.code = runsCode(scope.body);
    return index;
  }

  private functionDecl(node: Node, parent: number, name: Node | null): number {
    const params = node.childForFieldName('parameters');
    // `x => { ... }`: an arrow's single parameter without parentheses.
    const single = node.childForFieldName('parameter');
    const index = this.scopes.length;
    const paramList = single
      ? [{ name: textOf(single, this.source) }]
      : params
        ? namedChildren(params).flatMap((p) => paramOf(p, this.source))
        : [];
    const scope: MutableScope = {
      kind: 'function',
      name: name ? textOf(name, this.source) : '',
      parent,
      nameSpan: spanOf(name ?? node),
      extent: spanOf(node),
      params: paramList,
      locals: paramList.flatMap((p) => [p.name, ...(p.fields ?? []).map((f) => f.name)]),
      fields: [],
      bases: [],
      decorators: [],
      body: [],
      code: false,
    };
    this.scopes.push(scope);
    const body = node.childForFieldName('body');
    if (body) scope.body.push(...namedChildren(body).flatMap((child) => this.statement(child, index)));
    scope.code = runsCode(scope.body);
    return index;
  }

  /**
   * Records the layer calls under `node`. An arrow function with a block body (`tf.tidy(() => { ... })`)
   * becomes a function scope of its own, found by its offset when the expression is evaluated; the calls
   * of an arrow with an expression body stay the enclosing scope's, as its lambda runs there.
   */
  private findCalls(node: Node | null, scope: number): void {
    if (!node) return;
    const text = textOf(node, this.source);
    if (!mentionsAny(text, this.candidates) && !text.includes('=>')) return;
    findDescendants(node, CALLS_AND_ARROWS, ARROWS, (n) => {
      // `{ getModel() { ... } }`: an object literal's method is a function scope, as an arrow with a block is.
      if (n.type === 'method_definition') {
        if (n.parent?.type === 'object') this.functionDecl(n, scope, n.childForFieldName('name'));
        else this.findCalls(n.childForFieldName('body'), scope);
        return;
      }
      if (n.type === 'arrow_function') {
        const body = n.childForFieldName('body');
        if (body?.type !== 'statement_block') this.findCalls(body, scope);
        else {
          const declared = n.parent?.type === 'variable_declarator' ? n.parent.childForFieldName('name') : null;
          this.functionDecl(n, scope, declared?.type === 'identifier' ? declared : null);
        }
        return;
      }
      const callee = n.childForFieldName(n.type === 'call_expression' ? 'function' : 'constructor');
      const last = callee?.type === 'member_expression' ? callee.childForFieldName('property') : callee;
      if (last && this.candidates.includes(textOf(last, this.source)))
        this.calls.push({ scope, call: refOf(n), span: spanOf(n) });
    });
  }
}

/** Puts the field initialisers where TypeScript runs them: after a leading `super(...)` call, else first. */
function withFields(body: Stmt[], fields: readonly Stmt[]): void {
  const afterSuper = body.findIndex((s) => s.k === 'expr' && s.superCall) + 1;
  body.splice(afterSuper, 0, ...fields);
}

function isStatement(node: Node): boolean {
  return node.type.endsWith('_statement') || node.type.endsWith('_declaration');
}

export function typescriptFragment(
  node: Node,
  source: string,
  candidates: readonly string[],
): Omit<Fragment, 'id' | 'code' | 'defs'> {
  const builder = new FragmentBuilder(source, candidates);
  const body = builder.statement(node, -1);
  return { span: spanOf(node), imports: builder.imports, scopes: builder.scopes, calls: builder.calls, body };
}
