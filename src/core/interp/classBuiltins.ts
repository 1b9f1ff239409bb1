/** Python's built-ins about objects and classes: `isinstance`, `issubclass`, `getattr`/`hasattr`/`setattr`, `super()`, `type`, `functools.partial`. */
import type { Interp } from './interp';
import { normalizePath } from '../ir/imports';
import { NONE, SCALAR, UNKNOWN, isTainted, type Value } from '../values/value';
import { key } from './classes';
import { functionalHas } from '../catalog/torchFunctional';
import type { Frame } from './frame';
import { isTorchNnClass } from './truth';

/** Built-ins about objects and classes; undefined for any other path. */
export function classBuiltin(
  ev: Interp,
  path: string,
  positional: readonly Value[],
  keywords: ReadonlyMap<string, Value>,
  frame: Frame,
): Value | undefined {
  const [a, b, c] = positional;
  switch (path) {
    case 'builtins.isinstance':
      return a && b ? isInstance(ev, a, b) : UNKNOWN;
    case 'builtins.issubclass':
      return a?.t === 'class' && b ? isSubclass(ev, a, b) : a && b ? torchNnSubclass(ev, a, b) : SCALAR;
    case 'builtins.callable': {
      const is = a && callable(ev, a);
      return !a ? UNKNOWN : is === undefined ? SCALAR : { t: 'bool', v: is };
    }
    case 'builtins.getattr': {
      if (!a || b?.t !== 'str') return UNKNOWN;
      const v = ev.member(a, b.v);
      if (v.t !== 'unknown' || !c) return v;
      return (a.t === 'dict' && !a.fields.has(b.v) && !a.cls) || (a.t === 'module' && lacks(ev, a, b.v)) ? c : v;
    }
    case 'builtins.hasattr': {
      const has = a && b?.t === 'str' ? hasAttribute(ev, a, b.v) : undefined;
      return has === undefined ? SCALAR : { t: 'bool', v: has };
    }
    case 'builtins.setattr':
      if (a && b?.t === 'str' && c) ev.assignments.setAttribute(a, b.v, c, true);
      else if (a?.t === 'module')
        ev.torch
          .owner(a.tree)
          .differs(a.tree.children as Map<string, unknown>, '', 'an attribute set under a name that is not known');
      return NONE;
    case 'builtins.super': {
      const scope = frame.scope >= 0 ? ev.scopeAt(frame.fragment, frame.scope) : undefined;
      const cls =
        a?.t === 'class'
          ? a
          : scope && scope.parent >= 0
            ? ev.names.definition(frame.fragment, scope.parent, undefined)
            : undefined;
      const self = b ?? ev.names.lookup(ev.selfName, frame);
      return cls?.t === 'class' ? { t: 'super', cls, self } : UNKNOWN;
    }
    // stable-diffusion's `default(val, d)`: `d() if isfunction(d) else d`.
    case 'inspect.isfunction':
      return !a
        ? UNKNOWN
        : a.t === 'function' || a.t === 'lambda'
          ? { t: 'bool', v: true }
          : certainKind(ev, a)
            ? { t: 'bool', v: false }
            : SCALAR;
    case 'inspect.isclass':
      return !a
        ? UNKNOWN
        : isClass(ev, a)
          ? { t: 'bool', v: true }
          : certainKind(ev, a)
            ? { t: 'bool', v: false }
            : SCALAR;
    case 'functools.partial':
      return a ? { t: 'partial', fn: a, positional: positional.slice(1), keywords } : UNKNOWN;
    case 'dataclasses.field':
      return positional.length
        ? UNKNOWN
        : { t: 'field', default: keywords.get('default'), factory: keywords.get('default_factory') };
    // timm's model configurations: `create_csp_stem(**asdict(cfg.stem))`, `replace(cfg, **kwargs)`.
    case 'dataclasses.asdict':
      return a && positional.length === 1 && !keywords.size ? asDict(ev, a, 0) : UNKNOWN;
    case 'dataclasses.replace': {
      const fields = a && positional.length === 1 ? dataclassFields(ev, a) : undefined;
      if (!fields || a?.t !== 'dict' || !a.cls) return UNKNOWN;
      const given = new Map([...fields].map(([k, v]) => [k, { value: keywords.get(k) ?? v }] as const));
      for (const [k, v] of keywords) if (!given.has(k)) given.set(k, { value: v });
      return ev.classes.instantiate(a.cls, { positional: [], keywords: given }, undefined);
    }
    case 'builtins.print':
      return NONE;
    case 'builtins.type': {
      if (a?.t === 'module' && a.cls) return { t: 'class', ...a.cls };
      const builtin = a && builtinType(a);
      return builtin ? { t: 'ref', path: `builtins.${builtin}` } : UNKNOWN;
    }
    default:
      return undefined;
  }
}

