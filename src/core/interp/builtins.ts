/** Python and JavaScript built-ins that size code uses, on values; unknown wherever an argument is. */
import { Poly } from '../values/symbolic';
import { NONE, SCALAR, UNKNOWN, asPoly, int, isTainted, truthy, type Value } from '../values/value';
import { toNumber } from './arith';
import { BuiltinRaise } from './raises';
import { LIMITS } from '../limits/budget';
import { born } from '../values/births';
import { normalizePath } from '../ir/imports';
import { setOf } from './sets';

export type Builtin = (args: readonly Value[], keywords: ReadonlyMap<string, Value>) => Value;

/** The items of an iterable when they can be listed: sequences, ranges with known bounds, dict keys, strings. */
export function itemsOf(v: Value): Value[] | undefined {
  switch (v.t) {
    case 'seq':
      return [...v.items];
    case 'range': {
      const lo = v.start.constant;
      const hi = v.stop.constant;
      if (lo === undefined || hi === undefined || hi - lo > BigInt(LIMITS.listItems)) return undefined;
      const out: Value[] = [];
      for (let i = lo; i < hi; i++) out.push(int(i));
      return out;
    }
    case 'dict':
      return [...v.fields.keys()].map((k) => ({ t: 'str', v: k }));
    case 'str':
      return v.v.length > LIMITS.listItems ? undefined : [...v.v].map((c) => ({ t: 'str', v: c }));
    default:
      return undefined;
  }
}

/** How many items an iterable has, symbolic for `range(n)`. */
export function countOf(v: Value): Poly | undefined {
  if (v.t === 'range') return v.stop.sub(v.start);
  if (v.t === 'repeat') return v.count;
  // A list holding repeated copies (`parameters()` of a stack of blocks) has each copy as an item.
  if (v.t === 'seq' && v.items.some((i) => i.t === 'repeat'))
    return v.items.reduce((n, i) => n.add(i.t === 'repeat' ? i.count : Poly.ONE), Poly.ZERO);
  const items = itemsOf(v);
  return items ? Poly.int(items.length) : undefined;
}

function extreme(pick: (a: number, b: number) => boolean): Builtin {
  return (args, keywords) => {
    // `max(blocks, key=len)` compares what the key gives, which is not followed here.
    if (keywords.has('key')) return UNKNOWN;
    const items = args.length === 1 ? itemsOf(args[0]) : args;
    if (!items) return UNKNOWN;
    let best: Value | undefined;
    for (const v of items) {
      const n = toNumber(v);
      if (n === undefined) return UNKNOWN;
      if (!best || pick(n, toNumber(best)!)) best = v;
    }
    return best ?? keywords.get('default') ?? UNKNOWN;
  };
}

/** Python's `round(x)`: halves go to the even integer (`round(2.5)` is 2). */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  return rest > 0.5 ? floor + 1 : rest < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
}

/** `name`: the Python builtin, which raises on None (JavaScript's Math functions do not). */
function toInt(round: (x: number) => number, name?: 'int' | 'round'): Builtin {
  return ([v, second], keywords) => {
    if (!v) return UNKNOWN;
    // `int('ff', 16)` reads another base; `round(x, 2)` gives a float.
    const more = second ?? keywords.get(name === 'int' ? 'base' : 'ndigits');
    if (name && more && more.t !== 'none') return name === 'round' ? { t: 'float', v: undefined } : SCALAR;
    if (v.t === 'none' && name)
      throw new BuiltinRaise(
        'TypeError',
        name === 'int'
          ? "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"
          : "type NoneType doesn't define __round__ method",
      );
    if (v.t === 'float') return v.v === undefined || !Number.isFinite(v.v) ? UNKNOWN : int(BigInt(round(v.v)));
    if (v.t === 'str' && /^\s*-?\d+\s*$/.test(v.v)) return int(BigInt(v.v.trim()));
    const p = asPoly(v);
    return p ? int(p) : UNKNOWN;
  };
}

