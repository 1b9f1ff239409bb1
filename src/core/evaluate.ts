/**
 * Evaluates argument expressions without running anything: literals, constants, default values of the
 * enclosing function, class attributes, config objects, and arithmetic. What cannot be known becomes a
 * symbol (a parameter without a default) or `unknown`, never a guess.
 */
import type { Arg, Expr } from './expr';
import { dottedPath, mentionsName, type Span } from './expr';
import { RETURN, type Binding, type Fragment, type ImportBinding, type ImportResolver, type Scope, type SourceModel } from './source';
import { NONE, UNKNOWN, asPoly, int, truthy, type Shape, type Value } from './value';
import { Poly, groupDigits } from './symbolic';
import { OPAQUE, SHAPE_PRESERVING, concatenate, features, matmul, tensorMethod, withFeatures, type Tensor } from './tensors';
import type { Finding } from './layer';
import { APPLY_METHODS, appliedShapes, feed, tensorSource } from './flow';
import { TFJS_PASS_THROUGH, layerSpec } from './catalog';

const layerSpecKnown = (path: string) => layerSpec(path) !== undefined;
import { canonicalPath, normalizePath } from './imports';
import { childAt, container, deepCopy, emptyModule, layerModule, param, type ModuleTree } from './modules';

/** Where an expression stands: its fragment, innermost scope (-1: module level) and offset. */
export interface Ctx {
  readonly fragment: number;
  readonly scope: number;
  readonly at: number;
  /** Values bound while instantiating a config class (`self.x`, constructor parameters). */
  readonly locals?: ReadonlyMap<string, Value>;
}

/** Builds a layer when a call reaches a catalog entry; supplied by the analysis. */
/** `foreign` is set for calls in another (imported) file: their offsets are not this file's. */
export type LayerFactory = (path: string, call: Extract<Expr, { k: 'call' }>, args: BoundCall, foreign?: boolean) => Value | undefined;

export interface BoundCall {
  readonly positional: readonly { value: Value; arg: Arg }[];
  readonly keywords: ReadonlyMap<string, { value: Value; arg?: Arg }>;
}

const MAX_DEPTH = 48;

interface ModuleIndex {
  readonly bindings: Map<string, { fragment: number; binding: Binding }[]>;
  readonly imports: Map<string, ImportBinding>;
  readonly classes: Map<string, { fragment: number; scope: number }>;
  readonly functions: Map<string, { fragment: number; scope: number }>;
}

function indexModule(fragments: readonly Fragment[]): ModuleIndex {
  const index: ModuleIndex = { bindings: new Map(), imports: new Map(), classes: new Map(), functions: new Map() };
  fragments.forEach((f, fi) => {
    for (const imp of f.imports) index.imports.set(imp.local, imp);
    for (const b of f.moduleBindings) {
      if (b.append) continue;
      const list = index.bindings.get(b.target) ?? [];
      list.push({ fragment: fi, binding: b });
      index.bindings.set(b.target, list);
    }
    f.scopes.forEach((s, si) => {
      if (s.parent === -1) (s.kind === 'class' ? index.classes : index.functions).set(s.name, { fragment: fi, scope: si });
    });
  });
  return index;
}

export class Evaluator {
  private readonly index: ModuleIndex;
  private depth = 0;
  private readonly globalMemo = new Map<string, Value>();
  private readonly memo = new WeakMap<object, Map<Binding, Value>>();
  /** Module trees of layer values, so one layer object is one module. */
  private readonly layerModules = new WeakMap<object, ModuleTree>();
  /** Module classes found so far (their bases reach nn.Module). */
  private readonly moduleClasses = new Map<string, boolean>();
  /** How the language names the instance and its constructor. */
  private get selfName(): string {
    return this.model.language === 'python' ? 'self' : 'this';
  }

  /** The index of the class's constructor (`__init__` / `constructor`) in its fragment, or -1. */
  private initOf(fragment: Fragment, classScope: number): number {
    const name = this.model.language === 'python' ? '__init__' : 'constructor';
    return fragment.scopes.findIndex((s) => s.parent === classScope && s.kind === 'function' && s.name === name);
  }

  /** Above 0 while applying the inner layers of a Sequential, whose mismatches are reported where it is built. */
  private quiet = 0;
  /** Module-level names read since the last clear, so an edit re-evaluates only what depends on it. */
  readonly reads = new Set<string>();
  /** The output shape of each `tf.sequential()` model so far, as `model.add` calls extend it. */
  private readonly models = new Map<number, Shape | undefined>();

  constructor(
    readonly model: SourceModel,
    private readonly makeLayer: LayerFactory,
    /** Receives the shape errors met while following tensors (each may arrive more than once). */
    private readonly sink: (f: Finding) => void = () => undefined,
    /** Other files of the workspace, for the classes and constants this one imports. */
    private readonly resolver?: ImportResolver,
    /** Evaluators of the imported files, shared along a chain of imports (which may loop). */
    private readonly imported = new Map<SourceModel, Evaluator>(),
  ) {
    this.index = indexModule(model.fragments);
  }

  scopeOf(ctx: Ctx): Scope | undefined {
    return ctx.scope >= 0 ? this.model.fragments[ctx.fragment].scopes[ctx.scope] : undefined;
  }

  eval(expr: Expr, ctx: Ctx): Value {
    if (this.depth > MAX_DEPTH) return UNKNOWN;
    this.depth++;
    try {
      return this.evalInner(expr, ctx);
    } finally {
      this.depth--;
    }
  }

  private evalInner(e: Expr, ctx: Ctx): Value {
    switch (e.k) {
      case 'int':
        return int(e.value);
      case 'float':
        return { t: 'float', v: e.value };
      case 'str':
        return { t: 'str', v: e.value };
      case 'bool':
        return { t: 'bool', v: e.value };
      case 'none':
        return NONE;
      case 'name':
        return this.lookup(e.id, ctx);
      case 'attr':
        return this.attribute(e, ctx);
      case 'index':
        return this.subscript(this.eval(e.object, ctx), this.eval(e.index, ctx));
      case 'binary':
        return this.binary(e.op, this.eval(e.left, ctx), this.eval(e.right, ctx), e.span);
      case 'unary': {
        const v = this.eval(e.operand, ctx);
        if (e.op === 'not') {
          const t = truthy(v);
          return t === undefined ? UNKNOWN : { t: 'bool', v: !t };
        }
        if (e.op === '+') return v;
        if (v.t === 'float') return v.v === undefined ? v : { t: 'float', v: -v.v };
        const p = asPoly(v);
        return p ? int(p.neg()) : UNKNOWN;
      }
      case 'compare':
        return compare(e.op, this.eval(e.left, ctx), this.eval(e.right, ctx));
      case 'logic': {
        const left = this.eval(e.left, ctx);
        if (e.op === 'nullish') return left.t === 'none' ? this.eval(e.right, ctx) : left.t === 'unknown' ? UNKNOWN : left;
        const t = truthy(left);
        if (t === undefined) return UNKNOWN;
        if (e.op === 'or') return t ? left : this.eval(e.right, ctx);
        return t ? this.eval(e.right, ctx) : left;
      }
      case 'cond': {
        const t = truthy(this.eval(e.test, ctx));
        return t === undefined ? UNKNOWN : this.eval(t ? e.then : e.otherwise, ctx);
      }
      case 'list': {
        const items: Value[] = [];
        for (const item of e.items) items.push(this.eval(item, ctx));
        return { t: 'seq', items };
      }
      case 'dict': {
        const fields = new Map<string, Value>();
        for (const entry of e.entries) {
          if (entry.spread) {
            const v = this.eval(entry.spread, ctx);
            if (v.t !== 'dict') return UNKNOWN;
            for (const [k, val] of v.fields) fields.set(k, val);
          } else if (entry.key) {
            const key = entry.key.k === 'name' && this.model.language === 'typescript' ? { t: 'str', v: entry.key.id } as Value : this.eval(entry.key, ctx);
            if (key.t !== 'str') return UNKNOWN;
            fields.set(key.v, this.eval(entry.value, ctx));
          }
        }
        return { t: 'dict', fields };
      }
      case 'call':
        return this.call(e, ctx);
      case 'comprehension':
        return this.comprehension(e, ctx);
      default:
        return UNKNOWN;
    }
  }