/**
 * The fields of an instance of a dataclass of the workspace (a class with annotated fields and no `__init__`
 * of its own, which the decorator writes), in their order: undefined for any other value, or one not known.
 */
function dataclassFields(ev: Interp, v: Value): Map<string, Value> | undefined {
  if (v.t !== 'dict' || !v.cls || isTainted(v) || ev.classes.attribute(v.cls, '__init__', undefined)) return undefined;
  const names = ev.classes.dataclassFields(v.cls);
  if (!names.size || [...names].some((n) => !v.fields.has(n))) return undefined;
  return new Map([...names].map((n) => [n, v.fields.get(n)!]));
}

/** `dataclasses.asdict(obj)`: its fields, dataclasses, lists, tuples and dicts inside converted alike. */
function asDict(ev: Interp, v: Value, depth: number): Value {
  const fields = dataclassFields(ev, v);
  if (!fields || depth > 8) return UNKNOWN;
  const convert = (x: Value): Value =>
    dataclassFields(ev, x)
      ? asDict(ev, x, depth + 1)
      : x.t === 'seq'
        ? { ...x, items: x.items.map(convert) }
        : x.t === 'dict' && !x.cls && x.mapping && !isTainted(x)
          ? { t: 'dict', mapping: true, fields: new Map([...x.fields].map(([k, y]) => [k, convert(y as Value)])) }
          : x;
  return { t: 'dict', mapping: true, fields: new Map([...fields].map(([k, x]) => [k, convert(x)])) };
}

/** `hasattr(obj, name)`, and `name in dir(obj)`: undefined where not certain. */
export function hasAttribute(ev: Interp, obj: Value, name: string): boolean | undefined {
  // A mapping's keys are no attributes of it.
  if (obj.t === 'dict' && !obj.cls) return obj.mapping ? undefined : obj.fields.has(name);
  if (obj.t === 'ref' && normalizePath(obj.path) === 'torch.nn.functional') return functionalHas(name);
  const v = ev.member(obj, name);
  return v.t === 'unknown' || v.t === 'sym' || v.t === 'ref' ? undefined : true;
}

/**
 * Whether a module certainly has no attribute `name`: no field, child, parameter or class attribute, a tree
 * whose every part was followed, and classes of the workspace over nn.Module alone (a library base may set
 * attributes not followed here). `getattr(self, "past_key_value", past_key_value)` in transformers' attention
 * then gives its default, as Python does on a module built and called as it is.
 */
function lacks(ev: Interp, m: Extract<Value, { t: 'module' }>, name: string): boolean {
  const tree = ev.torch.moduleOf(m);
  if (!tree || tree.unknown || !m.cls || m.fields.has(name) || tree.children.has(name) || tree.params.has(name))
    return false;
  const bases = ev.classes.mro(m.cls);
  return (
    !!bases?.every((b) => !('path' in b) || TORCH_MODULE.has(b.path)) &&
    ev.classes.attribute(m.cls, name, undefined) === undefined
  );
}

const TORCH_MODULE = new Set(['torch.nn.Module', 'torch.nn.modules.module.Module']);