function floatOf(v: Value | undefined, f: (x: number) => number): Value {
  const x = v ? toNumber(v) : undefined;
  return { t: 'float', v: x === undefined ? undefined : f(x) };
}

/** `any(xs)` (`all(xs)` with `wanted` false): known once an item decides it, or every item is known. */
function anyOf(v: Value | undefined, wanted: boolean): Value {
  const items = v && itemsOf(v);
  if (!items) return UNKNOWN;
  let known = true;
  for (const item of items) {
    const t = truthy(item);
    if (t === wanted) return { t: 'bool', v: wanted };
    if (t === undefined) known = false;
  }
  return known ? { t: 'bool', v: !wanted } : UNKNOWN;
}

/** `dict(base, **kw)` (a mapping: empty is false) or a namespace object (always true). */
function namespace(mapping: boolean): Builtin {
  return ([first], keywords) => {
    let base: Iterable<readonly [string, Value]> = [];
    if (first?.t === 'dict') {
      if (isTainted(first)) return UNKNOWN;
      base = first.fields as Map<string, Value>;
    } else if (first) {
      // `dict(zip(keys, values))` (timm's CspNet stages): pairs with string keys.
      const pairs = mapping ? pairsOf(first) : undefined;
      if (!pairs) return UNKNOWN;
      base = pairs;
    }
    return { t: 'dict', fields: born(new Map([...base, ...keywords])), mapping };
  };
}

function pairsOf(v: Value): [string, Value][] | undefined {
  const pairs: [string, Value][] = [];
  for (const item of itemsOf(v) ?? [UNKNOWN]) {
    const kv = item.t === 'seq' && item.items.length === 2 ? item.items : undefined;
    if (kv?.[0].t !== 'str') return undefined;
    pairs.push([kv[0].v, kv[1]]);
  }
  return pairs;
}

/**
 * `to_2tuple(x)` and its kin, as timm, mmcv and torch write them: a list or tuple given stays its items, anything
 * else is repeated `n` times. They differ on the rest: timm repeats a string too and makes a tuple of a list;
 * mmcv gives back whatever is iterable as it is (a string, a list); torch's `_pair` makes a tuple of any iterable.
 */
type TupleStyle = 'timm' | 'mmcv' | 'torch';

function nTuple(n: number, style: TupleStyle): Builtin {
  return ([x]) => {
    if (!x) return UNKNOWN;
    // mmcv's gives back an iterable it cannot tell from a size as it is: even a module (nn.Sequential).
    if (x.t === 'unknown' || x.t === 'sym') return style === 'mmcv' ? x : SCALAR;
    if (x.t === 'seq') return style === 'mmcv' ? x : { ...x, tuple: true };
    if (x.t === 'str' && style !== 'timm') return style === 'mmcv' ? x : UNKNOWN;
    return { t: 'seq', items: Array.from({ length: n }, () => x), tuple: true };
  };
}

function tupleHelpers(): Record<string, Builtin> {
  const helpers: Record<string, Builtin> = {};
  const modules: [string, TupleStyle][] = [
    ['timm.layers', 'timm'],
    ['timm.layers.helpers', 'timm'],
    ['timm.models.layers', 'timm'],
    ['mmcv.utils', 'mmcv'],
    ['mmengine.utils', 'mmcv'],
  ];
  for (const [module, style] of modules)
    for (let n = 1; n <= 4; n++) helpers[`${module}.to_${n}tuple`] = nTuple(n, style);
  const torch = ['_single', '_pair', '_triple', '_quadruple'];
  // Called by the name a call resolves to: `torch.nn.modules.utils._pair` as `torch.nn._pair`.
  torch.forEach((name, i) => (helpers[normalizePath(`torch.nn.modules.utils.${name}`)] = nTuple(i + 1, 'torch')));
  return helpers;
}

