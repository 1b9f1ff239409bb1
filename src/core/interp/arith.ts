/**
 * Arithmetic on values as Python and JavaScript do it, exact on integers, within the budget's limits: a
 * result too large to be a size (bits, terms, degree) is unknown, never computed.
 */
import { extendDims } from '../shapes/views';
import { Poly, quotientName } from '../values/symbolic';
import { SCALAR, UNKNOWN, asPoly, int, truthy, type Value } from '../values/value';
import type { CompareOp } from '../ir/expr';
import { LIMITS } from '../limits/budget';
import { BuiltinRaise } from './raises';
import { normalizePath, torchNnClassName } from '../ir/imports';

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function toNumber(v: Value): number | undefined {
  if (v.t === 'float') return v.v;
  const c = asPoly(v)?.constant;
  return c === undefined ? undefined : Number(c);
}

function bits(n: bigint): number {
  return (n < 0n ? -n : n).toString(16).length * 4;
}

/** An integer result, or unknown when it is beyond what a size can be. */
function bounded(p: Poly): Value {
  const c = p.constant;
  if (c !== undefined) return bits(c) > LIMITS.intBits ? UNKNOWN : int(p);
  return p.size > LIMITS.polyTerms || p.degree > LIMITS.polyDegree ? UNKNOWN : int(p);
}

const numeric = (v: Value) => v.t === 'float' || asPoly(v) !== undefined;

function floatOp(op: string, l: Value, r: Value): Value {
  if (!numeric(l) || !numeric(r)) return UNKNOWN;
  const a = toNumber(l);
  const b = toNumber(r);
  if (a === undefined || b === undefined) return { t: 'float' };
  switch (op) {
    case '+':
      return { t: 'float', v: a + b };
    case '-':
      return { t: 'float', v: a - b };
    case '*':
      return { t: 'float', v: a * b };
    case '/':
      return b === 0 ? UNKNOWN : { t: 'float', v: a / b };
    case '//':
      return b === 0 ? UNKNOWN : { t: 'float', v: Math.floor(a / b) };
    case '**':
      return { t: 'float', v: a ** b };
    case '%':
      return b === 0 ? UNKNOWN : { t: 'float', v: a - Math.floor(a / b) * b };
    default:
      return UNKNOWN;
  }
}

/** Python raises on a division by a zero it is given, whatever the dividend (a size not known too). */
function raiseOnZero(op: string, l: Value, r: Value): void {
  if (toNumber(r) !== 0 || !numeric(l)) return;
  const float = l.t === 'float' || r.t === 'float';
  const message =
    op === '/'
      ? float
        ? 'float division by zero'
        : 'division by zero'
      : op === '//'
        ? float
          ? 'float floor division by zero'
          : 'integer division or modulo by zero'
        : float
          ? 'float modulo'
          : 'integer modulo by zero';
  throw new BuiltinRaise('ZeroDivisionError', message);
}

const SAFE = 2n ** 53n;

/**
 * A JavaScript number: every result is a double, so a whole result beyond 2^53 is the double nearest to it
 * (`2 ** 53 + 1` is 9007199254740992) and one beyond the doubles' range is Infinity.
 */
export function jsNumber(v: Value): Value {
  const c = v.t === 'int' ? v.p.constant : undefined;
  if (c === undefined || (c <= SAFE && c >= -SAFE)) return v;
  const n = Number(c);
  return Number.isFinite(n) ? int(BigInt(n)) : { t: 'float', v: n };
}

/** `/` and `%` as JavaScript computes them on numbers: no error on zero, the remainder takes the dividend's sign. */
function jsDivision(op: string, l: Value, r: Value): Value | undefined {
  const a = toNumber(l);
  const b = toNumber(r);
  if (a === undefined || b === undefined || (op !== '/' && op !== '%')) return undefined;
  const result = op === '/' ? a / b : a % b;
  return Number.isInteger(result) ? int(BigInt(result)) : { t: 'float', v: result };
}

/** `a op b` on numbers, strings and sequences; tensors are handled by the caller. */
export function arithmetic(op: string, l: Value, r: Value, language: 'python' | 'typescript'): Value {
  if (language === 'typescript') {
    if (l.t === 'float' || r.t === 'float' || ((op === '/' || op === '%') && toNumber(r) === 0))
      return jsDivision(op, l, r) ?? jsNumber(floatOp(op, l, r));
    if (op === '%' && asPoly(l)?.constant !== undefined && asPoly(r)?.constant !== undefined)
      return jsDivision(op, l, r)!;
    const result = pythonArithmetic(op, l, r, language);
    // `2 ** 2000` is Infinity in JavaScript, not a number too large to follow.
    if (op === '**' && result.t === 'unknown' && toNumber(l) !== undefined && toNumber(r) !== undefined)
      return { t: 'float', v: toNumber(l)! ** toNumber(r)! };
    return jsNumber(result);
  }
  return pythonArithmetic(op, l, r, language);
}

