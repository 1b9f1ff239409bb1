/**
 * Calls: arguments bound, and the callee dispatched: classes, functions and methods, lambdas, partials,
 * `super().__init__`, methods with a meaning of their own (`dict.get`, tensor methods, module methods), and
 * library functions (built-ins, torch, TF.js, catalog layers).
 */
import type { Arg } from '../ir/expr';
import type { Interp } from './interp';
import { peftCall } from './peft';
import { normalizePath } from '../ir/imports';
import { MAYBE_MODULE, NONE, SCALAR, UNKNOWN, isTainted, type Value } from '../values/value';
import { APPLY_METHODS, tensorSource } from '../shapes/flow';
import { OPAQUE } from '../shapes/tensors';
import { BUILTIN_CALLS, SCALAR_BUILTINS, itemsOf, stringMethod } from './builtins';
import { classBuiltin } from './classBuiltins';
import { Frame } from './frame';
import { TRANSFORMERS_METHODS, transformersClassMethod, transformersMethod } from './transformersApi';
import { tfjsTensorOp } from './tfjsTensors';
import { factoryShape } from './torchApi';
import { buildModelWithCfg, generateDefaultCfgs, timmFunction } from './timmBuilds';
import { changesList } from './assign';
import { BuiltinRaise } from './raises';
import { LIMITS } from '../limits/budget';
import { plain, type BoundCall, type CallExpr } from '../values/bound';

const NEW_TENSOR = new Set(['new_zeros', 'new_ones', 'new_empty', 'new_full']);

/** TF.js merge layers of equal shapes: the shape passes on. */
const TFJS_MERGES = new Set(['add', 'multiply', 'average', 'maximum', 'minimum', 'subtract']);
/** TF.js's element-wise arithmetic on two tensors: their broadcast shape (a residual `tf.add(x, h)`). */
const TFJS_ELEMENTWISE: Readonly<Record<string, string>> = {
  'tfjs.add': '+',
  'tfjs.sub': '-',
  'tfjs.mul': '*',
  'tfjs.div': '/',
};

export class Calls {
  constructor(private readonly ev: Interp) {}

  bind(args: readonly Arg[], frame: Frame): BoundCall | undefined {
    const positional: { value: Value; arg?: Arg }[] = [];
    const keywords = new Map<string, { value: Value; arg?: Arg }>();
    for (const arg of args) {
      const value = this.ev.eval(arg.value, frame);
      if (arg.spread === 'dict') {
        if (value.t !== 'dict' || isTainted(value)) return undefined;
        for (const [k, v] of value.fields) keywords.set(k, { value: v });
      } else if (arg.spread === 'list') {
        // `view(*x.shape[:-1], heads, -1)`: leading dimensions of unknown count, first, for a view to keep.
        if (value.t === 'repeat' || (value.t === 'dims' && positional.length === 0)) positional.push({ value, arg });
        else {
          const items = itemsOf(value);
          if (!items) return undefined;
          for (const item of items) positional.push({ value: item, arg });
        }
      } else if (arg.name !== undefined) keywords.set(arg.name, { value, arg });
      else positional.push({ value, arg });
    }
    return { positional, keywords };
  }

