/** Python expressions and parameter lists -> the core's Expr and Param, from a mirrored subtree. */
import type { Arg, BinaryOp, CompareOp, DictEntry, Expr, Span } from '../core/ir/expr';
import type { Param } from '../core/ir/source';
import type { LineIndex } from './lineIndex';
import { mirror, type Shape } from './mirror';
import { fieldOf, fieldsOf, namedOf, synText, type Syn } from './syn';
import type { Node } from './nodes';

const BINARY_OPS = new Set<string>(['+', '-', '*', '/', '//', '%', '**', '@']);
const COMPARE_OPS = new Set<string>(['==', '!=', '<', '<=', '>', '>=', 'is', 'is not', 'in', 'not in']);
/** Where Python's operators are read; `slice` needs only the type of its colons. */
export const PYTHON_OPERATORS = new Set([
  'binary_operator',
  'unary_operator',
  'boolean_operator',
  'comparison_operator',
  'augmented_assignment',
]);
/** A subtree read from the tree converts alone: nodes read by their text or not followed are not copied. */
const EXPRESSION: Shape = {
  leaves: new Set([
    'identifier',
    'integer',
    'float',
    'true',
    'false',
    'none',
    'comment',
    'string_content',
    'type',
    'ellipsis',
    'concatenated_string',
    'dictionary_comprehension',
    'named_expression',
    'await',
  ]),
  operatorsUnder: PYTHON_OPERATORS,
};

/** Converts `node`, read from the tree. */
export function pythonExpr(node: Node, source: string, lines: LineIndex): Expr {
  return new Converter(source, lines, 0).expr(mirror(node, EXPRESSION, source));
}

/** Converts a node of a fragment's copy whose statement has moved by `delta` since it was copied. */
export function pythonExprOf(node: Syn, source: string, lines: LineIndex, delta: number): Expr {
  return new Converter(source, lines, delta).expr(node);
}

/** Brackets an expression may be inside; within more, it is unknown. */
const MAX_BRACKETS = 200;
const BRACKETED = new Set([
  'call',
  'subscript',
  'parenthesized_expression',
  'list',
  'tuple',
  'dictionary',
  'set',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
  'generator_expression',
]);

class Converter {
  /** Brackets around the expression being converted. */
  private brackets = 0;
  constructor(
    private readonly source: string,
    private readonly lines: LineIndex,
    private readonly delta: number,
  ) {}

  private spanOf(node: Syn): Span {
    return this.lines.span(node.start + this.delta, node.end + this.delta);
  }

  private text(node: Syn): string {
    return this.source.slice(node.start + this.delta, node.end + this.delta);
  }

  expr(node: Syn): Expr {
    const span = this.spanOf(node);
    if (!BRACKETED.has(node.type)) return this.convert(node, span) ?? { k: 'unknown', text: this.text(node), span };
    // Inside more brackets than CPython reads (its tokenizer refuses 200), an expression is not followed:
    // each costs the interpreter stack, and running out of it depends on the machine's state.
    if (this.brackets >= MAX_BRACKETS) return { k: 'unknown', text: this.text(node), span };
    this.brackets++;
    try {
      return this.convert(node, span) ?? { k: 'unknown', text: this.text(node), span };
    } finally {
      this.brackets--;
    }
  }

