/** What an expression evaluates to, without running anything. */
import { Poly } from './symbolic';
import type { Span } from '../ir/expr';
import type { LayerInstance } from './layer';
import { emptyModule, type ModuleTree, type ParamRef } from './modules';
import type { Expr } from '../ir/expr';

/**
 * A class or function of a file, by place. `file` numbers the file that defines it among the files of the
 * run (Evaluator.of finds the file's evaluator): a value is data, and holds no interpreter.
 */
export interface DefRef {
  readonly name: string;
  readonly fragment: number;
  readonly scope: number;
  readonly file: number;
}

export type Value =
  /** An integer, exact or a polynomial over unknown names. */
  | { readonly t: 'int'; readonly p: Poly }
  /** A float: known, or symbolic (`d / 2` with `d` unknown is still certainly a float). */
  | { readonly t: 'float'; readonly v?: number }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'none' }
  /** A list, or a tuple with `tuple` (isinstance tells them apart). */
  | { readonly t: 'seq'; readonly items: readonly Value[]; readonly tuple?: boolean }
  /** Dicts, config instances, namespaces and object literals: named fields. */
  /** `mapping`: a Python dict, whose truth is whether it holds anything (an object or a config is always true). */
  | {
      readonly t: 'dict';
      readonly fields: ReadonlyMap<string, Value>;
      readonly origin?: string;
      readonly cls?: DefRef;
      readonly mapping?: boolean;
    }
  /** A name whose value is not known (a parameter without a default): it becomes a symbol in formulas. */
  | { readonly t: 'sym'; readonly name: string }
  /** An imported module or member, by canonical path (`torch.nn.Linear`). */
  | { readonly t: 'ref'; readonly path: string }
  /** A class defined in a file of the workspace. */
  | ({ readonly t: 'class' } & DefRef)
  /** A function or method: calls run its body; `self` is bound for a method read from an instance; `closure` is the frame it was defined in, by its number among the run's environments (interp/frame.ts). */
  | ({ readonly t: 'function'; readonly self?: Value; readonly closure?: number } & DefRef)
  | { readonly t: 'lambda'; readonly expr: Extract<Expr, { k: 'lambda' }>; readonly closure: number }
  /** `functools.partial(f, *args, **kw)`. */
  | {
      readonly t: 'partial';
      readonly fn: Value;
      readonly positional: readonly Value[];
      readonly keywords: ReadonlyMap<string, Value>;
    }
  /** `super()` inside a method of `cls`, for `self`. */
  | { readonly t: 'super'; readonly cls: DefRef; readonly self: Value }
  /** The index of `xs[a:b:c]`, None where left out. */
  | { readonly t: 'slice'; readonly lower: Value; readonly upper: Value; readonly step: Value }
  /** `range(start, stop)` (step 1). */
  | { readonly t: 'range'; readonly start: Poly; readonly stop: Poly }
  /**
   * A built layer; `build` numbers its construction in the run, by which the analysis builds it again for the
   * inputs it is applied to (TF.js sizes come from them); none once it can no longer be built from its call.
   */
  | { readonly t: 'layer'; readonly layer: LayerInstance; readonly span: Span; readonly build?: number }
  /**
   * A tensor, by its shape (batch first; unknown dims undefined). With `partial` only the last (feature)
   * dimension is placed: the rank is not known. `origin` says which layer produced it, for messages;
   * `trace` which projection, for recognising attention written by hand.
   */
  | {
      readonly t: 'tensor';
      readonly shape: Shape;
      readonly partial?: boolean;
      readonly origin?: Origin;
      readonly trace?: Trace;
      /** With `partial`: the forward() argument whose leading dimensions these are (`x` for `x.shape[0]`). */
      readonly lead?: string;
      /** The TF.js layers it went through, for the totals of tf.model. */
      readonly history?: readonly LayerUse[];
    }
  /** `x.shape` of a forward() argument of unknown rank: its leading dimensions, then `tail`. */
  | { readonly t: 'dims'; readonly lead: string; readonly tail: Shape }
  /** A layer without weights: passes the shape through, flattens it, or concatenates its inputs' features. */
  | { readonly t: 'op'; readonly op: 'same' | 'concatenate' }
  /** A `tf.sequential()` model whose layers are added one by one. */
  | { readonly t: 'model'; readonly id: number }
  /** An nn.Module instance: its module tree and its other attributes (`self.num_patches`). */
  | {
      readonly t: 'module';
      readonly tree: ModuleTree;
      readonly fields: Map<string, Value>;
      /** A subclass of a catalog layer: the layer its constructor built. */
      readonly layer?: Extract<Value, { t: 'layer' }>;
      /** The class it is an instance of (`owner` evaluates the file that defines it): calling it runs its forward(). */
      readonly cls?: DefRef;
      /** An nn.Sequential's layers, applied in order when it is called. */
      readonly items?: readonly Value[];
    }
  /**
   * A set of values each known and told apart (`{BatchNormAct2d, GroupNormAct}`, `set(names)`), without
   * duplicates: what membership, its size and its truth read. Its order is Python's hash order, so it is
   * never iterated here.
   */
  | { readonly t: 'set'; readonly items: readonly Value[] }
  /** `dataclasses.field(default=..., default_factory=...)`: what a dataclass field starts as in each instance. */
  | { readonly t: 'field'; readonly default?: Value; readonly factory?: Value }
  /** A parameter (`nn.Parameter(torch.zeros(1, 1, d))`, or `layer.weight`), by identity. */
  | { readonly t: 'param'; readonly ref: ParamRef }
  /** `count` independent copies of `item`: a comprehension over `range(n)`. */
  | { readonly t: 'repeat'; readonly item: Value; readonly count: Poly }
  /**
   * Not known; with `scalar`, certainly not a module or a parameter (`hasattr(...)`, a comparison); with
   * `module`, what a call that cannot be followed gave a module's attribute, which may be a module.
   */
  | { readonly t: 'unknown'; readonly scalar?: boolean; readonly module?: boolean }
  /** A file opened for reading by a path the code writes out (`open('configs/net.json')`), for a loader to read. */
  | { readonly t: 'file'; readonly name: string; readonly binary: boolean };