  call(e: CallExpr, frame: Frame): Value {
    this.ev.reach(e.span.start);
    this.ev.lastCall = e.span;
    const c = e.callee;
    let callee: Value;
    if (c.k === 'attr') {
      const obj = this.ev.eval(c.object, frame);
      if (obj.t === 'super' && c.id === '__init__') return this.superInit(obj, e, frame);
      if (obj.t === 'ref' && c.id === '__init__' && this.ev.isCatalogLayer(obj.path))
        return this.baseInit(obj.path, e, frame);
      const explicit = obj.t === 'class' && c.id === '__init__' ? this.explicitInit(obj, e, frame) : undefined;
      if (explicit) return explicit;
      if (obj.t === 'seq' && (c.object.k === 'name' || c.object.k === 'attr') && changesList(this.ev.language, c.id)) {
        const args = this.bind(e.args, frame);
        return args && !args.keywords.size
          ? this.ev.assignments.listMethod(
              c.object,
              obj,
              c.id,
              args.positional.map((p) => p.value),
              frame,
            )
          : UNKNOWN;
      }
      const special = this.methodCall(obj, c.id, e, frame);
      if (special) return special;
      callee = this.ev.member(obj, c.id);
    } else if (c.k === 'name' && c.id === 'super' && this.ev.language === 'typescript') {
      const s = classBuiltin(this.ev, 'builtins.super', [], new Map(), frame);
      return s?.t === 'super' ? this.superInit(s, e, frame) : UNKNOWN;
    } else {
      callee = this.ev.eval(c, frame);
    }
    const bound = this.bind(e.args, frame);
    // A model class built with arguments that cannot be followed is still built: its layers get a caller
    // whose sizes are not known, rather than no caller at all.
    if (!bound)
      return callee.t === 'class'
        ? this.callValue(callee, { positional: [], keywords: new Map(), opaque: true }, e, frame)
        : MAYBE_MODULE;
    return this.callValue(callee, bound, e, frame);
  }

  /** `nn.Linear.__init__(self, ...)`, loralib's way of building the layer it subclasses. */
  private baseInit(path: string, e: CallExpr, frame: Frame): Value {
    const bound = this.bind(e.args, frame);
    const self = bound?.positional[0]?.value;
    if (!bound || self?.t !== 'module') return UNKNOWN;
    return this.ev.classes.initLayerBase(self, path, { ...bound, positional: bound.positional.slice(1) }, e);
  }

  /** `super().__init__(...)`: the next constructor in the MRO, or the catalog layer being subclassed. */
  private superInit(s: Extract<Value, { t: 'super' }>, e: CallExpr, frame: Frame): Value {
    const bound = this.bind(e.args, frame);
    if (!bound) {
      if (s.self.t === 'module')
        this.ev.torch
          .owner(s.self.tree)
          .differs(
            s.self.tree.children as Map<string, unknown>,
            '',
            'the arguments of super().__init__ cannot be followed',
          );
      return UNKNOWN;
    }
    const next = this.ev.classes.superAttribute(s, this.ev.language === 'python' ? '__init__' : 'constructor');
    if (next?.t === 'function')
      return this.baseConstructor(
        next,
        bound.positional.map((p) => p.value),
        plain(bound.keywords),
        s.self,
      );
    return this.ev.classes.superInit(s, bound, e) ?? NONE;
  }

  /** `Base.__init__(self, ...)` of a class of the file: the base's constructor run on `self`, as super() runs it. */
  private explicitInit(cls: Value, e: CallExpr, frame: Frame): Value | undefined {
    const init = this.ev.member(cls, '__init__');
    if (init.t !== 'function') return undefined;
    const bound = this.bind(e.args, frame);
    if (!bound) return UNKNOWN;
    const self = bound.positional[0]?.value;
    if (self?.t !== 'module') return this.callValue(init, bound, e, frame);
    return this.baseConstructor(
      init,
      bound.positional.slice(1).map((p) => p.value),
      plain(bound.keywords),
      self,
    );
  }

  private baseConstructor(
    init: Extract<Value, { t: 'function' }>,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    self: Value,
  ): Value {
    const missing: string[] = [];
    const tooDeep = this.ev.budget.depth >= LIMITS.depth;
    const result = this.ev.functions.nested(() => {
      const exit = this.ev.of(init).functions.runConstructor(init, positional, keywords, self, missing);
      return exit === 'raise' ? UNKNOWN : NONE;
    });
    if (self.t !== 'module') return NONE;
    // `super().__init__(*args)` that leaves a base's parameter without a value: Python raises TypeError.
    if (missing.length)
      self.tree.unknown ??= `needs arguments: ${missing.join(', ')} ha${missing.length === 1 ? 's' : 've'} no default`;
    // A base constructor not run (past the nesting followed) or raising leaves the instance without its layers.
    if (result.t === 'unknown')
      self.tree.unknown ??= tooDeep
        ? `its bases' constructors nest more than ${LIMITS.depth} calls deep, deeper than Attention Lens follows`
        : "a base class's constructor raises here";
    return NONE;
  }