  /** The expression, or undefined for what the core does not follow. */
  private convert(node: Syn, span: Span): Expr | undefined {
    switch (node.type) {
      case 'integer': {
        const digits = this.text(node).replace(/_/g, '');
        // Decimal, 0x, 0o and 0b literals; anything else (`1l` in error-recovered code, `1j`) is not a size.
        if (!/^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)$/.test(digits) || digits.length > 1_000) return undefined;
        return { k: 'int', value: BigInt(digits.replace(/^0+(?=\d)/, '')), span };
      }
      case 'float':
        return /[jJ]$/.test(this.text(node))
          ? undefined
          : { k: 'float', value: Number(this.text(node).replace(/_/g, '')), span };
      case 'true':
        return { k: 'bool', value: true, span };
      case 'false':
        return { k: 'bool', value: false, span };
      case 'none':
        return { k: 'none', span };
      case 'string':
        return this.string(node, span);
      case 'list_splat':
      case 'list_splat_pattern':
        return { k: 'star', value: this.sub(namedOf(node)[0], span), span };
      case 'slice': {
        const [lower, upper, step] = sliceParts(node);
        return {
          k: 'slice',
          lower: lower && this.expr(lower),
          upper: upper && this.expr(upper),
          step: step && this.expr(step),
          span,
        };
      }
      case 'identifier':
        return { k: 'name', id: this.text(node), span };
      case 'attribute': {
        const attr = fieldOf(node, 'attribute');
        return { k: 'attr', object: this.sub(fieldOf(node, 'object'), span), id: attr ? this.text(attr) : '', span };
      }
      case 'subscript': {
        // `x[:, [-1], :]` holds one subscript field per item: the index is their tuple, as Python builds it.
        const items = fieldsOf(node, 'subscript');
        const index =
          items.length > 1
            ? { k: 'list' as const, items: items.map((n) => this.sub(n, span)), tuple: true, span }
            : this.sub(items[0], span);
        return { k: 'index', object: this.sub(fieldOf(node, 'value'), span), index, span };
      }
      case 'parenthesized_expression': {
        const inner = namedOf(node)[0];
        return inner ? this.expr(inner) : undefined;
      }
      case 'binary_operator': {
        const op = this.operator(node);
        if (!BINARY_OPS.has(op)) return undefined;
        const opNode = fieldOf(node, 'operator');
        return {
          k: 'binary',
          op: op as BinaryOp,
          left: this.sub(fieldOf(node, 'left'), span),
          right: this.sub(fieldOf(node, 'right'), span),
          span,
          opSpan: opNode && this.spanOf(opNode),
        };
      }
      case 'unary_operator': {
        const op = this.operator(node);
        if (op !== '-' && op !== '+') return undefined;
        return { k: 'unary', op, operand: this.sub(fieldOf(node, 'argument'), span), span };
      }
      case 'not_operator':
        return { k: 'unary', op: 'not', operand: this.sub(fieldOf(node, 'argument'), span), span };
      case 'boolean_operator':
        return {
          k: 'logic',
          op: this.operator(node) === 'and' ? 'and' : 'or',
          left: this.sub(fieldOf(node, 'left'), span),
          right: this.sub(fieldOf(node, 'right'), span),
          span,
        };
      case 'comparison_operator': {
        const operands = namedOf(node);
        const ops = fieldsOf(node, 'operators');
        const op = ops.length === 1 ? this.text(ops[0]).replace(/\s+/g, ' ') : '';
        if (operands.length !== 2 || !COMPARE_OPS.has(op)) return undefined;
        return {
          k: 'compare',
          op: op as CompareOp,
          left: this.sub(operands[0], span),
          right: this.sub(operands[1], span),
          span,
        };
      }
      case 'conditional_expression': {
        const [then, test, otherwise] = namedOf(node);
        if (!then || !test || !otherwise) return undefined;
        return {
          k: 'cond',
          test: this.sub(test, span),
          then: this.sub(then, span),
          otherwise: this.sub(otherwise, span),
          span,
        };
      }
      case 'call': {
        const argsNode = fieldOf(node, 'arguments');
        // `f(x for x in xs)` passes the generator itself as the only argument.
        const args: Arg[] = !argsNode
          ? []
          : argsNode.type === 'generator_expression'
            ? [{ value: this.expr(argsNode), span: this.spanOf(argsNode) }]
            : namedOf(argsNode).map((a) => this.arg(a));
        return { k: 'call', callee: this.sub(fieldOf(node, 'function'), span), args, isNew: false, span };
      }
      case 'list':
      case 'tuple':
      case 'expression_list':
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
        return {
          k: 'list',
          items: namedOf(node).map((c) => this.expr(c)),
          tuple: node.type !== 'list' && node.type !== 'list_pattern',
          span,
        };
      case 'set':
        return { k: 'list', items: namedOf(node).map((c) => this.expr(c)), set: true, span };
      case 'list_comprehension':
      case 'generator_expression':
        return this.comprehension(node, span);
      case 'set_comprehension': {
        const found = this.comprehension(node, span);
        return found && { ...found, set: true };
      }
      case 'lambda':
        return this.lambda(node, span);
      case 'dictionary': {
        const entries: DictEntry[] = namedOf(node).map((c) =>
          c.type === 'pair'
            ? { key: this.sub(fieldOf(c, 'key'), span), value: this.sub(fieldOf(c, 'value'), span) }
            : { spread: this.sub(namedOf(c)[0], span), value: { k: 'none', span } },
        );
        return { k: 'dict', entries, span };
      }
      default:
        return undefined;
    }
  }

  /** A part of an expression; one the tree lacks (in code being typed) is unknown, at the span of the whole. */
  private sub(n: Syn | undefined, span: Span): Expr {
    return n ? this.expr(n) : { k: 'unknown', text: '', span };
  }

  private operator(node: Syn): string {
    const op = fieldOf(node, 'operator');
    return op ? this.text(op) : '';
  }

  private string(node: Syn, span: Span): Expr {
    const parts = namedOf(node).filter((p) => p.type === 'string_content' || p.type === 'interpolation');
    if (!parts.some((p) => p.type === 'interpolation'))
      return { k: 'str', value: parts.map((p) => this.text(p)).join(''), span };
    // f"proj_{name}": the pieces, joined when each is known; a format spec or conversion is not followed.
    const pieces: (string | Expr)[] = [];
    for (const p of parts) {
      if (p.type === 'string_content') pieces.push(this.text(p));
      else {
        const inner = namedOf(p);
        if (inner.length !== 1) return { k: 'unknown', text: this.text(node), span };
        pieces.push(this.expr(inner[0]));
      }
    }
    return { k: 'fstring', parts: pieces, span };
  }

  private comprehension(node: Syn, span: Span): Extract<Expr, { k: 'comprehension' }> | undefined {
    const body = fieldOf(node, 'body');
    const clauses = namedOf(node).filter((c) => c.index !== body?.index);
    const first = clauses[0];
    const left = first?.type === 'for_in_clause' ? fieldOf(first, 'left') : undefined;
    const right = first?.type === 'for_in_clause' ? fieldOf(first, 'right') : undefined;
    if (!body || !left || !right || clauses.slice(1).some((c) => c.type === 'for_in_clause')) return undefined;
    const filters = clauses.slice(1).map((c) => {
      const test = namedOf(c)[0];
      return test ? this.expr(test) : { k: 'unknown' as const, text: '', span };
    });
    return {
      k: 'comprehension',
      element: this.expr(body),
      variable: left.type === 'identifier' ? this.text(left) : undefined,
      target: this.expr(left),
      iterable: this.expr(right),
      filters,
      span,
    };
  }

  private lambda(node: Syn, span: Span): Expr | undefined {
    const params = fieldOf(node, 'parameters');
    const items = params ? namedOf(params) : [];
    const parsed = items.flatMap((p) => paramOf(p, (n) => this.text(n)));
    if (parsed.some((p) => p.variadic)) return undefined;
    const body = fieldOf(node, 'body');
    return {
      k: 'lambda',
      params: parsed.map((p, i) => {
        const value = fieldOf(items[i], 'value');
        return { name: p.name, default: value ? this.expr(value) : undefined };
      }),
      body: body ? this.expr(body) : { k: 'unknown', text: '', span },
      span,
    };
  }

  private arg(node: Syn): Arg {
    const span = this.spanOf(node);
    const missing: Expr = { k: 'unknown', text: '', span };
    if (node.type === 'keyword_argument') {
      const name = fieldOf(node, 'name');
      const value = fieldOf(node, 'value');
      return { name: name ? this.text(name) : '', value: value ? this.expr(value) : missing, span };
    }
    if (node.type === 'list_splat' || node.type === 'dictionary_splat') {
      const inner = namedOf(node)[0];
      return { spread: node.type === 'list_splat' ? 'list' : 'dict', value: inner ? this.expr(inner) : missing, span };
    }
    return { value: this.expr(node), span };
  }
}