function isInstance(ev: Interp, v: Value, cls: Value): Value {
  if (cls.t === 'seq') {
    let unsure = false;
    for (const c of cls.items) {
      const r = isInstance(ev, v, c);
      if (r.t === 'bool' && r.v) return r;
      if (r.t !== 'bool') unsure = true;
    }
    return unsure ? SCALAR : { t: 'bool', v: false };
  }
  const path = cls.t === 'ref' ? normalizePath(cls.path) : undefined;
  // A method read from an instance is a bound method, no function.
  const plainFunction = (x: Value) =>
    (x.t === 'function' && !x.self) || x.t === 'lambda' ? true : certainKind(ev, x) ? false : undefined;
  const primitive: Record<string, (x: Value) => boolean | undefined> = {
    'builtins.int': integral,
    'builtins.float': (x) => (x.t === 'float' ? true : known(x) ? false : undefined),
    'builtins.bool': (x) => (x.t === 'bool' ? true : known(x) ? false : undefined),
    'builtins.str': (x) => (x.t === 'str' ? true : known(x) ? false : undefined),
    'builtins.tuple': (x) => (x.t === 'seq' ? !!x.tuple : known(x) ? false : undefined),
    'builtins.list': (x) => (x.t === 'seq' ? !x.tuple : known(x) ? false : undefined),
    'builtins.dict': (x) => (x.t === 'dict' && !x.cls ? true : known(x) ? false : undefined),
    // Hugging Face's `size if isinstance(size, collections.abc.Iterable) else (size, size)`.
    // timm's `to_ntuple(4)(block)` repeats a block class: no class, function or partial is iterable.
    'collections.abc.Iterable': (x) =>
      x.t === 'seq' || x.t === 'str' || (x.t === 'dict' && !x.cls)
        ? true
        : (x.t === 'int' && x.p.isConstant) ||
            ['float', 'bool', 'none', 'function', 'lambda', 'partial'].includes(x.t) ||
            plainClass(ev, x)
          ? false
          : undefined,
    // timm's `isinstance(normalized_shape, numbers.Integral)` and `get_norm_layer`'s
    // `isinstance(norm_layer, (type, str, types.FunctionType, functools.partial))`.
    'numbers.Integral': integral,
    'numbers.Rational': integral,
    'numbers.Real': (x) => (x.t === 'float' ? true : integral(x)),
    'numbers.Complex': (x) => (x.t === 'float' ? true : integral(x)),
    'numbers.Number': (x) => (x.t === 'float' ? true : integral(x)),
    'builtins.type': (x) => (isClass(ev, x) ? true : certainKind(ev, x) ? false : undefined),
    // timm's `expand_blocks_cfg`: one block's configuration (a dataclass) or a sequence of them.
    'typing.Sequence': (x) => sequence(ev, x),
    'collections.abc.Sequence': (x) => sequence(ev, x),
    // timm's `isinstance(group_size, Callable)` of a block's group size.
    'typing.Callable': (x) => callable(ev, x),
    'collections.abc.Callable': (x) => callable(ev, x),
    'functools.partial': (x) => (x.t === 'partial' ? true : certainKind(ev, x) ? false : undefined),
    'types.FunctionType': plainFunction,
    'types.LambdaType': plainFunction,
  };
  if (path && primitive[path]) {
    const r = primitive[path](v);
    return r === undefined ? SCALAR : { t: 'bool', v: r };
  }
  if (cls.t === 'class') {
    const instanceClass = v.t === 'module' ? v.cls : v.t === 'dict' ? v.cls : undefined;
    if (instanceClass) return isSubclass(ev, { t: 'class', ...instanceClass }, cls);
    return known(v) ? { t: 'bool', v: false } : SCALAR;
  }
  if (path && v.t === 'layer') return { t: 'bool', v: path.endsWith(`.${v.layer.kind}`) || path === 'torch.nn.Module' };
  if (path && TORCH_MODULE.has(path) && v.t === 'module') return { t: 'bool', v: true };
  // timm's `get_attn('se')` asks `isinstance(attn_type, torch.nn.Module)` of a string.
  if (
    path?.startsWith('torch.nn.') &&
    (builtinType(v) || ['function', 'lambda', 'partial'].includes(v.t) || isClass(ev, v))
  )
    return { t: 'bool', v: false };
  return SCALAR;
}