  /** Methods with a meaning of their own on the object they are called on; undefined for the others. */
  private methodCall(obj: Value, method: string, e: CallExpr, frame: Frame): Value | undefined {
    // An object's own class methods run as written, as does a callable it holds (`self.round_chs_fn(c)`);
    // only the others are dict methods.
    if (
      obj.t === 'dict' &&
      obj.fields instanceof Map &&
      !(obj.cls && (obj.fields.has(method) || this.ev.classes.attribute(obj.cls, method, undefined)?.t === 'function'))
    ) {
      const args = this.bind(e.args, frame);
      return args
        ? this.ev.dicts.call(
            obj,
            method,
            args.positional.map((p) => p.value),
            plain(args.keywords),
          )
        : UNKNOWN;
    }
    if (APPLY_METHODS.has(method) || method === 'add') {
      const flowed = this.ev.flows.flowCall(obj, method, e.args, frame, e.span);
      if (flowed) return flowed;
    }
    if (obj.t === 'str' && this.ev.language === 'python') {
      const args = this.bind(e.args, frame);
      const result =
        args && !args.keywords.size
          ? stringMethod(
              obj.v,
              method,
              args.positional.map((p) => p.value),
            )
          : undefined;
      if (result) return result;
    }
    // `self.weight.new_zeros((r, in_features))`: loralib's adapter matrices, shaped by the arguments.
    if (obj.t === 'param' && NEW_TENSOR.has(method)) {
      const args = this.bind(e.args, frame);
      const positional = args?.positional.map((p) => p.value) ?? [];
      return args
        ? {
            t: 'tensor',
            shape: factoryShape(method === 'new_full' ? positional.slice(0, 1) : positional, plain(args.keywords)),
          }
        : UNKNOWN;
    }
    if (obj.t === 'tensor') {
      const args = this.bind(e.args, frame);
      if (!args) return this.ev.tape ? this.ev.tape.uncertain('arguments not followed') : UNKNOWN;
      const [positional, keywords] = [args.positional.map((p) => p.value), plain(args.keywords)];
      const tfjs =
        this.ev.language === 'typescript' ? tfjsTensorOp(this.ev.checks, method, obj, positional, e.span) : undefined;
      const result = tfjs ?? this.ev.checks.tensorMethod(obj, method, positional, keywords, e.span);
      return this.ev.tape ? this.ev.tape.method(obj, method, positional, keywords, result) : result;
    }
    if (method === 'requires_grad_' && (obj.t === 'param' || obj.t === 'repeat')) {
      const args = this.bind(e.args, frame);
      const set =
        args &&
        this.ev.grads.method(
          obj,
          method,
          args.positional.map((p) => p.value),
          plain(args.keywords),
        );
      if (set) return set;
    }
    if (obj.t === 'class' && method === '_from_config') {
      const args = this.bind(e.args, frame);
      const built =
        args &&
        transformersClassMethod(this.ev, obj, method, args, (cls, bound) => this.callValue(cls, bound, e, frame));
      if (built) return built;
    }
    const layerClass = this.ev.tfjsLayers.method(obj, method, e, frame);
    if (layerClass) return layerClass;
    // Only the methods torch.nn gives a meaning of their own: the others (user methods) bind their arguments once, as calls.
    if (
      (obj.t === 'module' || obj.t === 'layer') &&
      (method === 'forward' || this.ev.torch.handles(method) || TRANSFORMERS_METHODS.has(method))
    ) {
      const args = this.bind(e.args, frame);
      if (!args) return undefined;
      if (method === 'forward' || (method === 'call' && this.ev.language === 'typescript' && obj.t === 'module'))
        return this.ev.flows.applyCallable(
          obj,
          args.positional.map((p) => p.value),
          plain(args.keywords),
          e.span,
        );
      return (
        transformersMethod(
          this.ev,
          obj,
          method,
          args.positional.map((p) => p.value),
        ) ??
        this.ev.torch.moduleMethod(
          obj,
          method,
          args.positional.map((p) => p.value),
        )
      );
    }
    return undefined;
  }