  /**
   * `[Block(c) for _ in range(n)]` is n independent copies, even for a symbolic n; an element that reads
   * its loop variable is evaluated for each value, when there are few enough to list.
   */
  private comprehension(e: Extract<Expr, { k: 'comprehension' }>, ctx: Ctx): Value {
    const loop = this.loopValues(e.iterable, ctx);
    if (!loop) return UNKNOWN;
    if (!e.variable || !mentionsName(e.element, e.variable)) return { t: 'repeat', item: this.eval(e.element, ctx), count: loop.count };
    if (!loop.values) return UNKNOWN;
    const variable = e.variable;
    return { t: 'seq', items: loop.values.map((v) => this.eval(e.element, withLocal(ctx, variable, v))) };
  }

  /** What a `for` iterates: its count (symbolic for `range(n)`), and its values when few enough to list. */
  private loopValues(iterable: Expr, ctx: Ctx): { count: Poly; values?: Value[] } | undefined {
    if (iterable.k === 'call' && iterable.callee.k === 'name' && iterable.callee.id === 'range' && iterable.args.length >= 1 && iterable.args.length <= 2) {
      const bounds = iterable.args.map((a) => asPoly(this.eval(a.value, ctx)));
      if (bounds.some((b) => !b)) return undefined;
      const [lo, hi] = bounds.length === 2 ? [bounds[0]!, bounds[1]!] : [Poly.ZERO, bounds[0]!];
      const count = hi.sub(lo);
      if (lo.constant === undefined || hi.constant === undefined || hi.constant - lo.constant > 256n) return { count };
      const values: Value[] = [];
      for (let i = lo.constant; i < hi.constant; i++) values.push(int(i));
      return { count, values };
    }
    const seq = this.eval(iterable, ctx);
    return seq.t === 'seq' ? { count: Poly.int(seq.items.length), values: [...seq.items] } : undefined;
  }

  // ---- names -------------------------------------------------------------------------------------

  lookup(name: string, ctx: Ctx): Value {
    const fragment = this.model.fragments[ctx.fragment];
    // Bound arguments give way to a later local assignment of the same name (`d = d // 2`); loop
    // variables and `self.x` set so far do not.
    const local = ctx.locals?.get(name);
    const argument = local !== undefined && ctx.scope >= 0 && fragment.scopes[ctx.scope].params.some((p) => p.name === name);
    if (local && !argument) return local;
    let scopeIndex = ctx.scope;
    let at = ctx.at;
    let innermost = true;
    while (scopeIndex >= 0) {
      const scope = fragment.scopes[scopeIndex];
      if (scope.kind === 'function' || innermost) {
        const found = this.lastBinding(scope.bindings, name, at);
        if (found) return this.withAppends(found, scope.bindings, { fragment: ctx.fragment, scope: scopeIndex, at: found.at, locals: ctx.locals }, at);
        const param = scope.params.find((p) => p.name === name);
        if (param) return innermost && local ? local : this.paramValue(param, ctx.fragment, scopeIndex);
      }
      // Python class bodies are not visible from their methods; the enclosing function's are.
      innermost = false;
      at = scope.nameSpan.start;
      scopeIndex = scope.parent;
    }
    return this.moduleName(name, ctx.scope === -1 ? ctx.at : Number.MAX_SAFE_INTEGER);
  }

  private moduleName(name: string, at: number): Value {
    this.reads.add(name);
    const list = this.index.bindings.get(name);
    if (list?.length) {
      const before = list.filter((b) => b.binding.at < at);
      const chosen = before.length ? before[before.length - 1] : list[list.length - 1];
      return this.evalBinding(chosen.binding, { fragment: chosen.fragment, scope: -1, at: chosen.binding.at });
    }
    const imp = this.index.imports.get(name);
    if (imp) return (imp.member && this.importedName(imp.module, imp.member)) || { t: 'ref', path: canonicalPath(imp.module, imp.member) };
    const cls = this.index.classes.get(name);
    if (cls) return { t: 'class', name, fragment: cls.fragment, scope: cls.scope };
    const fn = this.index.functions.get(name);
    if (fn) return { t: 'function', name, fragment: fn.fragment, scope: fn.scope };
    if (BUILTINS[this.model.language].has(name)) return { t: 'ref', path: `builtins.${name}` };
    return { t: 'sym', name };
  }

  private classNamed(name: string): { fragment: number; scope: number } | undefined {
    this.reads.add(name);
    return this.index.classes.get(name);
  }

  /** `from .blocks import Block`: the class, function or constant as the other file defines it. */
  private importedName(module: string, member: string): Value | undefined {
    const model = this.resolver?.resolve(module);
    if (!model) return undefined;
    let other = this.imported.get(model);
    if (!other) {
      other = new Evaluator(model, (path, call, args) => this.makeLayer(path, call, args, true), () => undefined, this.resolver, this.imported);
      this.imported.set(model, other);
    }
    const cls = other.index.classes.get(member);
    if (cls) return { t: 'class', name: member, fragment: cls.fragment, scope: cls.scope, owner: other };
    const fn = other.index.functions.get(member);
    if (fn) return { t: 'function', name: member, fragment: fn.fragment, scope: fn.scope, owner: other };
    if (other.index.bindings.has(member)) return other.moduleName(member, Number.MAX_SAFE_INTEGER);
    return undefined;
  }

  private lastBinding(bindings: readonly Binding[], target: string, at: number): Binding | undefined {
    let found: Binding | undefined;
    for (const b of bindings) if (b.target === target && b.at < at && !b.append) found = b;
    return found;
  }

  /** The value of `found`, grown by the `.append` / `.extend` calls on the same name before `at`. */
  private withAppends(found: Binding, bindings: readonly Binding[], ctx: Ctx, at: number): Value {
    let value = this.evalBinding(found, ctx);
    const appends = bindings.filter((b) => b.append && b.target === found.target && b.at > found.at && b.at < at);
    for (const group of loopGroups(appends)) value = this.appendGroup(value, group, { ...ctx, at: group[0].at });
    return value;
  }