export type Shape = readonly (Poly | undefined)[];

/**
 * A TF.js layer a symbolic tensor went through, as it was built there: `tf.model` counts these. The file's
 * own tf.layers.Layer subclass is its module tree: what it tracks, not the layers its call() applies.
 */
export type LayerUse =
  { readonly layer: Value; readonly built: LayerInstance } | { readonly layer: Value; readonly tree: ModuleTree };

/** Where a tensor's size comes from: `nn.Linear(512, 128)` defined at `span`. */
export interface Origin {
  readonly label: string;
  readonly span: Span;
}

export const UNKNOWN: Value = { t: 'unknown' };
export const NONE: Value = { t: 'none' };
export const SCALAR: Value = { t: 'unknown', scalar: true };
export const MAYBE_MODULE: Value = { t: 'unknown', module: true };

export function int(n: bigint | number | Poly): Value {
  return { t: 'int', p: n instanceof Poly ? n : Poly.int(n) };
}

/** The value as an integer polynomial, symbols included; undefined when it is no integer. */
export function asPoly(v: Value): Poly | undefined {
  if (v.t === 'int') return v.p;
  if (v.t === 'sym') return Poly.symbol(v.name);
  if (v.t === 'bool') return Poly.int(v.v ? 1 : 0);
  return undefined;
}

/** The dicts a call not followed may have changed: what they hold is no longer known. */
const tainted = new WeakSet<object>();

export function taint(d: Extract<Value, { t: 'dict' }>): void {
  tainted.add(d.fields);
}

export function isTainted(d: Extract<Value, { t: 'dict' }>): boolean {
  return tainted.has(d.fields);
}

/** Python/JS truthiness where it is known. */
export function truthy(v: Value): boolean | undefined {
  switch (v.t) {
    case 'bool':
      return v.v;
    case 'none':
      return false;
    case 'int':
      return v.p.constant === undefined ? undefined : v.p.constant !== 0n;
    case 'float':
      return v.v === undefined ? undefined : v.v !== 0;
    case 'str':
      return v.v.length > 0;
    case 'seq':
    case 'set':
      return v.items.length > 0;
    case 'range':
      return v.start.constant !== undefined && v.stop.constant !== undefined
        ? v.stop.constant > v.start.constant
        : undefined;
    case 'dict':
      return !v.mapping || v.fields.size > 0 || (isTainted(v) ? undefined : false);
    case 'class':
    case 'function':
    case 'lambda':
    case 'partial':
    case 'layer':
    case 'tensor':
    case 'op':
    case 'model':
    case 'module':
    case 'param':
      return true;
    default:
      return undefined;
  }
}