  /** Calls any callable value: classes, functions, methods, lambdas, partials, layers, library functions. */
  callValue(callee: Value, bound: BoundCall, e: CallExpr, frame: Frame): Value {
    // An instance of a plain class called (timm's `EfficientNetBuilder(...)(stem_size, block_args)`): its `__call__`.
    const call =
      callee.t === 'dict' && callee.cls && !isTainted(callee)
        ? this.ev.classes.attribute(callee.cls, '__call__', callee)
        : undefined;
    if (call?.t === 'function' && call.self) return this.callValue(call, bound, e, frame);
    const positional = bound.positional.map((p) => p.value);
    const keywords = plain(bound.keywords);
    switch (callee.t) {
      case 'class': {
        const built = this.ev.classes.instantiate(callee, bound, e);
        // Instances are this file's when its own module body builds them, whichever file defines the class.
        // A tf.layers.Layer subclass gets its weights when first applied: its total is read once the runs are over.
        if (frame.isModule && built.t === 'module' && this.ev.tfjsLayers.is(callee))
          this.ev.hooks.model?.(e, callee.name, () => built.tree);
        else if (frame.isModule && built.t === 'module') this.ev.hooks.instance?.(callee, e, built);
        else if (built.t === 'module') this.ev.hooks.part?.(callee, e, built);
        return built;
      }
      case 'function': {
        const timm = this.timm(callee, positional, keywords, e, frame);
        if (timm) return timm;
        const out = this.ev.of(callee).functions.callFunction(callee, positional, keywords, callee.self);
        // A factory called by the module body (`detr = build_detr()`) builds one of the file's models too.
        if (frame.isModule && out.t === 'module' && out.cls?.file === this.ev.file && !this.ev.tfjsLayers.is(out.cls))
          this.ev.hooks.instance?.(out.cls, e, out);
        return out;
      }
      case 'lambda':
        return this.callLambda(callee, positional, keywords);
      case 'partial': {
        const merged: BoundCall = {
          positional: [...callee.positional.map((value) => ({ value })), ...bound.positional],
          keywords: new Map([...[...callee.keywords].map(([k, value]) => [k, { value }] as const), ...bound.keywords]),
        };
        return this.callValue(callee.fn, merged, e, frame);
      }
      case 'layer':
      case 'module':
        return this.ev.flows.applyCallable(callee, positional, keywords, e.span);
      case 'super':
        return UNKNOWN;
      case 'ref':
        return this.library(normalizePath(callee.path), bound, e, frame);

      default:
        this.ev.tape?.opaque([...positional, ...keywords.values()]);
        // Something not known applied to a traced tensor (`self.q_norm(q)` where the norm is not known).
        return this.ev.checks.untracked(positional) ?? MAYBE_MODULE;
    }
  }

  private library(path: string, bound: BoundCall, e: CallExpr, frame: Frame): Value {
    const result = this.libraryCall(path, bound, e, frame);
    return this.ev.tape
      ? this.ev.tape.library(
          path,
          bound.positional.map((p) => p.value),
          plain(bound.keywords),
          result,
        )
      : result;
  }