/** `a:b:c` with any part left out: the expressions before, between and after the colons. */
function sliceParts(node: Syn): (Syn | undefined)[] {
  const parts: (Syn | undefined)[] = [undefined, undefined, undefined];
  let i = 0;
  for (const child of node.children) {
    if (child.type === ':') i++;
    else if (child.named && child.type !== 'comment') parts[i] = child;
  }
  return parts;
}

/** The parameters of a `def` in order; those after `*` or `*args` are keyword-only. */
export function pythonParams(node: Syn, source: string): Param[] {
  const out: Param[] = [];
  let keywordOnly = false;
  for (const child of namedOf(node)) {
    if (child.type === 'keyword_separator') keywordOnly = true;
    for (const p of paramOf(child, (n) => synText(n, source))) {
      out.push(keywordOnly && !p.variadic ? { ...p, keywordOnly } : p);
      if (p.variadic === 'list') keywordOnly = true;
    }
  }
  return out;
}

/** Names and annotations are read through `text`; a default is kept as the offsets of the copy. */
function paramOf(node: Syn, text: (n: Syn) => string): Param[] {
  const annotation = (n: Syn) => {
    const type = fieldOf(n, 'type');
    return type ? text(type) : undefined;
  };
  switch (node.type) {
    case 'identifier':
      return [{ name: text(node) }];
    case 'default_parameter':
    case 'typed_default_parameter': {
      const name = fieldOf(node, 'name');
      const value = fieldOf(node, 'value');
      return name
        ? [
            {
              name: text(name),
              default: value ? { start: value.start, end: value.end } : undefined,
              annotation: annotation(node),
            },
          ]
        : [];
    }
    case 'typed_parameter': {
      const inner = namedOf(node)[0];
      if (!inner) return [];
      const variadic =
        inner.type === 'list_splat_pattern' ? 'list' : inner.type === 'dictionary_splat_pattern' ? 'dict' : undefined;
      const name = variadic ? namedOf(inner)[0] : inner;
      return name ? [{ name: text(name), annotation: annotation(node), variadic }] : [];
    }
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern': {
      const name = namedOf(node)[0];
      return name ? [{ name: text(name), variadic: node.type === 'list_splat_pattern' ? 'list' : 'dict' }] : [];
    }
    default:
      return [];
  }
}