/** Whether two values are certainly the same (the same object, or equal plain values). */
export function sameValue(a: Value, b: Value, depth = 0): boolean {
  if (a === b) return true;
  // Values can hold themselves (`d["self"] = d`): past this depth two values are not taken as the same.
  if (depth > 16) return false;
  switch (a.t) {
    case 'int':
      return b.t === 'int' && a.p.equals(b.p);
    case 'float':
      return b.t === 'float' && a.v !== undefined && a.v === b.v;
    case 'bool':
    case 'str':
      return b.t === a.t && b.v === a.v;
    case 'none':
      return b.t === 'none';
    case 'sym':
      return b.t === 'sym' && a.name === b.name;
    case 'ref':
      return b.t === 'ref' && a.path === b.path;
    case 'class':
    case 'function':
      return (
        b.t === a.t &&
        a.fragment === b.fragment &&
        a.scope === b.scope &&
        a.file === b.file &&
        (a.t !== 'function' || (b.t === 'function' && a.self === b.self))
      );
    case 'seq':
      return (
        b.t === 'seq' &&
        a.items.length === b.items.length &&
        a.items.every((x, i) => sameValue(x, b.items[i], depth + 1))
      );
    case 'dict':
      return (
        b.t === 'dict' &&
        a.origin === b.origin &&
        a.fields.size === b.fields.size &&
        [...a.fields].every(([k, v]) => b.fields.has(k) && sameValue(v, b.fields.get(k)!, depth + 1))
      );
    case 'repeat':
      return b.t === 'repeat' && a.count.equals(b.count) && sameValue(a.item, b.item, depth + 1);
    case 'range':
      return b.t === 'range' && a.start.equals(b.start) && a.stop.equals(b.stop);
    default:
      return false;
  }
}

/** One value for two paths: the same value, or unknown (a module perhaps, when either may be one). */
export function joinValues(a: Value, b: Value): Value {
  if (a.t === 'tensor' && b.t === 'tensor' && a !== b) return joinTensors(a, b);
  return sameValue(a, b) ? a : (joinHoldingNothing([a, b]) ?? unknownOf(a, b));
}

/**
 * Modules holding nothing (no parameters, no parts), built on different paths: whichever is built, the owner's
 * total is the same. Of one class (timm's `create_act_layer` returns `act_layer(inplace=True)`, or `act_layer()`
 * where that raised; its `create_aa` builds `BlurPool2d` with its channels, or with its stride alone), the
 * module is that class's, with the fields that differ not known; of several (`DropPath(p) if p > 0 else
 * nn.Identity()`), it is named for each (`DropPath or Identity`) and what it does to a tensor is not known.
 */
export function joinHoldingNothing(values: readonly Value[]): Value | undefined {
  const modules = values.filter(holdsNothing);
  if (modules.length !== values.length || !modules.length) return undefined;
  const [first] = modules;
  if (!modules.every((m) => !m.items && m.tree.kind === first.tree.kind && sameClass(m.cls, first.cls))) {
    const kinds = [...new Set(modules.map((m) => m.tree.kind))];
    return { t: 'module', tree: emptyModule(kinds.join(' or ')), fields: new Map() };
  }
  const fields = new Map<string, Value>();
  for (const m of modules)
    for (const k of m.fields.keys()) {
      const each = modules.map((x) => x.fields.get(k) ?? UNKNOWN);
      fields.set(k, each.every((x) => sameValue(x, each[0])) ? each[0] : unknownOf(...each));
    }
  return { t: 'module', tree: first.tree, fields, cls: first.cls };
}

function sameClass(a: DefRef | undefined, b: DefRef | undefined): boolean {
  return a === b || (!!a && !!b && a.file === b.file && a.fragment === b.fragment && a.scope === b.scope);
}

function holdsNothing(v: Value): v is Extract<Value, { t: 'module' }> {
  if (v.t !== 'module' || v.layer) return false;
  const t = v.tree;
  return !t.unknown && !t.repeat && !t.params.size && !t.children.size && !t.arrays?.size && !t.untracked?.size;
}

/**
 * What several values that are not known to agree come to: a plain value when each is one (`return False` on
 * one path, `return level > 1` on another), else unknown, a module perhaps when any may be one.
 */
export function unknownOf(...values: readonly Value[]): Value {
  if (values.every(isPlain)) return SCALAR;
  return values.some((v) => mayHoldModule(v, 0)) ? MAYBE_MODULE : UNKNOWN;
}