  /**
   * Appends made by one loop body (or one plain call). A loop over few enough values runs pass by pass, in
   * order; over `range(n)` with n unknown each append adds n copies, as a comprehension would.
   */
  private appendGroup(current: Value, group: readonly Binding[], ctx: Ctx): Value {
    const loop = group[0].append?.iterable;
    const iteration = loop ? this.loopValues(this.model.expr(loop), ctx) : undefined;
    const variable = group[0].append?.variable;
    const element = (b: Binding, c: Ctx): Value[] | undefined => {
      const v = this.eval(this.model.expr(b.value!), c);
      if (!b.append?.extend) return [v];
      return v.t === 'seq' ? [...v.items] : undefined;
    };
    const items: Value[] = [];
    if (!loop) {
      const added = element(group[0], ctx);
      return this.extend(current, added);
    }
    if (!iteration) return this.extend(current, undefined);
    if (iteration.values && variable) {
      for (const v of iteration.values) {
        for (const b of group) {
          const added = element(b, withLocal(ctx, variable, v));
          if (!added) return this.extend(current, undefined);
          items.push(...added);
        }
      }
      return this.extend(current, items);
    }
    for (const b of group) {
      const added = element(b, ctx);
      if (added?.length !== 1) return this.extend(current, undefined);
      items.push({ t: 'repeat', item: added[0], count: iteration.count });
    }
    return this.extend(current, items);
  }

  private extend(current: Value, items: readonly Value[] | undefined): Value {
    if (current.t === 'module') {
      for (const item of items ?? []) {
        const child = this.childTree(item);
        if (child) current.tree.children.set(String(current.tree.children.size), child);
        else current.tree.unknown ??= 'an appended item is not a module Attention Lens can follow';
      }
      if (!items) current.tree.unknown ??= 'an appended item cannot be followed';
      return current;
    }
    if (!items) return UNKNOWN;
    if (current.t === 'seq' && items.every((i) => i.t !== 'repeat')) return { t: 'seq', items: [...current.items, ...items] };
    if (current.t === 'seq' && current.items.length === 0 && items.length === 1) return items[0];
    return UNKNOWN;
  }

  /** One value per binding (and per instantiation): a layer kept under two names is one object, counted once. */
  private evalBinding(b: Binding, ctx: Ctx): Value {
    const key = ctx.locals ?? this.globalMemo;
    let memo = this.memo.get(key);
    if (!memo) this.memo.set(key, (memo = new Map()));
    const known = memo.get(b);
    if (known) return known;
    let value: Value;
    if (!b.value) {
      const cls = b.annotation ? this.classNamed(b.annotation) : undefined;
      value = cls ? this.instantiate(cls, [], new Map()) : { t: 'sym', name: b.target };
    } else {
      // Guards a binding against reading itself (`x = x + 1` looks up the x before it, never this one).
      memo.set(b, UNKNOWN);
      const expr = this.model.expr(b.value);
      value = this.eval(expr, ctx);
      if (b.unpack !== undefined) value = element(value, b.unpack);
      if (b.op) {
        const name = b.target;
        const self = `${this.selfName}.`;
        const previous = name.startsWith(self) ? this.selfAttribute(name.slice(self.length), ctx, this.selfName) : this.lookup(name, { ...ctx, at: b.at });
        value = this.binary(b.op, previous, value, expr.span);
      }
    }
    memo.set(b, value);
    return value;
  }

  /** A default value; else an instance of an annotated config class; else a symbol named after the parameter. */
  private paramValue(param: Scope['params'][number], fragment: number, scopeIndex: number): Value {
    if (param.variadic) return UNKNOWN;
    const scope = this.model.fragments[fragment].scopes[scopeIndex];
    if (param.default) return this.eval(this.model.expr(param.default), { fragment, scope: scope.parent, at: scope.nameSpan.start });
    const cls = param.annotation ? this.classNamed(param.annotation) : undefined;
    if (cls) return this.instantiate(cls, [], new Map());
    return { t: 'sym', name: param.name };
  }

  /** `self.x` inside a method: set earlier in the method, in `__init__`, or a class attribute. */
  private selfAttribute(id: string, ctx: Ctx, selfName: string): Value {
    const key = `${selfName}.${id}`;
    const local = ctx.locals?.get(key);
    if (local) return local;
    const fragment = this.model.fragments[ctx.fragment];
    let scopeIndex = ctx.scope;
    while (scopeIndex >= 0 && fragment.scopes[scopeIndex].kind !== 'function') scopeIndex = fragment.scopes[scopeIndex].parent;
    if (scopeIndex < 0) return { t: 'sym', name: key };
    const method = fragment.scopes[scopeIndex];
    const found = this.lastBinding(method.bindings, key, ctx.at);
    if (found) return this.evalBinding(found, { ...ctx, scope: scopeIndex, at: found.at });
    const classIndex = method.parent;
    if (classIndex < 0 || fragment.scopes[classIndex].kind !== 'class') return { t: 'sym', name: key };
    const init = this.initOf(fragment, classIndex);
    if (init >= 0 && init !== scopeIndex) {
      const b = this.lastBinding(fragment.scopes[init].bindings, key, Number.MAX_SAFE_INTEGER);
      if (b) return this.evalBinding(b, { fragment: ctx.fragment, scope: init, at: b.at });
    }
    return this.classAttribute(ctx.fragment, classIndex, id) ?? { t: 'sym', name: key };
  }

  private classAttribute(fragment: number, classIndex: number, id: string): Value | undefined {
    const cls = this.model.fragments[fragment].scopes[classIndex];
    const b = this.lastBinding(cls.bindings, id, Number.MAX_SAFE_INTEGER);
    return b ? this.evalBinding(b, { fragment, scope: classIndex, at: b.at }) : undefined;
  }

  private attribute(e: Extract<Expr, { k: 'attr' }>, ctx: Ctx): Value {
    if (e.object.k === 'name' && (e.object.id === 'self' || e.object.id === 'this') && !ctx.locals?.has(e.object.id)) {
      return this.selfAttribute(e.id, ctx, e.object.id);
    }
    const obj = this.eval(e.object, ctx);
    return this.member(obj, e.id, e);
  }

  private member(obj: Value, id: string, e: Expr): Value {
    switch (obj.t) {
      case 'ref':
        return { t: 'ref', path: `${obj.path}.${id}` };
      case 'dict':
        return obj.fields.get(id) ?? (obj.origin ? { t: 'sym', name: `${obj.origin}.${id}` } : UNKNOWN);
      case 'sym':
        return { t: 'sym', name: `${obj.name}.${id}` };
      case 'class':
        return (obj.owner ?? this).classAttribute(obj.fragment, obj.scope, id) ?? UNKNOWN;
      case 'module':
      case 'layer': {
        const tree = this.moduleOf(obj)!;
        const child = tree.children.get(id);
        if (child) return { t: 'module', tree: child, fields: new Map() };
        const p = tree.params.get(id);
        if (p) return { t: 'param', ref: p };
        return (obj.t === 'module' ? obj.fields.get(id) : undefined) ?? UNKNOWN;
      }
      default:
        return dottedPath(e) ? { t: 'sym', name: dottedPath(e)! } : UNKNOWN;
    }
  }

  private subscript(obj: Value, key: Value): Value {
    if (obj.t === 'dict' && key.t === 'str') return obj.fields.get(key.v) ?? (obj.origin ? { t: 'sym', name: `${obj.origin}[${JSON.stringify(key.v)}]` } : UNKNOWN);
    if (obj.t === 'seq' && key.t === 'int' && key.p.constant !== undefined) {
      const i = Number(key.p.constant);
      return obj.items[i < 0 ? obj.items.length + i : i] ?? UNKNOWN;
    }
    if (obj.t === 'sym' && key.t === 'str') return { t: 'sym', name: `${obj.name}[${JSON.stringify(key.v)}]` };
    return UNKNOWN;
  }

  // ---- arithmetic --------------------------------------------------------------------------------