function pythonArithmetic(op: string, l: Value, r: Value, language: 'python' | 'typescript'): Value {
  if (language === 'python' && (op === '/' || op === '//' || op === '%')) raiseOnZero(op, l, r);
  if (l.t === 'float' || r.t === 'float' || (op === '/' && language === 'python')) return floatOp(op, l, r);
  const a = asPoly(l);
  const b = asPoly(r);
  if (!a || !b) return sequenceOp(op, l, r, b);
  const ca = a.constant;
  const cb = b.constant;
  switch (op) {
    case '+':
      return bounded(a.add(b));
    case '-':
      return bounded(a.sub(b));
    case '*':
      if (a.size * b.size > LIMITS.polyTerms) return UNKNOWN;
      if (ca !== undefined && cb !== undefined && bits(ca) + bits(cb) > LIMITS.intBits + 8) return UNKNOWN;
      return bounded(a.mul(b));
    case '**': {
      if (cb === undefined || cb < 0n) return cb !== undefined && ca !== undefined ? floatOp(op, l, r) : UNKNOWN;
      if (ca !== undefined)
        return cb > 0n && bits(ca) * Number(cb) > LIMITS.intBits + 64 && ca !== 1n && ca !== 0n && ca !== -1n
          ? UNKNOWN
          : bounded(Poly.int(ca ** cb));
      if (
        cb > BigInt(LIMITS.polyDegree) ||
        a.degree * Number(cb) > LIMITS.polyDegree ||
        a.size ** Number(cb) > LIMITS.polyTerms * 8
      )
        return UNKNOWN;
      return bounded(a.pow(Number(cb)));
    }
    case '/': // TypeScript: a number, whole when it divides
      if (cb !== 0n) {
        const exact = a.divExactBy(b);
        if (exact) return int(exact);
        if (ca !== undefined && cb !== undefined) return { t: 'float', v: Number(ca) / Number(cb) };
      }
      return cb === 0n ? UNKNOWN : { t: 'sym', name: quotientName(a, '/', b) };
    case '//':
      if (ca !== undefined && cb !== undefined) return cb === 0n ? UNKNOWN : int(floorDiv(ca, cb));
      if (cb !== 0n) {
        const exact = a.divExactBy(b);
        if (exact) return int(exact);
      }
      return cb === 0n ? UNKNOWN : { t: 'sym', name: quotientName(a, '//', b) };
    case '%':
      if (ca !== undefined && cb !== undefined && cb !== 0n) return int(ca - floorDiv(ca, cb) * cb);
      return UNKNOWN;
    default:
      return UNKNOWN;
  }
}

function sequenceOp(op: string, l: Value, r: Value, count: Poly | undefined): Value {
  if (op === '+' && l.t === 'dims' && r.t === 'seq') return extendDims(l, r.items);
  if (op === '+' && l.t === 'seq' && r.t === 'seq')
    return l.items.length + r.items.length > LIMITS.listItems ? UNKNOWN : { t: 'seq', items: [...l.items, ...r.items] };
  // A comprehension's copies joined to a list (`[nn.Identity()] * i + blocks[i:j]`): a list holding them as one item.
  if (
    op === '+' &&
    (l.t === 'repeat' || r.t === 'repeat') &&
    (l.t === 'repeat' || (l.t === 'seq' && !l.tuple)) &&
    (r.t === 'repeat' || (r.t === 'seq' && !r.tuple))
  ) {
    const items = [...(l.t === 'seq' ? l.items : [l]), ...(r.t === 'seq' ? r.items : [r])];
    return items.length > LIMITS.listItems ? UNKNOWN : { t: 'seq', items };
  }
  if (op === '+' && l.t === 'str' && r.t === 'str')
    return l.v.length + r.v.length > LIMITS.stringLength ? UNKNOWN : { t: 'str', v: l.v + r.v };
  if (op === '*' && l.t === 'seq' && count?.constant !== undefined) {
    const n = count.constant < 0n || l.items.length === 0 ? 0n : count.constant;
    if (BigInt(l.items.length) * n > BigInt(LIMITS.listItems)) return UNKNOWN;
    return { t: 'seq', items: Array.from({ length: Number(n) }, () => l.items).flat() };
  }
  return UNKNOWN;
}