/** Whether a module or layer may be `v` or among its items: set as a module's attribute, it is a part. */
function mayHoldModule(v: Value, depth: number): boolean {
  switch (v.t) {
    case 'module':
    case 'layer':
      return true;
    case 'unknown':
      return v.module === true;
    case 'seq':
      return depth < 4 && v.items.some((x) => mayHoldModule(x, depth + 1));
    case 'dict':
      return depth < 4 && [...v.fields.values()].some((x) => mayHoldModule(x as Value, depth + 1));
    default:
      return false;
  }
}

/**
 * `a if test else b` with the test not known and the two not equal: one of two plain values is still no
 * module; only a branch that may hold parameters leaves the owner's total unknown.
 */
export function eitherOf(a: Value, b: Value): Value {
  return isPlain(a) && isPlain(b) ? SCALAR : UNKNOWN;
}

/**
 * A value that holds no module or parameter, whatever it is; torch's names among them (`torch.float16`,
 * `torch.nn.GELU`): torch keeps no module instance among its names, as a user's module may (`from .net import backbone`).
 */
function isPlain(v: Value): boolean {
  return (
    (v.t === 'ref' && v.path.startsWith('torch.')) ||
    v.t === 'int' ||
    v.t === 'float' ||
    v.t === 'bool' ||
    v.t === 'str' ||
    v.t === 'none' ||
    v.t === 'sym' ||
    (v.t === 'unknown' && !!v.scalar)
  );
}

/** Two branches' tensors: the dimensions they agree on, and the trace they share (two paths to one core). */
function joinTensors(a: Extract<Value, { t: 'tensor' }>, b: Extract<Value, { t: 'tensor' }>): Value {
  const aligned = a.shape.length === b.shape.length && !!a.partial === !!b.partial;
  const shape = aligned ? a.shape.map((d, i) => (d && b.shape[i]?.equals(d) ? d : undefined)) : [undefined];
  const trace = a.trace && b.trace && sameTrace(a.trace, b.trace) ? a.trace : undefined;
  return {
    t: 'tensor',
    shape,
    partial: aligned ? a.partial : true,
    origin: a.origin === b.origin ? a.origin : undefined,
    trace,
  };
}

/** A short text for messages: `512`, `d_model`, `256.0`. */
export function describe(v: Value): string {
  switch (v.t) {
    case 'int':
      return v.p.toString();
    case 'float':
      return v.v === undefined ? 'a float' : Number.isInteger(v.v) ? `${v.v}.0` : String(v.v);
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'str':
      return JSON.stringify(v.v);
    case 'none':
      return 'None';
    case 'sym':
      return v.name;
    default:
      return 'unknown';
  }
}

/**
 * Where a tensor comes from, for recognising attention written by hand (attention/trace.ts follows it): part
 * of the tensor's value, so kept with the values.
 */
export interface Source {
  /** The projection whose output this is. */
  readonly layer?: Extract<Value, { t: 'layer' }>;
  /** The feature size the projection gave this tensor (a third of a fused qkv after its split). */
  readonly width?: Poly;
  /** Which slice of a fused projection (`q, k, v = qkv.split(E, dim=2)`). */
  readonly part?: number;
  /** The forward() argument it was computed from: keys from another argument make cross attention. */
  readonly input?: string;
  /** The last reshape that split the features: `view(B, T, heads, headDim)`. */
  readonly heads?: Poly;
  readonly headDim?: Poly;
}

export interface Core {
  readonly q: Source;
  readonly k: Source;
  readonly v?: Source;
  /** A softmax (or scaled_dot_product_attention) normalised the scores. */
  readonly softmax: boolean;
}

export interface Trace {
  readonly source?: Source;
  readonly core?: Core;
}

function sameSource(a: Source | undefined, b: Source | undefined): boolean {
  return (
    a === b || (a !== undefined && b !== undefined && a.layer === b.layer && a.part === b.part && a.input === b.input)
  );
}

/** Whether two branches' tensors come the same way: the same projection, or the same core. */
export function sameTrace(a: Trace, b: Trace): boolean {
  if (a.core || b.core)
    return (
      !!a.core &&
      !!b.core &&
      sameSource(a.core.q, b.core.q) &&
      sameSource(a.core.k, b.core.k) &&
      sameSource(a.core.v, b.core.v) &&
      a.core.softmax === b.core.softmax
    );
  return sameSource(a.source, b.source);
}