  private binary(op: string, l: Value, r: Value, span?: Span): Value {
    if (l.t === 'tensor' && r.t === 'tensor') return op === '@' ? matmul(l, r) : this.broadcast(op, l, r, span);
    // `torch.randn(n, d) * 0.02` is still a tensor of that shape.
    if (l.t === 'tensor') return l;
    if (r.t === 'tensor') return r;
    if (l.t === 'float' || r.t === 'float' || (op === '/' && this.model.language === 'python')) return floatOp(op, l, r);
    const a = asPoly(l);
    const b = asPoly(r);
    if (!a || !b) {
      if (op === '+' && l.t === 'seq' && r.t === 'seq') return { t: 'seq', items: [...l.items, ...r.items] };
      if (op === '*' && l.t === 'seq' && b?.constant !== undefined) return { t: 'seq', items: Array.from({ length: Number(b.constant) }, () => l.items).flat() };
      return UNKNOWN;
    }
    const ca = a.constant;
    const cb = b.constant;
    switch (op) {
      case '+':
        return int(a.add(b));
      case '-':
        return int(a.sub(b));
      case '*':
        return int(a.mul(b));
      case '**':
        if (cb !== undefined && cb >= 0n && cb <= 64n) return int(a.pow(Number(cb)));
        return UNKNOWN;
      case '/': // TypeScript: a number, whole when it divides
        if (cb !== undefined && cb !== 0n) {
          const exact = a.divExact(cb);
          if (exact) return int(exact);
          if (ca !== undefined) return { t: 'float', v: Number(ca) / Number(cb) };
        }
        return { t: 'sym', name: `(${a} / ${b})` };
      case '//':
        if (ca !== undefined && cb !== undefined) return cb === 0n ? UNKNOWN : int(floorDiv(ca, cb));
        if (cb !== undefined && cb !== 0n) {
          const exact = a.divExact(cb);
          if (exact) return int(exact);
        }
        return { t: 'sym', name: `(${a} // ${b})` };
      case '%':
        if (ca !== undefined && cb !== undefined && cb !== 0n) return int(ca - floorDiv(ca, cb) * cb);
        return UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  // ---- calls -------------------------------------------------------------------------------------

  private call(e: Extract<Expr, { k: 'call' }>, ctx: Ctx): Value {
    let callee: Value;
    const c = e.callee;
    if (c.k === 'attr' && !(c.object.k === 'name' && (c.object.id === 'self' || c.object.id === 'this') && !ctx.locals?.has(c.object.id))) {
      const obj = this.eval(c.object, ctx);
      if (c.id === 'get' && obj.t === 'dict' && e.args[0]) {
        const key = this.eval(e.args[0].value, ctx);
        if (key.t === 'str') return obj.fields.get(key.v) ?? (e.args[1] ? this.eval(e.args[1].value, ctx) : NONE);
      }
      if (APPLY_METHODS.has(c.id) || c.id === 'add') {
        const flowed = this.flowCall(obj, c.id, e.args, ctx);
        if (flowed) return flowed;
      }
      if (c.id === 'forward' && (obj.t === 'layer' || obj.t === 'module')) {
        const args = this.bind(e.args, ctx);
        return args ? this.applyCallable(obj, args.positional.map((p) => p.value), new Map([...args.keywords].map(([k, v]) => [k, v.value])), e.span) : UNKNOWN;
      }
      if (obj.t === 'tensor') {
        const args = this.bind(e.args, ctx);
        return args ? tensorMethod(obj, c.id, args.positional.map((p) => p.value), new Map([...args.keywords].map(([k, v]) => [k, v.value]))) : UNKNOWN;
      }
      callee = this.member(obj, c.id, c);
    } else {
      callee = this.eval(c, ctx);
    }
    const bound = this.bind(e.args, ctx);
    if (!bound) return UNKNOWN;
    const keywords = new Map([...bound.keywords].map(([k, v]) => [k, v.value]));
    if (callee.t === 'class') {
      const positional = bound.positional.map((p) => p.value);
      const owner = callee.owner ?? this;
      return owner.isModuleClass(callee) ? owner.instantiateModule(callee, positional, keywords) : owner.instantiate(callee, positional, keywords);
    }
    if (callee.t === 'function') return (callee.owner ?? this).callFunction(callee, bound.positional.map((p) => p.value), keywords);
    if (callee.t === 'layer' || callee.t === 'module') return this.applyCallable(callee, bound.positional.map((p) => p.value), keywords, e.span);
    if (callee.t !== 'ref') return UNKNOWN;
    const functional = this.tensorFunction(normalizePath(callee.path), bound.positional.map((p) => p.value), keywords);
    if (functional) return functional;
    const built = this.torchModule(normalizePath(callee.path), bound.positional.map((p) => p.value));
    if (built) return built;
    const builtin = BUILTIN_CALLS[callee.path];
    if (builtin) return builtin(bound.positional.map((p) => p.value), bound.keywords);
    const positional = bound.positional.map((p) => p.value);
    const source = tensorSource(callee.path, positional);
    if (source) return source;
    if (callee.path === 'tfjs.sequential') return this.sequential(e.span.start, positional[0]);
    const op = callee.path.startsWith('tfjs.layers.') ? callee.path.slice('tfjs.layers.'.length) : '';
    if (op === 'flatten' || op === 'concatenate') return { t: 'op', op };
    if (TFJS_PASS_THROUGH.has(op)) return { t: 'op', op: 'same' };
    return this.makeLayer(callee.path, e, bound) ?? UNKNOWN;
  }

  /** `layer.apply(x)` / `mha.call(q, {value})` / `model.add(layer)`: the shapes that flow through. */
  private flowCall(target: Value, method: string, args: readonly Arg[], ctx: Ctx): Value | undefined {
    const values = args.map((a) => this.eval(a.value, ctx));
    if (method === 'add') {
      if (target.t !== 'model' || !values[0]) return undefined;
      this.models.set(target.id, feed(values[0], this.models.has(target.id) ? [this.models.get(target.id)!] : []));
      return NONE;
    }
    if (target.t !== 'layer' && target.t !== 'op') return undefined;
    const shapes = appliedShapes(values);
    const out = shapes && feed(target, shapes);
    return out ? { t: 'tensor', shape: out } : UNKNOWN;
  }

  /** `tf.sequential({layers: [...]})`: each layer is fed what the one before it produces. */
  private sequential(id: number, config: Value | undefined): Value {
    const layers = config?.t === 'dict' ? config.fields.get('layers') : undefined;
    if (layers?.t === 'seq') {
      let shape: Shape | undefined;
      for (const layer of layers.items) shape = feed(layer, shape ? [shape] : []);
      this.models.set(id, shape);
    }
    return { t: 'model', id };
  }

  /** The module tree of a module or layer value, the same tree for the same value. */
  moduleOf(v: Value): ModuleTree | undefined {
    if (v.t === 'module') return v.tree;
    if (v.t !== 'layer') return undefined;
    let tree = this.layerModules.get(v);
    if (!tree) this.layerModules.set(v, (tree = layerModule(v.layer)));
    return tree;
  }

  /** A value as a child module: modules, layers, and `repeat` (n copies, one node with a count). */
  private childTree(v: Value): ModuleTree | undefined {
    if (v.t === 'repeat') {
      const item = this.childTree(v.item);
      return item && deepCopy(item, v.count);
    }
    return this.moduleOf(v);
  }

  isModuleClass(cls: { name: string; fragment: number; scope: number }): boolean {
    const known = this.moduleClasses.get(cls.name);
    if (known !== undefined) return known;
    this.moduleClasses.set(cls.name, false);
    const scope = this.model.fragments[cls.fragment].scopes[cls.scope];
    const ctx: Ctx = { fragment: cls.fragment, scope: scope.parent, at: scope.nameSpan.start };
    const result = scope.bases.some((b) => {
      const base = this.eval(this.model.expr(b), ctx);
      if (base.t === 'ref') return MODULE_BASES.has(normalizePath(base.path));
      return base.t === 'class' && (base.owner ?? this).isModuleClass(base);
    });
    this.moduleClasses.set(cls.name, result);
    return result;
  }

  /** Binds call arguments to parameters (defaults evaluated where the function is defined). */
  private bindParams(fragment: number, scopeIndex: number, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, skipSelf: boolean) {
    const scope = this.model.fragments[fragment].scopes[scopeIndex];
    const params = skipSelf ? scope.params.slice(1) : scope.params;
    const locals = new Map<string, Value>();
    const missing: string[] = [];
    params.forEach((p, i) => {
      if (p.variadic) return;
      const given = keywords.get(p.name) ?? positional[i];
      if (given) locals.set(p.name, given);
      else if (p.default) locals.set(p.name, this.eval(this.model.expr(p.default), { fragment, scope: scope.parent, at: scope.nameSpan.start }));
      else {
        const cls = p.annotation ? this.classNamed(p.annotation) : undefined;
        if (cls) locals.set(p.name, this.instantiate(cls, [], new Map()));
        else {
          locals.set(p.name, { t: 'sym', name: p.name });
          missing.push(p.name);
        }
      }
    });
    return { locals, missing };
  }

  private callFunction(fn: { fragment: number; scope: number }, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
    const scope = this.model.fragments[fn.fragment].scopes[fn.scope];
    const ret = scope.bindings.find((b) => b.target === RETURN);
    if (!ret) return UNKNOWN;
    const { locals } = this.bindParams(fn.fragment, fn.scope, positional, keywords, false);
    return this.evalBinding(ret, { fragment: fn.fragment, scope: fn.scope, at: ret.at, locals });
  }

  /**
   * An nn.Module subclass of this file, built as PyTorch builds it: `__init__` runs in order, and each
   * module, layer or parameter assigned to `self` becomes a child. Without its arguments it is not known.
   */
  instantiateModule(cls: { name: string; fragment: number; scope: number }, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
    const fragment = this.model.fragments[cls.fragment];
    const init = this.initOf(fragment, cls.scope);
    const tree = emptyModule(cls.name);
    const fields = new Map<string, Value>();
    if (init < 0) {
      for (const b of fragment.scopes[cls.scope].bases) {
        const base = this.eval(this.model.expr(b), { fragment: cls.fragment, scope: -1, at: fragment.scopes[cls.scope].nameSpan.start });
        if (base.t === 'class' && (base.owner ?? this).isModuleClass(base)) return (base.owner ?? this).instantiateModule(base, positional, keywords);
      }
      return { t: 'module', tree, fields };
    }
    const { locals, missing } = this.bindParams(cls.fragment, init, positional, keywords, this.model.language === 'python');
    if (missing.length) tree.unknown = `needs arguments: ${missing.join(', ')} ha${missing.length === 1 ? 's' : 've'} no default`;
    const bindings = fragment.scopes[init].bindings;
    const done = new Set<Binding>();
    for (const [i, b] of bindings.entries()) {
      if (!b.target.startsWith(`${this.selfName}.`) || done.has(b)) continue;
      const ctx: Ctx = { fragment: cls.fragment, scope: init, at: b.at, locals };
      // Appends to one list in one loop body run together, pass by pass.
      const group = b.append ? loopGroups(bindings.slice(i).filter((x) => x.target === b.target))[0] : [b];
      for (const g of group) done.add(g);
      const value = b.append ? this.appendGroup(locals.get(b.target) ?? UNKNOWN, group, ctx) : this.evalBinding(b, ctx);
      // A call that cannot be followed may build parameters: the total is then not known, never smaller.
      if (value.t === 'unknown' && b.value && this.model.expr(b.value).k === 'call') tree.unknown ??= `${b.target} cannot be followed`;
      locals.set(b.target, value);
      const path = b.target.slice(this.selfName.length + 1).split('.');
      const owner = path.length === 1 ? tree : childAt(tree, path.slice(0, -1));
      if (path.length === 1) fields.set(path[0], value);
      if (owner) this.assignMember(owner, path[path.length - 1], value);
    }
    return { t: 'module', tree, fields, cls: { ...cls, owner: this } };
  }

  // ---- tensors through forward() ------------------------------------------------------------------

  /**
   * Follows a model class's forward() (on its instance built with defaults, its inputs unknown): shape errors
   * go to `report`, and the feature size known after each assignment is returned, for inlay hints.
   */
  followForward(cls: { name: string; fragment: number; scope: number }, instance: Value): { at: Expr; features: Poly }[] {
    const forward = instance.t === 'module' ? this.forwardOf(instance) : undefined;
    if (!forward) return [];
    const sizes: { at: Expr; features: Poly }[] = [];
    for (const b of this.model.fragments[cls.fragment].scopes[forward.scope].bindings) {
      if (!b.value) continue;
      const v = this.evalBinding(b, { fragment: cls.fragment, scope: forward.scope, at: b.at, locals: forward.locals });
      const f = v.t === 'tensor' ? features(v) : undefined;
      if (f?.constant !== undefined && b.target !== RETURN && b.unpack === undefined) sizes.push({ at: this.model.expr(b.value), features: f });
    }
    return sizes;
  }

  /** The forward() of an instance, with `self.x` and the arguments bound (unknown tensors by default). */
  private forwardOf(instance: Extract<Value, { t: 'module' }>, positional: readonly Value[] = [], keywords: ReadonlyMap<string, Value> = new Map()) {
    if (!instance.cls) return undefined;
    const fragment = this.model.fragments[instance.cls.fragment];
    const scope = fragment.scopes.findIndex((s) => s.parent === instance.cls!.scope && s.kind === 'function' && s.name === 'forward');
    if (scope < 0) return undefined;
    const locals = new Map<string, Value>();
    for (const [k, v] of instance.fields) locals.set(`${this.selfName}.${k}`, v);
    const params = fragment.scopes[scope].params;
    (this.model.language === 'python' ? params.slice(1) : params).forEach((p, i) => {
      const given = keywords.get(p.name) ?? positional[i];
      locals.set(p.name, given ?? (p.default ? this.eval(this.model.expr(p.default), { fragment: instance.cls!.fragment, scope: -1, at: 0 }) : OPAQUE));
    });
    return { scope, locals };
  }

  /** `self.layer(x)`: the layer's own checks, and the tensor it returns. */
  private applyCallable(callee: Extract<Value, { t: 'layer' } | { t: 'module' }>, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, span: Span): Value {
    if (callee.t === 'module') {
      const owner = callee.cls?.owner;
      if (owner && owner !== this) return owner.applyCallable(callee, positional, keywords, span);
      if (callee.items) {
        // Between its own layers a Sequential is checked where it is built (sequential-mismatch); here only
        // what enters it.
        return callee.items.reduce<Value>((x, layer, i) => {
          if (layer.t !== 'layer' && layer.t !== 'module') return UNKNOWN;
          if (i === 0) return this.applyCallable(layer, [x], new Map(), span);
          this.quiet++;
          try {
            return this.applyCallable(layer, [x], new Map(), span);
          } finally {
            this.quiet--;
          }
        }, positional[0] ?? UNKNOWN);
      }
      if (callee.cls) {
        const forward = this.forwardOf(callee, positional, keywords);
        const ret = forward && this.model.fragments[callee.cls.fragment].scopes[forward.scope].bindings.find((b) => b.target === RETURN);
        return ret ? this.evalBinding(ret, { fragment: callee.cls.fragment, scope: forward!.scope, at: ret.at, locals: forward!.locals }) : UNKNOWN;
      }
      const input = positional[0];
      return WEIGHTLESS.has(callee.tree.kind) && callee.tree.kind !== 'Flatten' && input?.t === 'tensor' ? input : UNKNOWN;
    }
    const layer = callee.layer;
    const label = layerLabel(callee);
    const origin = { label, span: callee.span };
    if (layer.framework === 'pytorch' && layer.kind === 'MultiheadAttention' && layer.attention) {
      const query = keywords.get('query') ?? positional[0];
      const key = keywords.get('key') ?? positional[1];
      const value = keywords.get('value') ?? positional[2];
      const a = layer.attention;
      this.checkSize(query, a.embed, span, callee, 'attention-embed-mismatch', 'the query', 'embed_dim', (got) => `PyTorch raises "was expecting embedding dimension of ${a.embed}, but got ${got}"`);
      this.checkSize(key, a.kdim, span, callee, 'attention-embed-mismatch', 'the key', a.kdim.equals(a.embed) ? 'embed_dim (kdim is not set)' : 'kdim', () => 'PyTorch fails projecting the keys');
      this.checkSize(value, a.vdim, span, callee, 'attention-embed-mismatch', 'the value', a.vdim.equals(a.embed) ? 'embed_dim (vdim is not set)' : 'vdim', () => 'PyTorch fails projecting the values');
      return { t: 'seq', items: [query?.t === 'tensor' ? withFeatures(query, a.embed, origin) : { ...OPAQUE, shape: [a.embed], origin }, UNKNOWN] };
    }
    const input = positional[0];
    this.checkSize(input, layer.inFeatures, span, callee, 'feature-mismatch', 'its input', 'input features', () => 'PyTorch raises a shape error at this call');
    if (!LAST_AXIS_KINDS.has(layer.kind)) return UNKNOWN;
    const out = input?.t === 'tensor' ? withFeatures(input, layer.outFeatures, origin) : { ...OPAQUE, shape: [layer.outFeatures], origin };
    return RECURRENT_KINDS.has(layer.kind) ? { t: 'seq', items: [out, UNKNOWN] } : out;
  }

  private checkSize(input: Value | undefined, expected: Poly | undefined, span: Span, layer: Extract<Value, { t: 'layer' }>, code: string, what: string, expectedName: string, consequence: (got: string) => string): void {
    if (input?.t !== 'tensor' || expected?.constant === undefined) return;
    const got = features(input)?.constant;
    if (got === undefined || got === expected.constant) return;
    const where = layerLabel(layer);
    const from = input.origin ? `, from ${input.origin.label}` : '';
    this.report({
      code,
      severity: 'error',
      span,
      fixes: [],
      message: `${where} expects ${groupDigits(expected.constant)} ${code === 'feature-mismatch' ? 'input features' : `features in ${what} (${expectedName})`}, but ${what} has ${groupDigits(got)}${from}: ${consequence(groupDigits(got))}.`,
      related: [
        { span: layer.span, message: `${where} is defined here with ${groupDigits(expected.constant)} ${expectedName}` },
        ...(input.origin ? [{ span: input.origin.span, message: `${groupDigits(got)} features come from ${input.origin.label}` }] : []),
      ],
    });
  }

  /** `x + y` of two tensors: the feature sizes must match (or one be 1). */
  private broadcast(op: string, l: Tensor, r: Tensor, span: Span | undefined): Value {
    const a = features(l)?.constant;
    const b = features(r)?.constant;
    if (a !== undefined && b !== undefined && a !== b && a !== 1n && b !== 1n && span) {
      this.report({
        code: 'feature-mismatch',
        severity: 'error',
        span,
        fixes: [],
        message: `The two sides of ${op} have ${groupDigits(a)} and ${groupDigits(b)} features${l.origin ? ` (left from ${l.origin.label}` : ''}${r.origin ? `${l.origin ? ', ' : ' ('}right from ${r.origin.label}` : ''}${l.origin || r.origin ? ')' : ''}: they do not broadcast, and PyTorch raises a size mismatch.`,
        related: [l.origin, r.origin].filter((o): o is NonNullable<typeof o> => o !== undefined).map((o) => ({ span: o.span, message: `${o.label} produces this side` })),
      });
    }
    // A side of unknown size takes the other's: they must match for the sum to exist.
    return a === 1n || a === undefined ? r : l;
  }

  /** `torch.cat`, activations from torch and torch.nn.functional, and scaled dot-product attention. */
  private tensorFunction(path: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value | undefined {
    const name = path.slice(path.lastIndexOf('.') + 1);
    const owner = path.slice(0, path.lastIndexOf('.'));
    if (owner !== 'torch' && owner !== 'torch.nn.functional') return undefined;
    if (name === 'cat' || name === 'concat' || name === 'concatenate') {
      const items = positional[0];
      return items?.t === 'seq' ? concatenate(items.items, keywords.get('dim') ?? positional[1]) : UNKNOWN;
    }
    if (name === 'matmul' && positional[0]?.t === 'tensor' && positional[1]?.t === 'tensor') return matmul(positional[0], positional[1]);
    if (name === 'scaled_dot_product_attention') {
      const value = keywords.get('value') ?? positional[2];
      return value?.t === 'tensor' ? value : UNKNOWN;
    }
    const input = positional[0];
    if (SHAPE_PRESERVING.has(name) && input?.t === 'tensor') return input;
    return undefined;
  }

  /** nn.Sequential: each layer must read the feature size the one before it produces. */
  private checkChain(items: readonly Value[]): void {
    let previous: Extract<Value, { t: 'layer' }> | undefined;
    let size: Poly | undefined;
    for (const item of items) {
      if (item.t === 'layer') {
        const expected = item.layer.inFeatures?.constant;
        const got = size?.constant;
        if (previous && expected !== undefined && got !== undefined && expected !== got) {
          const here = layerLabel(item);
          const before = layerLabel(previous);
          this.report({
            code: 'sequential-mismatch',
            severity: 'error',
            span: item.span,
            fixes: [],
            message: `In this nn.Sequential, ${here} expects ${groupDigits(expected)} input features, but ${before} before it produces ${groupDigits(got)}: PyTorch raises a shape error on the first forward call.`,
            related: [{ span: previous.span, message: `${before} produces ${groupDigits(got)} features` }],
          });
        }
        previous = item;
        size = LAST_AXIS_KINDS.has(item.layer.kind) ? item.layer.outFeatures : undefined;
      } else if (!(item.t === 'module' && WEIGHTLESS.has(item.tree.kind) && item.tree.kind !== 'Flatten')) {
        size = undefined;
      }
    }
  }

  private report(f: Finding): void {
    if (this.quiet === 0) this.sink(f);
  }

  /** `self.name = value`: registers a submodule or a parameter as `nn.Module.__setattr__` does. */
  private assignMember(owner: ModuleTree, name: string, value: Value): void {
    if (value.t === 'param') {
      owner.children.delete(name);
      owner.params.set(name, value.ref);
      return;
    }
    const child = this.childTree(value);
    if (child) {
      owner.params.delete(name);
      owner.children.set(name, child);
    }
  }

  /** Containers, parameters, tensors and weightless layers of torch; undefined for the catalog's layers. */
  private torchModule(path: string, positional: readonly Value[]): Value | undefined {
    const first = positional[0];
    switch (path) {
      case 'copy.deepcopy': {
        const tree = first && this.moduleOf(first);
        return tree ? { t: 'module', tree: deepCopy(tree), fields: first.t === 'module' ? first.fields : new Map() } : first ?? UNKNOWN;
      }
      case 'torch.nn.Parameter':
      case 'torch.nn.parameter.Parameter': {
        const shape = first?.t === 'tensor' ? first.shape : undefined;
        return { t: 'param', ref: param(shape?.map((d) => d ?? Poly.symbol('size')) ?? [Poly.symbol('size')]) };
      }
      case 'collections.OrderedDict': {
        if (!first) return { t: 'dict', fields: new Map() };
        if (first.t !== 'seq') return UNKNOWN;
        const fields = new Map<string, Value>();
        for (const pair of first.items) {
          if (pair.t !== 'seq' || pair.items[0]?.t !== 'str' || !pair.items[1]) return UNKNOWN;
          fields.set(pair.items[0].v, pair.items[1]);
        }
        return { t: 'dict', fields };
      }
      case 'torch.nn.Sequential':
      case 'torch.nn.ModuleList':
      case 'torch.nn.ModuleDict': {
        const kind = path.slice('torch.nn.'.length);
        const items: [string, Value][] =
          first?.t === 'dict' ? [...first.fields]
          : kind === 'Sequential' ? positional.map((v, i) => [v.t === 'repeat' ? '{i}' : String(i), v])
          : first?.t === 'seq' ? first.items.map((v, i) => [String(i), v])
          : first?.t === 'repeat' ? [['{i}', first]]
          : [];
        if (first && kind !== 'Sequential' && first.t !== 'dict' && first.t !== 'seq' && first.t !== 'repeat') return { t: 'module', tree: { ...emptyModule(kind), unknown: `the ${kind} contents cannot be followed` }, fields: new Map() };
        const children: [string, ModuleTree][] = [];
        for (const [k, v] of items) {
          const child = this.childTree(v);
          if (!child) return { t: 'module', tree: { ...emptyModule(kind), unknown: `an item of the ${kind} is not a module Attention Lens can follow` }, fields: new Map() };
          children.push([k, child]);
        }
        if (kind === 'Sequential') this.checkChain(positional);
        return { t: 'module', tree: container(kind, children), fields: new Map(), items: kind === 'Sequential' ? positional : undefined };
      }
      default:
        break;
    }
    const name = path.slice(path.lastIndexOf('.') + 1);
    if (path === `torch.${name}` && TENSOR_FACTORIES.has(name)) {
      // torch.zeros(1, 1, d) or torch.zeros((1, 1, d)); torch.full takes its shape first, then the value.
      const dims = first?.t === 'seq' ? first.items : name === 'full' ? [] : positional;
      return { t: 'tensor', shape: dims.map((d) => asPoly(d)) };
    }
    if ((path === `torch.nn.${name}` || path === `jspytorch.torch.nn.${name}`) && /^[A-Z]/.test(name) && !layerSpecKnown(path)) {
      if (WEIGHTLESS.has(name)) return { t: 'module', tree: emptyModule(name), fields: new Map() };
      return { t: 'module', tree: { ...emptyModule(name), unknown: `nn.${name} is not in Attention Lens's catalog yet` }, fields: new Map() };
    }
    return undefined;
  }

  bind(args: readonly Arg[], ctx: Ctx): BoundCall | undefined {
    const positional: { value: Value; arg: Arg }[] = [];
    const keywords = new Map<string, { value: Value; arg?: Arg }>();
    for (const arg of args) {
      const value = this.eval(arg.value, ctx);
      if (arg.spread === 'dict') {
        if (value.t !== 'dict') return undefined;
        for (const [k, v] of value.fields) keywords.set(k, { value: v });
      } else if (arg.spread === 'list') {
        if (value.t === 'repeat') positional.push({ value, arg });
        else if (value.t !== 'seq') return undefined;
        else for (const item of value.items) positional.push({ value: item, arg });
      } else if (arg.name !== undefined) keywords.set(arg.name, { value, arg });
      else positional.push({ value, arg });
    }
    return { positional, keywords };
  }

  /**
   * A config object from a class of this file: dataclass-style fields with defaults (positional
   * arguments in field order), then what `__init__` assigns to `self`.
   */
  instantiate(cls: { fragment: number; scope: number }, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
    const fragment = this.model.fragments[cls.fragment];
    const scope = fragment.scopes[cls.scope];
    const fields = new Map<string, Value>();
    const init = this.initOf(fragment, cls.scope);
    if (init < 0) {
      // Dataclass fields are the annotated class attributes, in order; positional arguments fill them.
      const annotated = scope.bindings.filter((b) => b.annotation !== undefined);
      for (const b of scope.bindings) {
        const position = annotated.indexOf(b);
        const given = keywords.get(b.target) ?? (position >= 0 ? positional[position] : undefined);
        fields.set(b.target, given ?? this.evalBinding(b, { fragment: cls.fragment, scope: cls.scope, at: b.at }));
      }
      for (const [k, v] of keywords) if (!fields.has(k)) fields.set(k, v);
      return { t: 'dict', fields, origin: scope.name };
    }
    const { locals } = this.bindParams(cls.fragment, init, positional, keywords, this.model.language === 'python');
    const self = `${this.selfName}.`;
    for (const b of fragment.scopes[init].bindings) {
      if (!b.target.startsWith(self)) continue;
      const value = this.evalBinding(b, { fragment: cls.fragment, scope: init, at: b.at, locals });
      locals.set(b.target, value);
      fields.set(b.target.slice(self.length), value);
    }
    for (const b of scope.bindings) {
      if (!fields.has(b.target)) fields.set(b.target, this.evalBinding(b, { fragment: cls.fragment, scope: cls.scope, at: b.at }));
    }
    return { t: 'dict', fields, origin: scope.name };
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function toNumber(v: Value): number | undefined {
  if (v.t === 'float') return v.v;
  const c = asPoly(v)?.constant;
  return c === undefined ? undefined : Number(c);
}

function floatOp(op: string, l: Value, r: Value): Value {
  const a = toNumber(l);
  const b = toNumber(r);
  const numeric = (v: Value) => v.t === 'float' || asPoly(v) !== undefined;
  if (!numeric(l) || !numeric(r)) return UNKNOWN;
  if (a === undefined || b === undefined) return { t: 'float' };
  switch (op) {
    case '+': return { t: 'float', v: a + b };
    case '-': return { t: 'float', v: a - b };
    case '*': return { t: 'float', v: a * b };
    case '/': return b === 0 ? UNKNOWN : { t: 'float', v: a / b };
    case '//': return b === 0 ? UNKNOWN : { t: 'float', v: Math.floor(a / b) };
    case '**': return { t: 'float', v: a ** b };
    case '%': return b === 0 ? UNKNOWN : { t: 'float', v: a - Math.floor(a / b) * b };
    default: return UNKNOWN;
  }
}

function compare(op: string, l: Value, r: Value): Value {
  const a = toNumber(l);
  const b = toNumber(r);
  if (a === undefined || b === undefined) {
    if ((op === '==' || op === '!=') && l.t === 'str' && r.t === 'str') return { t: 'bool', v: (l.v === r.v) === (op === '==') };
    if ((op === '==' || op === '!=') && (l.t === 'none' || r.t === 'none') && l.t !== 'unknown' && r.t !== 'unknown' && l.t !== 'sym' && r.t !== 'sym') {
      return { t: 'bool', v: (l.t === r.t) === (op === '==') };
    }
    return UNKNOWN;
  }
  const results: Record<string, boolean> = { '==': a === b, '!=': a !== b, '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b };
  return { t: 'bool', v: results[op] };
}

const BUILTINS = {
  python: new Set(['int', 'float', 'max', 'min', 'abs', 'round', 'dict', 'len', 'bool']),
  typescript: new Set(['Math', 'Number', 'parseInt']),
};

type Builtin = (args: readonly Value[], keywords: ReadonlyMap<string, { value: Value }>) => Value;

function extreme(pick: (a: number, b: number) => boolean): Builtin {
  return (args) => {
    const items = args.length === 1 && args[0].t === 'seq' ? args[0].items : args;
    let best: Value | undefined;
    for (const v of items) {
      const n = toNumber(v);
      if (n === undefined) return UNKNOWN;
      if (!best || pick(n, toNumber(best)!)) best = v;
    }
    return best ?? UNKNOWN;
  };
}

function toInt(round: (x: number) => number): Builtin {
  return ([v]) => {
    if (!v) return UNKNOWN;
    if (v.t === 'float') return v.v === undefined ? UNKNOWN : int(BigInt(round(v.v)));
    if (v.t === 'str' && /^\s*-?\d+\s*$/.test(v.v)) return int(BigInt(v.v.trim()));
    const p = asPoly(v);
    return p ? int(p) : UNKNOWN;
  };
}

function floatOf(v: Value | undefined, f: (x: number) => number): Value {
  const x = v ? toNumber(v) : undefined;
  return { t: 'float', v: x === undefined ? undefined : f(x) };
}

const namespace: Builtin = (_args, keywords) => ({ t: 'dict', fields: new Map([...keywords].map(([k, v]) => [k, v.value])) });

const BUILTIN_CALLS: Record<string, Builtin> = {
  'builtins.int': toInt(Math.trunc),
  'builtins.round': toInt(Math.round),
  'builtins.bool': ([v]) => (v && truthy(v) !== undefined ? { t: 'bool', v: truthy(v)! } : UNKNOWN),
  'builtins.float': ([v]) => (v ? (toNumber(v) === undefined ? UNKNOWN : { t: 'float', v: toNumber(v) }) : UNKNOWN),
  'builtins.abs': ([v]) => {
    const p = v ? asPoly(v) : undefined;
    return p?.constant !== undefined ? int(p.constant < 0n ? -p.constant : p.constant) : UNKNOWN;
  },
  'builtins.len': ([v]) => (v?.t === 'seq' ? int(v.items.length) : v?.t === 'str' ? int(v.v.length) : v?.t === 'dict' ? int(v.fields.size) : UNKNOWN),
  'math.sqrt': ([v]) => floatOf(v, Math.sqrt),
  'math.log': ([v]) => floatOf(v, Math.log),
  'math.exp': ([v]) => floatOf(v, Math.exp),
  'builtins.max': extreme((a, b) => a > b),
  'builtins.min': extreme((a, b) => a < b),
  'builtins.dict': namespace,
  'types.SimpleNamespace': namespace,
  'argparse.Namespace': namespace,
  'math.ceil': toInt(Math.ceil),
  'math.floor': toInt(Math.floor),
  'builtins.Math.max': extreme((a, b) => a > b),
  'builtins.Math.min': extreme((a, b) => a < b),
  'builtins.Math.floor': toInt(Math.floor),
  'builtins.Math.ceil': toInt(Math.ceil),
  'builtins.Math.round': toInt(Math.round),
  'builtins.Math.trunc': toInt(Math.trunc),
  'builtins.Number': ([v]) => v ?? UNKNOWN,
  'builtins.parseInt': toInt(Math.trunc),
};

const MODULE_BASES = new Set(['torch.nn.Module', 'jspytorch.torch.nn.Module', 'tfjs.layers.Layer']);

const TENSOR_FACTORIES = new Set(['zeros', 'ones', 'randn', 'rand', 'empty', 'full']);

/** torch.nn layers without parameters: they add nothing to a model's count. */
const WEIGHTLESS = new Set([
  'Dropout', 'Dropout1d', 'Dropout2d', 'Dropout3d', 'AlphaDropout', 'Identity', 'ReLU', 'ReLU6', 'GELU', 'SiLU', 'Mish',
  'Tanh', 'Sigmoid', 'Softmax', 'LogSoftmax', 'LeakyReLU', 'ELU', 'SELU', 'CELU', 'Hardswish', 'Hardsigmoid', 'Softplus',
  'GLU', 'Flatten', 'Unflatten', 'MaxPool1d', 'MaxPool2d', 'MaxPool3d', 'AvgPool1d', 'AvgPool2d', 'AvgPool3d',
  'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'Upsample',
  'PixelShuffle', 'PixelUnshuffle', 'ZeroPad2d', 'ConstantPad1d', 'ConstantPad2d', 'ReflectionPad2d', 'CrossEntropyLoss',
  'MSELoss', 'L1Loss', 'BCELoss', 'BCEWithLogitsLoss', 'NLLLoss', 'CosineSimilarity', 'PairwiseDistance',
]);

/** Element `i` of a tuple-like value: a sequence's item, any copy of a repeat. */
function element(v: Value, i: number): Value {
  if (v.t === 'seq') return v.items[i] ?? UNKNOWN;
  if (v.t === 'repeat') return v.item;
  return UNKNOWN;
}

/** Layers that read and write the last axis, so the feature size can be followed through them. */
const LAST_AXIS_KINDS = new Set([
  'Linear', 'LayerNorm', 'RMSNorm', 'MultiheadAttention', 'TransformerEncoderLayer', 'TransformerDecoderLayer',
  'TransformerEncoder', 'TransformerDecoder', 'Transformer', 'RNN', 'GRU', 'LSTM', 'MultiHeadSelfAttention', 'Block', 'FullyConnected',
]);

const RECURRENT_KINDS = new Set(['RNN', 'GRU', 'LSTM']);

function withLocal(ctx: Ctx, name: string, value: Value): Ctx {
  return { ...ctx, locals: new Map([...(ctx.locals ?? []), [name, value]]) };
}

/** Consecutive appends of one loop body (the same iterable) form a group; other appends stand alone. */
function loopGroups(appends: readonly Binding[]): Binding[][] {
  const groups: Binding[][] = [];
  for (const b of appends) {
    if (!b.append) break;
    const last = groups[groups.length - 1];
    if (last && b.append.iterable && last[0].append?.iterable?.start === b.append.iterable.start) last.push(b);
    else groups.push([b]);
  }
  return groups;
}

/** `nn.Linear (line 14)`: a layer as messages name it. */
function layerLabel(v: Extract<Value, { t: 'layer' }>): string {
  return `${v.layer.framework === 'pytorch' ? 'nn.' : ''}${v.layer.kind} (line ${v.span.startLine + 1})`;
}
