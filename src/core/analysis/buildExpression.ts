/**
 * A Python expression over the file's names that builds a class with the arguments a run built it with,
 * `Block(GPTConfig(vocab_size=50257, n_layer=24, ...))`, so that anyone can check its count by running it.
 * Only values Python reads back as they were are written: numbers, strings, booleans, None, lists, tuples and
 * dicts of them, the file's classes by name, and instances of dataclasses without `__post_init__` (their
 * fields given again would be changed again). Anything else gives no expression.
 */
import type { Interp } from '../interp/interp';
import type { DefRef, Value } from '../values/value';
import { pythonString } from './documented';

/** Deeper than this, a value is not written out. */
const MAX_DEPTH = 8;
/** Nor an expression longer than this. */
const MAX_LENGTH = 4_000;

export interface BuildArguments {
  readonly positional: readonly Value[];
  readonly keywords: ReadonlyMap<string, Value>;
}

export function buildExpression(
  evaluator: Interp,
  cls: DefRef & { name: string },
  args: BuildArguments,
): string | undefined {
  const written = call(evaluator, cls.name, args.positional, [...args.keywords], 0);
  return written !== undefined && written.length <= MAX_LENGTH ? written : undefined;
}

function call(
  evaluator: Interp,
  name: string,
  positional: readonly Value[],
  keywords: readonly (readonly [string, Value])[],
  depth: number,
): string | undefined {
  const parts: string[] = [];
  for (const v of positional) {
    const s = literal(evaluator, v, depth + 1);
    if (s === undefined) return undefined;
    parts.push(s);
  }
  for (const [k, v] of keywords) {
    const s = literal(evaluator, v, depth + 1);
    if (s === undefined || !/^[A-Za-z_]\w*$/.test(k)) return undefined;
    parts.push(`${k}=${s}`);
  }
  return `${name}(${parts.join(', ')})`;
}

function literal(evaluator: Interp, v: Value, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (v.t) {
    case 'int':
      return v.p.constant?.toString();
    case 'float':
      return v.v === undefined || !Number.isFinite(v.v) ? undefined : floatText(v.v);
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'none':
      return 'None';
    case 'str':
      return pythonString(v.v);
    case 'seq': {
      const items = v.items.map((x) => literal(evaluator, x, depth + 1));
      if (items.some((x) => x === undefined)) return undefined;
      if (!v.tuple) return `[${items.join(', ')}]`;
      return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    }
    case 'dict':
      return v.cls
        ? dataclassInstance(evaluator, v.cls, v.fields, depth)
        : v.mapping
          ? dict(evaluator, v.fields, depth)
          : undefined;
    case 'class':
      // The file's own class, by the name it is defined with: an imported one may be bound under another.
      return v.file === evaluator.file ? v.name : undefined;
    default:
      return undefined;
  }
}

/** `2.0`, not `2`: Python would read an int. */
function floatText(x: number): string {
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

function dict(evaluator: Interp, fields: ReadonlyMap<string, Value>, depth: number): string | undefined {
  const entries: string[] = [];
  for (const [k, v] of fields) {
    const s = literal(evaluator, v, depth + 1);
    if (s === undefined) return undefined;
    entries.push(`${pythonString(k)}: ${s}`);
  }
  return `{${entries.join(', ')}}`;
}

function dataclassInstance(
  evaluator: Interp,
  cls: DefRef,
  fields: ReadonlyMap<string, Value>,
  depth: number,
): string | undefined {
  const owner = evaluator.of(cls);
  const scope = owner.scopeAt(cls.fragment, cls.scope);
  const classes = owner.classes;
  if (
    cls.file !== evaluator.file ||
    !scope.decorators.some((d) => /(^|\.)dataclass$/.test(d)) ||
    classes.method(cls, '__init__') ||
    classes.method(cls, '__post_init__')
  )
    return undefined;
  // Its fields in order, base classes' first, as the dataclass's __init__ takes them.
  const names: string[] = [];
  for (const base of [...(classes.mro(cls) ?? [cls])].reverse()) {
    if ('path' in base) continue;
    for (const field of owner.of(base).scopeAt(base.fragment, base.scope).fields)
      if (!names.includes(field)) names.push(field);
  }
  const given = names.flatMap((n) => (fields.has(n) ? [[n, fields.get(n)!] as const] : []));
  return call(evaluator, scope.name, [], given, depth);
}