function range(args: readonly Value[]): Value {
  const bounds = args.map(asPoly);
  if (args.length === 3) return steppedRange(bounds.map((b) => b?.constant));
  if (bounds.some((b) => !b) || args.length === 0 || args.length > 2) return UNKNOWN;
  return args.length === 1
    ? { t: 'range', start: Poly.ZERO, stop: bounds[0]! }
    : { t: 'range', start: bounds[0]!, stop: bounds[1]! };
}

/** `range(start, stop, step)` with known bounds: its numbers, as many as a list may hold. */
function steppedRange([start, stop, step]: (bigint | undefined)[]): Value {
  if (start === undefined || stop === undefined || step === undefined || step === 0n) return UNKNOWN;
  const items: Value[] = [];
  for (let i = start; step > 0n ? i < stop : i > stop; i += step) {
    if (items.length >= LIMITS.listItems) return UNKNOWN;
    items.push(int(i));
  }
  return { t: 'seq', items };
}

function zip(args: readonly Value[]): Value {
  const lists = args.map(itemsOf);
  if (lists.some((l) => !l)) return UNKNOWN;
  const n = Math.min(...lists.map((l) => l!.length));
  return {
    t: 'seq',
    items: Array.from({ length: n }, (_, i) => ({ t: 'seq', items: lists.map((l) => l![i]) }) as Value),
  };
}

function enumerate(args: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
  const items = args[0] && itemsOf(args[0]);
  const from = args[1] ?? keywords.get('start');
  const start = from ? (asPoly(from)?.constant ?? undefined) : 0n;
  if (!items || start === undefined) return UNKNOWN;
  return { t: 'seq', items: items.map((v, i) => ({ t: 'seq', items: [int(start + BigInt(i)), v] }) as Value) };
}

function sum(args: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
  const items = args[0] && itemsOf(args[0]);
  if (!items) return UNKNOWN;
  const start = args[1] ?? keywords.get('start');
  let total = start ? asPoly(start) : Poly.ZERO;
  for (const v of items) {
    const p = asPoly(v);
    if (!p || !total) return UNKNOWN;
    total = total.add(p);
  }
  return total ? int(total) : UNKNOWN;
}

/**
 * `re.split(pattern, text)` (timm's block strings: `re.split(r'(\d.*)', 'k3')` is `['k', '3', '']`) where the
 * pattern is one JavaScript reads as Python does: literals, `.`, ASCII classes, groups, alternation and
 * quantifiers, and one that cannot match the empty string (on which the two split differently); the text ASCII.
 */
function reSplit([pattern, text, ...rest]: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
  if (pattern?.t !== 'str' || text?.t !== 'str' || rest.length || keywords.size) return UNKNOWN;
  const re = /^[\x20-\x7e]*$/.test(text.v) && text.v.length <= LIMITS.stringLength ? portable(pattern.v) : undefined;
  if (!re || re.test('')) return UNKNOWN;
  const parts = text.v.split(re);
  return parts.length > LIMITS.listItems
    ? UNKNOWN
    : { t: 'seq', items: parts.map((p): Value => (p === undefined ? NONE : { t: 'str', v: p })) };
}

const PATTERN_PIECE =
  /\\[dwsDWS.\\()[\]*+?|{}^$\-_]|\[\^?(?:\\[dwsDWS.\-\]]|[A-Za-z0-9_. -])+\]|\{\d+(?:,\d*)?\}|[A-Za-z0-9_ .*+?()|,:=\-]/y;