  private libraryCall(path: string, bound: BoundCall, e: CallExpr, frame: Frame): Value {
    const positional = bound.positional.map((p) => p.value);
    const keywords = plain(bound.keywords);
    if (path === 'builtins.map') return this.map(positional, e, frame);
    const timm = this.timm({ t: 'ref', path }, positional, keywords, e, frame);
    if (timm) return timm;
    if (path === 'builtins.exec') return this.exec();
    const data = this.data(path, positional, keywords);
    if (data) return data;
    const language = classBuiltin(this.ev, path, positional, keywords, frame);
    if (language) return language;
    const functional = this.ev.checks.tensorFunction(path, positional, keywords);
    if (functional) return functional;
    const peft = peftCall(this.ev, path, positional, keywords, e, frame);
    if (peft) return peft;
    const built = this.ev.torch.construct(path, positional, keywords);
    if (built) return built;
    const builtin = BUILTIN_CALLS[path];
    if (builtin) {
      const value = builtin(positional, keywords);
      return value.t === 'unknown' && SCALAR_BUILTINS.has(path) ? SCALAR : value;
    }
    const tensorOp =
      path.startsWith('tfjs.') && positional[0]?.t === 'tensor'
        ? tfjsTensorOp(this.ev.checks, path.slice('tfjs.'.length), positional[0], positional.slice(1), e.span)
        : undefined;
    if (tensorOp) return tensorOp;
    const source = tensorSource(path, positional);
    if (source) return source;
    if (path === 'tfjs.sequential') return this.ev.flows.sequential(positional[0], e);
    if (path === 'tfjs.model') return this.ev.flows.functional(positional[0], e);
    if (TFJS_ELEMENTWISE[path] && positional.length === 2)
      return this.ev.binary(TFJS_ELEMENTWISE[path], positional[0], positional[1]);
    // `tf.tidy([name,] fn)` runs fn at once and returns what it returns.
    if (path === 'tfjs.tidy' && positional.length)
      return this.callValue(positional[positional.length - 1], { positional: [], keywords: new Map() }, e, frame);
    const op = path.startsWith('tfjs.layers.') ? path.slice('tfjs.layers.'.length) : '';
    if (op === 'concatenate') return { t: 'op', op };
    if (TFJS_MERGES.has(op)) return { t: 'op', op: 'same' };
    const layer = this.ev.hooks.layer(path, e, bound, true);
    // The framework raises in the constructor: nothing after it runs, so no second error is reported below it.
    if (layer?.t === 'layer' && layer.layer.rejected) throw new BuiltinRaise('an error', layer.layer.rejected, true);
    // What a call that cannot be followed gives may be a module, however it reaches a module's attribute; a
    // function of torch's gives a tensor (Llama's `freqs_cis = torch.polar(...)`), never a parameter of the model.
    return (
      layer ??
      this.ev.checks.untracked([...positional, ...keywords.values()]) ??
      (givesTensor(path) ? OPAQUE : givesArray(path) ? SCALAR : MAYBE_MODULE)
    );
  }

