/** TypeScript expressions -> the core's Expr, converted on demand from the tree (see typescript.ts for statements). */
import type { Arg, BinaryOp, CompareOp, DictEntry, Expr } from '../core/ir/expr';
import type { ExprRef, Param } from '../core/ir/source';
import { findDescendants, namedChildren, refOf, spanOf, textOf, type Node } from './nodes';

/** The names a destructuring pattern binds (a default's names too: a name too many is only left unknown). */
export const PATTERN_NAMES = new Set(['identifier', 'shorthand_property_identifier_pattern']);
const NOTHING = new Set<string>();

export function typeName(node: Node | null, source: string): string | undefined {
  if (!node) return undefined;
  const inner = node.type === 'type_annotation' ? namedChildren(node)[0] : node;
  return inner ? textOf(inner, source) : undefined;
}

export function paramOf(node: Node, source: string): Param[] {
  if (node.type !== 'required_parameter' && node.type !== 'optional_parameter') return [];
  const pattern = node.childForFieldName('pattern');
  if (!pattern) return [];
  const value = node.childForFieldName('value');
  if (pattern.type === 'object_pattern' || pattern.type === 'array_pattern') {
    // A destructured parameter takes its argument's place under a name no code can read.
    return [
      {
        name: textOf(pattern, source),
        default: value ? refOf(value) : undefined,
        fields: patternFields(pattern, source),
      },
    ];
  }
  const variadic = pattern.type === 'rest_pattern' ? 'list' : undefined;
  const name = variadic ? namedChildren(pattern)[0] : pattern;
  if (!name || name.type !== 'identifier') return [];
  return [
    {
      name: textOf(name, source),
      default: value ? refOf(value) : undefined,
      annotation: typeName(node.childForFieldName('type'), source),
      variadic,
    },
  ];
}

/**
 * The names a destructuring pattern binds: `{ units, dim = 4, width: w }` from its argument's properties;
 * any other part (nested patterns, `...rest`, array items) binds names that are not followed.
 */
function patternFields(pattern: Node, source: string): NonNullable<Param['fields']> {
  const out: { name: string; key?: string; default?: ExprRef }[] = [];
  const unfollowed = (n: Node) =>
    findDescendants(n, PATTERN_NAMES, NOTHING, (id) => out.push({ name: textOf(id, source) }));
  for (const part of pattern.type === 'object_pattern' ? namedChildren(pattern) : []) {
    const left = part.childForFieldName('left');
    const right = part.childForFieldName('right');
    const key = part.childForFieldName('key');
    const target = part.childForFieldName('value');
    const inner = target?.type === 'assignment_pattern' ? target.childForFieldName('left') : target;
    const innerDefault = target?.type === 'assignment_pattern' ? target.childForFieldName('right') : null;
    if (part.type === 'shorthand_property_identifier_pattern')
      out.push({ name: textOf(part, source), key: textOf(part, source) });
    else if (part.type === 'object_assignment_pattern' && left?.type === 'shorthand_property_identifier_pattern')
      out.push({ name: textOf(left, source), key: textOf(left, source), default: right ? refOf(right) : undefined });
    else if (part.type === 'pair_pattern' && key?.type === 'property_identifier' && inner?.type === 'identifier')
      out.push({
        name: textOf(inner, source),
        key: textOf(key, source),
        default: innerDefault ? refOf(innerDefault) : undefined,
      });
    else unfollowed(part);
  }
  if (pattern.type === 'array_pattern') unfollowed(pattern);
  return out;
}