/** The pattern as a JavaScript regular expression, where it is one both languages read alike. */
function portable(pattern: string): RegExp | undefined {
  if (pattern.includes('(?') || pattern.length > 200) return undefined;
  let at = 0;
  while (at < pattern.length) {
    PATTERN_PIECE.lastIndex = at;
    const m = PATTERN_PIECE.exec(pattern);
    if (!m) return undefined;
    at += m[0].length;
  }
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

/** `set(xs)`: what `xs` lists, as a set; a set of a set is itself. */
function setBuiltin([v]: readonly Value[]): Value {
  if (!v) return setOf([]);
  if (v.t === 'set') return v;
  const items = itemsOf(v);
  return items ? setOf(items) : SCALAR;
}

/** `list(xs)` and `tuple(xs)`: which one it is matters (timm's `create_conv2d` takes a list of kernel sizes as a mixed convolution). */
function sequenceOf(tuple: boolean): Builtin {
  return ([v]) => {
    if (!v) return { t: 'seq', items: [], tuple };
    const items = itemsOf(v);
    return items ? { t: 'seq', items, tuple } : UNKNOWN;
  };
}

/** Built-ins whose value, even when not known, is never a module or a parameter (`self.pruned_heads = set()`). */
export const SCALAR_BUILTINS = new Set([
  'builtins.int',
  'builtins.float',
  'builtins.bool',
  'builtins.str',
  'builtins.len',
  'builtins.any',
  'builtins.all',
  'builtins.abs',
  'builtins.round',
  'builtins.set',
  'builtins.frozenset',
  'math.sqrt',
  'math.log',
  'math.log2',
  'math.exp',
  'math.ceil',
  'math.floor',
  'math.prod',
]);

/**
 * An environment variable, read as unset: the numbers shown are those of the code run as it ships, with no
 * variable set (timm's `TIMM_USE_NAFLEXVIT`, a launcher's `WORLD_SIZE`), its default or None.
 */
const unsetVariable: Builtin = ([, fallback], keywords) => fallback ?? keywords.get('default') ?? NONE;

/**
 * fairscale's model-parallel group and Megatron-core's parallel groups as one process has them (`python
 * model.py`): world size 1, rank 0.
 */
const ONE_PROCESS: Record<string, Builtin> = Object.fromEntries([
  ...['fairscale.nn.model_parallel.initialize.', 'fairscale.nn.model_parallel.'].flatMap((at) => [
    [`${at}get_model_parallel_world_size`, () => int(1)],
    [`${at}get_model_parallel_rank`, () => int(0)],
  ]),
  ...['megatron.core.parallel_state.', 'megatron.core.mpu.'].flatMap((at) =>
    ['tensor_model_parallel', 'pipeline_model_parallel', 'context_parallel', 'expert_model_parallel'].flatMap(
      (group) => [
        [`${at}get_${group}_world_size`, () => int(1)],
        [`${at}get_${group}_rank`, () => int(0)],
      ],
    ),
  ),
]);

export const BUILTIN_CALLS: Record<string, Builtin> = {
  ...ONE_PROCESS,
  're.split': reSplit,
  'os.environ.get': unsetVariable,
  'os.getenv': unsetVariable,
  'builtins.set': setBuiltin,
  'builtins.frozenset': setBuiltin,
  'builtins.int': toInt(Math.trunc, 'int'),
  'builtins.round': toInt(roundHalfEven, 'round'),
  'builtins.bool': ([v]) =>
    v && truthy(v) !== undefined ? { t: 'bool', v: truthy(v)! } : v ? UNKNOWN : { t: 'bool', v: false },
  'builtins.float': ([v]) => {
    if (v?.t === 'none')
      throw new BuiltinRaise('TypeError', "float() argument must be a string or a real number, not 'NoneType'");
    // `float(options['se'])` of timm's block strings: a decimal, as Python and JavaScript both read it.
    if (v?.t === 'str')
      return /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v.v) ? { t: 'float', v: Number(v.v) } : UNKNOWN;
    return v ? (toNumber(v) === undefined ? UNKNOWN : { t: 'float', v: toNumber(v) }) : { t: 'float', v: 0 };
  },
  'builtins.abs': ([v]) => {
    if (v?.t === 'float') return floatOf(v, Math.abs);
    const p = v ? asPoly(v) : undefined;
    return p?.constant !== undefined ? int(p.constant < 0n ? -p.constant : p.constant) : UNKNOWN;
  },
  'builtins.len': ([v]) => {
    if (!v) return UNKNOWN;
    if (v.t === 'dict') return int(v.fields.size);
    if (v.t === 'set') return int(v.items.length);
    const n = countOf(v);
    return n ? int(n) : v.t === 'str' ? int(v.v.length) : UNKNOWN;
  },
  'builtins.any': ([v]) => anyOf(v, true),
  'builtins.all': ([v]) => anyOf(v, false),
  'builtins.range': range,
  'builtins.zip': zip,
  'builtins.enumerate': enumerate,
  'builtins.reversed': ([v]) => {
    const items = v && itemsOf(v);
    return items ? { t: 'seq', items: items.reverse() } : UNKNOWN;
  },
  // timm's `nn.Sequential(*filter(None, [conv, aa if aa_layer else None, norm]))`.
  'builtins.filter': ([fn, v]) => {
    const items = fn?.t === 'none' && v ? itemsOf(v) : undefined;
    const kept = items?.filter((x) => truthy(x) !== false);
    return kept?.every((x) => truthy(x) === true) ? { t: 'seq', items: kept } : UNKNOWN;
  },
  'builtins.list': sequenceOf(false),
  'builtins.tuple': sequenceOf(true),
  'builtins.sum': sum,
  'builtins.str': ([v]) =>
    v?.t === 'str' ? v : v?.t === 'int' && v.p.constant !== undefined ? { t: 'str', v: String(v.p.constant) } : UNKNOWN,
  'math.sqrt': ([v]) => floatOf(v, Math.sqrt),
  // CPython's `math.log(x, base)` divides the two natural logarithms (ECA's `math.log(channels, 2)`).
  'math.log': ([v, base]) => {
    if (!base) return floatOf(v, Math.log);
    const b = toNumber(base);
    return b === undefined ? { t: 'float', v: undefined } : floatOf(v, (x) => Math.log(x) / Math.log(b));
  },
  'math.log2': ([v]) => floatOf(v, Math.log2),
  'math.exp': ([v]) => floatOf(v, Math.exp),
  'math.ceil': toInt(Math.ceil),
  'math.floor': toInt(Math.floor),
  'math.prod': ([v], keywords) => {
    const items = v && itemsOf(v);
    const start = keywords.get('start');
    if (!items) return UNKNOWN;
    let p: Poly | undefined = start ? asPoly(start) : Poly.ONE;
    for (const x of items) p = p && asPoly(x) ? p.mul(asPoly(x)!) : undefined;
    return p ? int(p) : UNKNOWN;
  },
  'builtins.max': extreme((a, b) => a > b),
  'builtins.min': extreme((a, b) => a < b),
  // timm's and open_clip's `to_2tuple`: `tuple(repeat(x, n))`.
  'itertools.repeat': ([x, n]) => {
    const times = n && asPoly(n)?.constant;
    return x && times !== undefined && times >= 0n && times <= BigInt(LIMITS.listItems)
      ? { t: 'seq', items: Array.from({ length: Number(times) }, () => x) }
      : UNKNOWN;
  },
  ...tupleHelpers(),
  'builtins.dict': namespace(true),
  'types.SimpleNamespace': namespace(false),
  'argparse.Namespace': namespace(false),
  'builtins.Math.max': extreme((a, b) => a > b),
  'builtins.Math.min': extreme((a, b) => a < b),
  'builtins.Math.floor': toInt(Math.floor),
  'builtins.Math.ceil': toInt(Math.ceil),
  'builtins.Math.round': toInt(Math.round),
  'builtins.Math.trunc': toInt(Math.trunc),
  // JavaScript has one number type: a whole result is an integer size, as a whole literal is.
  'builtins.Math.sqrt': ([v]) => {
    const x = floatOf(v, Math.sqrt);
    return x.t === 'float' && x.v !== undefined && Number.isSafeInteger(x.v) ? int(x.v) : x;
  },
  'builtins.Number': ([v]) => v ?? UNKNOWN,
  'builtins.parseInt': toInt(Math.trunc),
};