function isSubclass(ev: Interp, a: Extract<Value, { t: 'class' }>, b: Value): Value {
  if (b.t === 'class')
    return {
      t: 'bool',
      v: (ev.classes.mro(a) ?? []).some((x) => !('path' in x) && key(x) === key(b) && x.file === b.file),
    };
  if (b.t === 'ref')
    return { t: 'bool', v: (ev.classes.mro(a) ?? []).some((x) => 'path' in x && x.path === normalizePath(b.path)) };
  return SCALAR;
}

/**
 * `issubclass(aa_layer, nn.AvgPool2d)` of a class of torch.nn: true of itself and of nn.Module, false of a
 * class of the workspace; the library's own hierarchy (nn.LazyLinear is an nn.Linear) is not known here.
 */
function torchNnSubclass(ev: Interp, a: Value, b: Value): Value {
  if (!isTorchNnClass(ev, a) || a.t !== 'ref') return SCALAR;
  if (b.t === 'class') return { t: 'bool', v: false };
  const path = b.t === 'ref' ? normalizePath(b.path) : undefined;
  return path === normalizePath(a.path) || (path && TORCH_MODULE.has(path)) ? { t: 'bool', v: true } : SCALAR;
}

/** Values whose kind is certain (so `isinstance` of another kind is False). */
function known(v: Value): boolean {
  return v.t !== 'unknown' && v.t !== 'sym';
}

/** Whether a value is certainly an integer (a bool is one): true, false, or undefined where not known. */
function integral(x: Value): boolean | undefined {
  return x.t === 'int' ? (x.p.isConstant ? true : undefined) : x.t === 'bool' ? true : known(x) ? false : undefined;
}

/**
 * Values whose kind is certain among the callables: a class of the workspace or of torch.nn, a function, a
 * lambda, a partial, a built module or layer, a plain value. Another library's name is not (a class, a
 * function or a partial).
 */
function certainKind(ev: Interp, x: Value): boolean {
  return (
    ['class', 'function', 'lambda', 'partial', 'module', 'layer', 'tensor', 'param'].includes(x.t) ||
    !!builtinType(x) ||
    isTorchNnClass(ev, x)
  );
}

/** A class of torch.nn, or of the workspace over torch.nn alone: no metaclass of a library base (an `Enum`'s) makes it iterable. */
function plainClass(ev: Interp, x: Value): boolean {
  if (x.t !== 'class') return isTorchNnClass(ev, x);
  const bases = ev.classes.mro(x);
  return !!bases?.every((b) => !('path' in b) || b.path.startsWith('torch.nn.') || b.path === 'builtins.object');
}

/** Whether a value is a `collections.abc.Sequence`: an instance of a class of the workspace over `object` alone is not. */
function sequence(ev: Interp, x: Value): boolean | undefined {
  if (x.t === 'seq' || x.t === 'str' || x.t === 'range') return true;
  if (x.t === 'dict' && x.cls)
    return ev.classes.mro(x.cls)?.every((b) => !('path' in b) || b.path === 'builtins.object') ? false : undefined;
  return builtinType(x) || ['function', 'lambda', 'partial', 'class'].includes(x.t) ? false : undefined;
}

/** Whether a value is callable: undefined where not known. */
function callable(ev: Interp, x: Value): boolean | undefined {
  if (['function', 'lambda', 'partial', 'module', 'layer'].includes(x.t) || isClass(ev, x)) return true;
  if (x.t === 'dict' && x.cls) return ev.classes.attribute(x.cls, '__call__', undefined) ? true : undefined;
  return builtinType(x) || x.t === 'tensor' || x.t === 'param' ? false : undefined;
}

function isClass(ev: Interp, x: Value): boolean {
  return x.t === 'class' || isTorchNnClass(ev, x);
}

/** The built-in type of a plain value (`type(768)` is `int`), as `type(x) == ListConfig` compares it. */
function builtinType(v: Value): string | undefined {
  switch (v.t) {
    case 'int':
    case 'float':
    case 'bool':
    case 'str':
      return v.t;
    case 'none':
      return 'NoneType';
    case 'seq':
      return v.tuple ? 'tuple' : 'list';
    case 'dict':
      return v.mapping && !v.cls ? 'dict' : undefined;
    default:
      return undefined;
  }
}