export function compare(op: CompareOp, l: Value, r: Value): Value {
  if (op === 'in' || op === 'not in') return membership(l, r, op === 'in');
  if (op === 'is' || op === 'is not') {
    const same = identity(l, r);
    return same === undefined ? UNKNOWN : { t: 'bool', v: same === (op === 'is') };
  }
  const a = toNumber(l);
  const b = toNumber(r);
  if (a === undefined || b === undefined) {
    if ((op === '==' || op === '!=') && l.t === 'str' && r.t === 'str')
      return { t: 'bool', v: (l.v === r.v) === (op === '==') };
    if ((op === '==' || op === '!=') && (l.t === 'none' || r.t === 'none')) {
      const same = identity(l, r);
      return same === undefined ? UNKNOWN : { t: 'bool', v: same === (op === '==') };
    }
    if ((op === '==' || op === '!=') && l.t === 'bool' && r.t === 'bool')
      return { t: 'bool', v: (l.v === r.v) === (op === '==') };
    // A built-in type is itself alone: `type(768) == ListConfig` is False, whatever ListConfig is.
    if ((op === '==' || op === '!=') && l.t === 'ref' && r.t === 'ref' && (isBuiltin(l.path) || isBuiltin(r.path)))
      return { t: 'bool', v: (l.path === r.path) === (op === '==') };
    const same = op === '==' || op === '!=' ? sameObject(l, r) : undefined;
    return same === undefined ? UNKNOWN : { t: 'bool', v: same === (op === '==') };
  }
  const results: Record<string, boolean> = {
    '==': a === b,
    '!=': a !== b,
    '<': a < b,
    '<=': a <= b,
    '>': a > b,
    '>=': a >= b,
  };
  // Exact for integers beyond 2^53.
  const pa = asPoly(l)?.constant;
  const pb = asPoly(r)?.constant;
  if (pa !== undefined && pb !== undefined) {
    const exact: Record<string, boolean> = {
      '==': pa === pb,
      '!=': pa !== pb,
      '<': pa < pb,
      '<=': pa <= pb,
      '>': pa > pb,
      '>=': pa >= pb,
    };
    return { t: 'bool', v: exact[op] };
  }
  return { t: 'bool', v: results[op] };
}

/** `a is b` where it is certain: None, booleans, and values of different kinds. */
const isBuiltin = (path: string): boolean => path.startsWith('builtins.');

function identity(l: Value, r: Value): boolean | undefined {
  const plain = (v: Value) =>
    v.t === 'none' ||
    v.t === 'bool' ||
    v.t === 'int' ||
    v.t === 'float' ||
    v.t === 'str' ||
    v.t === 'seq' ||
    v.t === 'dict' ||
    v.t === 'layer' ||
    v.t === 'module' ||
    v.t === 'class' ||
    v.t === 'ref' ||
    v.t === 'tensor' ||
    v.t === 'function' ||
    v.t === 'lambda' ||
    v.t === 'partial';
  if (!plain(l) || !plain(r)) return undefined;
  if (l.t === 'none' || r.t === 'none') return l.t === r.t;
  if (l.t === 'bool' && r.t === 'bool') return l.v === r.v;
  if (l.t === 'class' && r.t === 'class') return l.fragment === r.fragment && l.scope === r.scope && l.file === r.file;
  if (l.t === 'ref' && r.t === 'ref') return l.path === r.path;
  return l.t !== r.t ? false : l === r ? true : undefined;
}

/**
 * Whether two classes or functions are one object, as `==` compares them (timm's `norm_layer in
 * _NORM_ACT_TYPES`): a class or function of the workspace is itself alone, as is a class of torch.nn, which no
 * class of the workspace is; two names of another library may be one object under two paths, which is not known.
 */
function sameObject(l: Value, r: Value): boolean | undefined {
  const torchNn = (v: Value) => v.t === 'ref' && torchNnClassName(v.path) !== undefined;
  if (l.t === 'class' && r.t === 'class') return identity(l, r);
  if (l.t === 'ref' && r.t === 'ref')
    return normalizePath(l.path) === normalizePath(r.path) ? true : torchNn(l) && torchNn(r) ? false : undefined;
  if ((l.t === 'class' && r.t === 'ref') || (l.t === 'ref' && r.t === 'class'))
    return torchNn(l) || torchNn(r) ? false : undefined;
  if (l.t === 'function' && r.t === 'function') {
    if (l.fragment !== r.fragment || l.scope !== r.scope || l.file !== r.file) return false;
    return l.closure === undefined && r.closure === undefined && l.self === undefined && r.self === undefined
      ? true
      : undefined;
  }
  return undefined;
}

function membership(item: Value, container: Value, positive: boolean): Value {
  const found = (v: boolean | undefined): Value => (v === undefined ? UNKNOWN : { t: 'bool', v: v === positive });
  if (container.t === 'dict' && item.t === 'str') return found(container.fields.has(item.v));
  if (container.t === 'str' && item.t === 'str') return found(container.v.includes(item.v));
  if (container.t === 'seq' || container.t === 'set') {
    let unsure = false;
    for (const x of container.items) {
      const eq = compare('==', item, x);
      if (eq.t === 'bool' && eq.v) return found(true);
      if (eq.t !== 'bool') unsure = true;
    }
    return found(unsure ? undefined : false);
  }
  return UNKNOWN;
}

/** `-x`, `+x`, `not x`. */
export function unary(op: string, v: Value): Value {
  if (op === 'not') {
    const t = truthy(v);
    return t === undefined ? SCALAR : { t: 'bool', v: !t };
  }
  if (op === '+') return v;
  if (v.t === 'float') return v.v === undefined ? v : { t: 'float', v: -v.v };
  const p = asPoly(v);
  return p ? int(p.neg()) : UNKNOWN;
}