const BINARY_OPS = new Set(['+', '-', '*', '/', '%', '**']);
const COMPARE_OPS: Record<string, CompareOp> = {
  '===': '==',
  '==': '==',
  '!==': '!=',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const LOGIC_OPS: Record<string, 'or' | 'and' | 'nullish'> = { '||': 'or', '&&': 'and', '??': 'nullish' };
const TRANSPARENT = new Set([
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'type_assertion',
]);

/** Brackets an expression may be inside; within more, it is unknown (as in pythonExpr.ts). */
const MAX_BRACKETS = 200;
const BRACKETED = new Set([
  'call_expression',
  'new_expression',
  'subscript_expression',
  'parenthesized_expression',
  'array',
  'object',
  'arrow_function',
]);
/** Brackets around the expression being converted. */
let brackets = 0;

export function typescriptExpr(node: Node, source: string): Expr {
  if (!BRACKETED.has(node.type)) return convert(node, source);
  // Each level costs the interpreter stack, and running out of it depends on the machine's state.
  if (brackets >= MAX_BRACKETS) return { k: 'unknown', text: textOf(node, source), span: spanOf(node) };
  brackets++;
  try {
    return convert(node, source);
  } finally {
    brackets--;
  }
}

function convert(node: Node, source: string): Expr {
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
      return {
        k: 'str',
        value: namedChildren(node)
          .filter((c) => c.type === 'string_fragment')
          .map((c) => textOf(c, source))
          .join(''),
        span,
      };
    case 'true':
      return { k: 'bool', value: true, span };
    case 'false':
      return { k: 'bool', value: false, span };
    case 'null':
    case 'undefined':
      return { k: 'none', span };
    case 'property_identifier':
      return node.parent?.type === 'public_field_definition'
        ? { k: 'attr', object: { k: 'name', id: 'this', span }, id: text(), span }
        : { k: 'unknown', text: text(), span };
    case 'identifier':
    case 'this':
    case 'super':
      if (text() === 'Infinity' || text() === 'NaN') return { k: 'float', value: Number(text()), span };
      return text() === 'undefined' ? { k: 'none', span } : { k: 'name', id: text(), span };
    case 'member_expression': {
      const prop = node.childForFieldName('property');
      return { k: 'attr', object: sub(node.childForFieldName('object')), id: prop ? textOf(prop, source) : '', span };
    }
    case 'subscript_expression':
      return {
        k: 'index',
        object: sub(node.childForFieldName('object')),
        index: sub(node.childForFieldName('index')),
        span,
      };
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
      return {
        k: 'cond',
        test: sub(node.childForFieldName('condition')),
        then: sub(node.childForFieldName('consequence')),
        otherwise: sub(node.childForFieldName('alternative')),
        span,
      };
    case 'call_expression':
    case 'new_expression': {
      const isNew = node.type === 'new_expression';
      const argsNode = node.childForFieldName('arguments');
      const args: Arg[] = argsNode ? namedChildren(argsNode).map((a) => typescriptArg(a, source)) : [];
      return { k: 'call', callee: sub(node.childForFieldName(isNew ? 'constructor' : 'function')), args, isNew, span };
    }
    case 'array':
      return { k: 'list', items: namedChildren(node).map((c) => typescriptExpr(c, source)), span };
    case 'array_pattern': {
      // `const [q, k] = ...`, holes (`[, k]`) keeping their place; `...rest` takes what is left.
      const items: Expr[] = [];
      let hole = true;
      for (const c of node.children) {
        if (!c) continue;
        if (c.type === ',') {
          if (hole) items.push({ k: 'unknown', text: '', span: spanOf(c) });
          hole = true;
        } else if (c.isNamed) {
          const rest = c.type === 'rest_pattern' ? namedChildren(c)[0] : undefined;
          items.push(
            rest
              ? { k: 'star', value: typescriptExpr(rest, source), span: spanOf(c) }
              : c.type === 'assignment_pattern'
                ? { k: 'unknown', text: textOf(c, source), span: spanOf(c) }
                : typescriptExpr(c, source),
          );
          hole = false;
        }
      }
      return { k: 'list', items, span };
    }
    case 'arrow_function': {
      // `(x) => expr` is a lambda; `(x) => { ... }` is lowered as a function scope of its own (typescript.ts).
      const body = node.childForFieldName('body');
      if (body?.type === 'statement_block') return { k: 'function', span };
      const params = node.childForFieldName('parameters');
      const single = node.childForFieldName('parameter');
      const names = single
        ? [{ name: textOf(single, source) }]
        : params
          ? namedChildren(params)
              .flatMap((p) => paramOf(p, source))
              .filter((p) => !p.variadic)
          : undefined;
      if (!body || !names) return { k: 'unknown', text: text(), span };
      return { k: 'lambda', params: names.map((p) => ({ name: p.name })), body: sub(body), span };
    }
    case 'object': {
      const entries: DictEntry[] = [];
      for (const c of namedChildren(node)) {
        if (c.type === 'pair') {
          const key = c.childForFieldName('key');
          const keyExpr: Expr =
            key && (key.type === 'property_identifier' || key.type === 'identifier')
              ? { k: 'str', value: textOf(key, source), span: spanOf(key) }
              : sub(key);
          entries.push({ key: keyExpr, value: sub(c.childForFieldName('value')) });
        } else if (c.type === 'shorthand_property_identifier') {
          entries.push({
            key: { k: 'str', value: textOf(c, source), span: spanOf(c) },
            value: { k: 'name', id: textOf(c, source), span: spanOf(c) },
          });
        } else if (c.type === 'spread_element') {
          entries.push({ spread: sub(namedChildren(c)[0] ?? null), value: { k: 'none', span } });
        } else if (c.type === 'method_definition') {
          // Found by its offset among the function scopes, as an arrow with a block body is (typescript.ts).
          const name = c.childForFieldName('name');
          if (name?.type === 'property_identifier')
            entries.push({
              key: { k: 'str', value: textOf(name, source), span: spanOf(name) },
              value: { k: 'function', span: spanOf(c) },
            });
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
    return {
      spread: 'list',
      value: inner ? typescriptExpr(inner, source) : { k: 'unknown', text: '', span: spanOf(node) },
      span: spanOf(node),
    };
  }
  return { value: typescriptExpr(node, source), span: spanOf(node) };
}