export const BUILTIN_NAMES = {
  python: new Set([
    'int',
    'float',
    'max',
    'min',
    'abs',
    'round',
    'dict',
    'len',
    'bool',
    'range',
    'zip',
    'enumerate',
    'reversed',
    'filter',
    'list',
    'tuple',
    'sum',
    'any',
    'all',
    'str',
    'isinstance',
    'issubclass',
    'getattr',
    'hasattr',
    'setattr',
    'super',
    'print',
    'callable',
    'type',
    'map',
    'set',
    'frozenset',
    'exec',
    'open',
    'dir',
  ]),
  typescript: new Set(['Math', 'Number', 'parseInt']),
};

/**
 * The string methods configurations use to read their options (`feed_forward_proj.split("-")`,
 * `act.startswith("gated")`); undefined for the others, whose result is not known.
 */
export function stringMethod(s: string, method: string, args: readonly Value[]): Value | undefined {
  const text = (v: Value | undefined) => (v?.t === 'str' ? v.v : undefined);
  const str = (v: string): Value => ({ t: 'str', v });
  switch (method) {
    case 'split': {
      if (args.length > 1) return undefined;
      const sep = args[0] && args[0].t !== 'none' ? text(args[0]) : undefined;
      if (args[0] && args[0].t !== 'none' && !sep) return undefined;
      const parts = sep === undefined ? s.trim().split(/\s+/).filter(Boolean) : s.split(sep);
      return parts.length > LIMITS.listItems ? undefined : { t: 'seq', items: parts.map(str) };
    }
    case 'startswith':
    case 'endswith': {
      const affix = text(args[0]);
      if (affix === undefined || args.length > 1) return undefined;
      return { t: 'bool', v: method === 'startswith' ? s.startsWith(affix) : s.endsWith(affix) };
    }
    case 'format': {
      // `'attention_{}'.format(i)`: names a module is added under; `{}` and `{0}` with numbers and strings.
      const shown = args.map((a) =>
        a.t === 'str' ? a.v : a.t === 'int' && a.p.constant !== undefined ? String(a.p.constant) : undefined,
      );
      let next = 0;
      let known = true;
      const out = s.replace(/\{(\d*)\}/g, (_, index: string) => {
        const v = shown[index === '' ? next++ : Number(index)];
        if (v === undefined) known = false;
        return v ?? '';
      });
      return known && !/[{}]/.test(out) && out.length <= LIMITS.stringLength ? str(out) : undefined;
    }
    case 'replace': {
      const [old, replacement] = args.map(text);
      // Python puts `new` between every character for an empty `old`; a count is not followed.
      if (old === undefined || replacement === undefined || !old || args.length !== 2) return undefined;
      const out = s.split(old).join(replacement);
      return out.length <= LIMITS.stringLength ? str(out) : undefined;
    }
    case 'join': {
      // `'.'.join(['stem', conv_name])`: names of parts and features.
      const items = args.length === 1 ? itemsOf(args[0]) : undefined;
      const parts = items?.map(text);
      if (!parts || parts.some((p) => p === undefined)) return undefined;
      const out = parts.join(s);
      return out.length <= LIMITS.stringLength ? str(out) : undefined;
    }
    case 'lower':
      return str(s.toLowerCase());
    // timm's `_parse_ksize('3')`; an ASCII text, as Unicode's other digits are Python's too.
    case 'isdigit':
    case 'isnumeric':
    case 'isdecimal':
      return args.length || !/^[\x00-\x7f]*$/.test(s) ? undefined : { t: 'bool', v: /^[0-9]+$/.test(s) };
    case 'upper':
      return str(s.toUpperCase());
    case 'strip':
      return args.length ? undefined : str(s.trim());
    default:
      return undefined;
  }
}