  /**
   * A file opened for reading by a path the code writes out, and the loaders reading one: `json.load`,
   * `yaml.safe_load` (and `yaml.load` with the safe loader), `tomllib.load`. What a loader reads is the data of
   * the file beside the running one, as its script reads it run from its folder.
   */
  private data(path: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value | undefined {
    const [first] = positional;
    if (path === 'builtins.open') {
      const mode = positional[1] ?? keywords.get('mode') ?? { t: 'str', v: 'r' };
      return first?.t === 'str' && mode.t === 'str' && /^r[bt]?$/.test(mode.v)
        ? { t: 'file', name: first.v, binary: mode.v === 'rb' }
        : undefined;
    }
    const loader = keywords.get('Loader');
    const format =
      path === 'json.load'
        ? 'json'
        : path === 'tomllib.load'
          ? 'toml'
          : path === 'yaml.safe_load' ||
              (path === 'yaml.load' && loader?.t === 'ref' && /^yaml\.C?SafeLoader$/.test(loader.path))
            ? 'yaml'
            : undefined;
    if (!format || first?.t !== 'file') return undefined;
    // tomllib reads bytes: a file opened as text makes it raise.
    if (format === 'toml' && !first.binary) return UNKNOWN;
    return this.ev.dataFile(first.name, format) ?? UNKNOWN;
  }

  /** timm's model builder and default configurations, run as timm does (timmBuilds.ts). */
  private timm(
    fn: Value,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    e: CallExpr,
    frame: Frame,
  ): Value | undefined {
    switch (timmFunction(this.ev, fn)) {
      case 'build':
        return buildModelWithCfg(this.ev, positional, keywords, (cls, kwargs) =>
          this.callValue(
            cls,
            { positional: [], keywords: new Map([...kwargs].map(([k, value]) => [k, { value }] as const)) },
            e,
            frame,
          ),
        );
      case 'defaultCfgs':
        return generateDefaultCfgs(positional[0] ?? keywords.get('cfgs'));
      default:
        return undefined;
    }
  }

  /**
   * `exec(open('configurator.py').read())`, as nanoGPT's scripts override their settings from the command line:
   * the code run may rebind any global, so the module's plain values (numbers, strings, lists, dicts) are no
   * longer known. Its classes, functions and imports are taken to stay what they are.
   */
  private exec(): Value {
    const module = this.ev.moduleFrame;
    for (const [name, value] of module.vars)
      if (!['class', 'function', 'ref', 'module', 'layer'].includes(value.t)) module.set(name, UNKNOWN);
    return NONE;
  }

  /** `map(f, xs, ...)`, as the list it yields: `q, k, v = map(lambda t: rearrange(t, ...), qkv)`. */
  private map(positional: readonly Value[], e: CallExpr, frame: Frame): Value {
    const [fn, ...iterables] = positional;
    const lists = iterables.map(itemsOf);
    if (!fn || !lists.length || lists.some((l) => !l)) return UNKNOWN;
    const length = Math.min(...lists.map((l) => l!.length));
    const items = Array.from({ length }, (_, i) =>
      this.callValue(fn, { positional: lists.map((l) => ({ value: l![i] })), keywords: new Map() }, e, frame),
    );
    return { t: 'seq', items };
  }

  invoke(fn: Extract<Value, { t: 'lambda' }>): Value {
    return this.callLambda(fn, [], new Map());
  }

  private callLambda(
    fn: Extract<Value, { t: 'lambda' }>,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
  ): Value {
    const closure = this.ev.shared.environments.frame(fn.closure);
    const frame = new Frame(closure.fragment, closure.scope, closure);
    fn.expr.params.forEach((p, i) => {
      frame.set(
        p.name,
        keywords.get(p.name) ??
          positional[i] ??
          (p.default ? this.ev.eval(p.default, closure) : { t: 'sym', name: p.name }),
      );
    });
    return this.ev.functions.nested(() => this.ev.eval(fn.expr.body, frame));
  }
}

/**
 * Whether a function of torch gives tensors (or tuples of them, or a dtype, a device, a generator): every
 * function of `torch`, `torch.linalg`, `torch.fft`, `torch.special`, `torch.nn.functional` and `torch.nn.init`
 * but `torch.load` (a pickled module, maybe) and `torch.compile` (the module it is given, wrapped).
 */
function givesTensor(path: string): boolean {
  return (
    /^torch\.(?:(?:linalg|fft|special|nn\.functional|nn\.init)\.)?[a-z_][a-z0-9_]*$/.test(path) &&
    path !== 'torch.load' &&
    path !== 'torch.compile'
  );
}

/**
 * Whether a function of numpy (`numpy.random`, `numpy.linalg`) gives arrays or numbers, plain values that are
 * never a module (`np.log(1 / 0.07)` scaling a parameter, drop-path rates); not `numpy.load`, which may unpickle.
 */
function givesArray(path: string): boolean {
  return /^numpy\.(?:(?:random|linalg)\.)?[a-z_][a-z0-9_]*$/.test(path) && path !== 'numpy.load';
}
