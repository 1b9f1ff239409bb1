/**
 * The interpreter: runs the file's module body, its classes' constructors and its functions over values,
 * without running anything real. Literals, constants, defaults, config objects, arithmetic, branches,
 * loops, calls, classes with their bases and `super()`, partials and lambdas are followed; what cannot be
 * known becomes a symbol (a parameter without a value) or `unknown`, never a guess.
 */
import type { Arg, Expr, Span } from './expr';
import { mentionsName } from './expr';
import type { ExprRef, ImportBinding, ImportResolver, Scope, SourceModel } from './source';
import { NONE, SCALAR, UNKNOWN, asPoly, int, truthy, type DefRef, type Value } from './value';
import { Poly } from './symbolic';
import { OPAQUE, tensorMethod } from './tensors';
import type { Finding } from './layer';
import { APPLY_METHODS, appliedShapes, feed, tensorSource } from './flow';
import { TFJS_PASS_THROUGH, layerSpec } from './catalog';
import { canonicalPath, normalizePath } from './imports';
import { deepCopy, layerModule, type ModuleTree } from './modules';
import { Budget, LIMITS } from './interp/budget';
import { Frame } from './interp/frame';
import { Journal, type Owner } from './interp/journal';
import { Runner, type Exit, type Interp } from './interp/statements';
import { arithmetic, compare } from './interp/arith';
import { BUILTIN_CALLS, BUILTIN_NAMES, countOf, itemsOf } from './interp/builtins';
import { ShapeChecks, WEIGHTLESS, type LayerValue } from './interp/shapeChecks';
import { ClassModel } from './interp/classes';
import { TorchApi } from './interp/torchApi';

export type CallExpr = Extract<Expr, { k: 'call' }>;

export interface BoundCall {
  readonly positional: readonly { value: Value; arg?: Arg }[];
  readonly keywords: ReadonlyMap<string, { value: Value; arg?: Arg }>;
}

/** What the analysis supplies and learns while the interpreter runs. */
export interface Hooks {
  /** Builds a catalog layer; `site` is false for a layer a subclass's constructor builds through super(). */
  layer(path: string, call: CallExpr, args: BoundCall, site: boolean): LayerValue | undefined;
  /** A shape error met while following tensors. */
  report(f: Finding): void;
  /** A model class built by a call at module level (`model = GPT(cfg)`). */
  instance?(cls: DefRef, call: CallExpr, value: Value): void;
  /** A `raise` or failed `assert` reached while building `cls`. */
  raised?(span: Span, message: string | undefined): void;
  /** Every model instance the run builds (once its constructor has run), with what built it. */
  constructed?(cls: DefRef, value: Value): void;
  /** A subclass of a catalog layer built at a call site: the layer its constructor made. */
  built?(call: CallExpr, layer: LayerValue): void;
}

/** What one file's evaluators share along a chain of imports. */
export interface Shared {
  readonly budget: Budget;
  readonly journal: Journal;
  readonly imported: Map<SourceModel, Evaluator>;
  /** What is being built, outermost first, for the "in GPT via Block ×12" of a layer's context. */
  readonly contexts: string[];
  /** How many loop counts were entered when each context started. */
  readonly repeatDepths: number[];
}

/**
 * What one entry point of the analysis read: the top-level statements (by fragment id) whose code ran,
 * the module-level names it looked up with the statement that bound each, and the other files it imported.
 * While all of them are unchanged after an edit, its results still hold.
 */
export interface Reads {
  readonly fragments: Set<number>;
  readonly names: Map<string, number>;
  readonly files: Map<string, SourceModel | undefined>;
}

export function newShared(): Shared {
  return { budget: new Budget(), journal: new Journal(), imported: new Map(), contexts: [], repeatDepths: [] };
}

export class Evaluator implements Interp {
  readonly moduleFrame: Frame;
  readonly runner: Runner;
  readonly classes: ClassModel;
  readonly torch: TorchApi;
  readonly checks: ShapeChecks;
  readonly repeats: Poly[] = [];
  /** The offsets of the calls some run evaluated. */
  readonly reached = new Set<number>();
  /** Called after each assignment while forward() is followed, for inlay hints. */
  assigned?: (value: Value, expr: Expr) => void;
  private ran = false;
  /** Set while an entry point whose reads are recorded runs. */
  reads: Reads | undefined;
  /** The fragment (by index) whose module-level statement last bound each module name. */
  private readonly origins = new Map<string, number>();
  private globals: Map<string, Global> | undefined;
  /** Above 0 while applying the inner layers of a Sequential, whose mismatches are reported where it is built. */
  private quiet = 0;
  private readonly layerModules = new WeakMap<object, ModuleTree>();
  /** The output shape of each `tf.sequential()` model so far, as `model.add` calls extend it. */
  private readonly models = new Map<number, readonly (Poly | undefined)[] | undefined>();

  constructor(
    readonly model: SourceModel,
    readonly hooks: Hooks,
    private readonly resolver?: ImportResolver,
    readonly shared: Shared = newShared(),
  ) {
    this.moduleFrame = new Frame(0, -1, undefined);
    this.runner = new Runner(this);
    this.classes = new ClassModel(this);
    this.torch = new TorchApi(this);
    this.checks = new ShapeChecks((f) => {
      if (this.quiet === 0) this.hooks.report(f);
    });
  }

  get budget(): Budget {
    return this.shared.budget;
  }

  get journal(): Journal {
    return this.shared.journal;
  }

  get language(): SourceModel['language'] {
    return this.model.language;
  }

  get selfName(): string {
    return this.model.language === 'python' ? 'self' : 'this';
  }

  expr(ref: ExprRef): Expr {
    return this.model.expr(ref);
  }

  scopeAt(fragment: number, scope: number): Scope {
    this.reads?.fragments.add(this.model.fragments[fragment].id);
    return this.model.fragments[fragment].scopes[scope];
  }

  /** The id of the statement that binds module name `name` now (after the module ran), or 0 for none. */
  originOf(name: string): number {
    const fi = this.origins.get(name);
    if (fi !== undefined) return this.model.fragments[fi].id;
    this.globals ??= this.indexGlobals();
    const found = this.globals.get(name);
    return found ? this.model.fragments[found.fragment].id : 0;
  }

  /** Runs the module body once, statement by statement; a budget overrun leaves the rest unknown. */
  runModule(): void {
    if (this.ran) return;
    this.ran = true;
    for (const [fi, fragment] of this.model.fragments.entries()) {
      this.moduleFrame.fragment = fi;
      this.guard(() => this.runner.body(fragment.body, this.moduleFrame));
    }
  }

  /** Runs `work` as one entry point: a budget overrun or an unforeseen shape ends it as unknown. */
  guard<T>(work: () => T): T | undefined {
    const depth = this.budget.depth;
    const position = this.journal.position;
    this.budget.startEntry();
    try {
      return work();
    } catch {
      // The budget ran out, or half-typed code reached a shape no rule foresaw: this part is unknown,
      // the rest of the file is not.
      this.budget.depth = depth;
      this.journal.rewind(position);
      return undefined;
    }
  }

  // ---- expressions --------------------------------------------------------------------------------

  eval(e: Expr, frame: Frame): Value {
    this.budget.tick();
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
        return this.lookup(e.id, frame);
      case 'attr':
        return this.member(this.eval(e.object, frame), e.id);
      case 'index':
        return this.subscript(this.eval(e.object, frame), this.eval(e.index, frame));
      case 'binary':
        return this.binary(e.op, this.eval(e.left, frame), this.eval(e.right, frame), e.span);
      case 'unary': {
        const v = this.eval(e.operand, frame);
        if (e.op === 'not') {
          const t = truthy(v);
          return t === undefined ? SCALAR : { t: 'bool', v: !t };
        }
        if (e.op === '+') return v;
        if (v.t === 'float') return v.v === undefined ? v : { t: 'float', v: -v.v };
        const p = asPoly(v);
        return p ? int(p.neg()) : UNKNOWN;
      }
      case 'compare': {
        const result = compare(e.op, this.eval(e.left, frame), this.eval(e.right, frame));
        return result.t === 'unknown' ? SCALAR : result;
      }
      case 'logic': {
        const left = this.eval(e.left, frame);
        if (e.op === 'nullish') return left.t === 'none' ? this.eval(e.right, frame) : left.t === 'unknown' ? UNKNOWN : left;
        const t = truthy(left);
        if (t === undefined) return UNKNOWN;
        if (e.op === 'or') return t ? left : this.eval(e.right, frame);
        return t ? this.eval(e.right, frame) : left;
      }
      case 'cond': {
        const t = truthy(this.eval(e.test, frame));
        if (t !== undefined) return this.eval(t ? e.then : e.otherwise, frame);
        const a = this.eval(e.then, frame);
        const b = this.eval(e.otherwise, frame);
        return a === b || (a.t !== 'module' && a.t !== 'layer' && compare('==', a, b).t === 'bool' && (compare('==', a, b) as { v: boolean }).v) ? a : UNKNOWN;
      }
      case 'list': {
        const items: Value[] = [];
        for (const item of e.items) items.push(this.eval(item, frame));
        return { t: 'seq', items, tuple: e.tuple };
      }
      case 'dict':
        return this.dict(e, frame);
      case 'call':
        return this.call(e, frame);
      case 'comprehension':
        return this.comprehension(e, frame);
      case 'lambda':
        return { t: 'lambda', expr: e, closure: frame };
      case 'fstring': {
        let text = '';
        for (const part of e.parts) {
          const v = typeof part === 'string' ? ({ t: 'str', v: part } as Value) : this.eval(part, frame);
          if (v.t === 'str') text += v.v;
          else if (v.t === 'int' && v.p.constant !== undefined) text += String(v.p.constant);
          else return SCALAR;
        }
        return { t: 'str', v: text };
      }
      case 'slice': {
        const bound = (x: Expr | undefined) => (x ? this.eval(x, frame) : NONE);
        return { t: 'slice', lower: bound(e.lower), upper: bound(e.upper), step: bound(e.step) };
      }
      default:
        return UNKNOWN;
    }
  }

  private dict(e: Extract<Expr, { k: 'dict' }>, frame: Frame): Value {
    const fields = new Map<string, Value>();
    for (const entry of e.entries) {
      if (entry.spread) {
        const v = this.eval(entry.spread, frame);
        if (v.t !== 'dict') return UNKNOWN;
        for (const [k, val] of v.fields) fields.set(k, val);
      } else if (entry.key) {
        const key = entry.key.k === 'name' && this.language === 'typescript' ? ({ t: 'str', v: entry.key.id } as Value) : this.eval(entry.key, frame);
        if (key.t !== 'str') return UNKNOWN;
        fields.set(key.v, this.eval(entry.value, frame));
      }
    }
    return { t: 'dict', fields };
  }

  /**
   * `[Block(c) for _ in range(n)]` is n independent copies, even for a symbolic n; an element that reads
   * its loop variable, or a filtered one, is evaluated for each value, when they can be listed.
   */
  private comprehension(e: Extract<Expr, { k: 'comprehension' }>, frame: Frame): Value {
    const iterable = this.eval(e.iterable, frame);
    const { values, count } = this.iteration(iterable);
    const inner = frame.fork();
    const readsTarget = e.variable === undefined || e.filters.length > 0 || mentionsName(e.element, e.variable);
    if (!readsTarget && count) {
      this.assign(e.target, UNKNOWN, inner);
      this.repeats.push(count);
      try {
        return { t: 'repeat', item: this.eval(e.element, inner), count };
      } finally {
        this.repeats.pop();
      }
    }
    if (!values || values.length > LIMITS.listItems) return UNKNOWN;
    const items: Value[] = [];
    for (const v of values) {
      this.assign(e.target, v, inner);
      let keep = true;
      for (const f of e.filters) {
        const t = truthy(this.eval(f, inner));
        if (t === undefined) return UNKNOWN;
        keep &&= t;
      }
      if (keep) items.push(this.eval(e.element, inner));
    }
    return { t: 'seq', items };
  }

  iteration(v: Value): { values?: readonly Value[]; count?: Poly; item?: Value } {
    if (v.t === 'module' && !v.items) {
      const children = [...v.tree.children.values()];
      if (children.some((c) => c.repeat)) return children.length === 1 ? { count: children[0].repeat, item: this.torch.asValue(children[0]) } : {};
      return { values: children.map((c) => this.torch.asValue(c)), count: Poly.int(children.length) };
    }
    if (v.t === 'module' && v.items) return { values: v.items, count: Poly.int(v.items.length) };
    if (v.t === 'repeat') return { count: v.count, item: v.item };
    return { values: itemsOf(v), count: countOf(v) };
  }

  // ---- names --------------------------------------------------------------------------------------

  lookup(name: string, frame: Frame): Value {
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      const v = f.vars.get(name);
      if (v !== undefined) return v;
    }
    this.reads?.names.set(name, this.originOf(name));
    const module = this.moduleFrame.vars.get(name);
    if (module !== undefined) return module;
    return this.global(name);
  }

  /** A module-level name not bound yet: a class or function (defined further down), an import, a built-in. */
  global(name: string): Value {
    this.globals ??= this.indexGlobals();
    const found = this.globals.get(name);
    this.reads?.names.set(name, found ? this.model.fragments[found.fragment].id : 0);
    if (found?.import) {
      const imp = found.import;
      return (imp.member && this.importedName(imp.module, imp.member)) || { t: 'ref', path: canonicalPath(imp.module, imp.member) };
    }
    if (found?.def) return this.definition(found.def.fragment, found.def.scope, undefined);
    if (BUILTIN_NAMES[this.language].has(name)) return { t: 'ref', path: `builtins.${name}` };
    return { t: 'sym', name };
  }

  /** The file's imports and top-level definitions by name, the first of each. */
  private indexGlobals(): Map<string, Global> {
    const index = new Map<string, Global>();
    this.model.fragments.forEach((fragment, fi) => {
      for (const imp of fragment.imports) if (!index.has(imp.local)) index.set(imp.local, { fragment: fi, import: imp });
      fragment.scopes.forEach((s, si) => {
        if (s.parent === -1 && !index.has(s.name)) index.set(s.name, { fragment: fi, def: { fragment: fi, scope: si } });
      });
    });
    return index;
  }

  /** The value a `def` / `class` statement binds. */
  definition(fragment: number, scope: number, closure: Frame | undefined): Value {
    const s = this.scopeAt(fragment, scope);
    const ref = { name: s.name, fragment, scope, owner: this };
    return s.kind === 'class' ? { t: 'class', ...ref } : { t: 'function', ...ref, closure: closure && !closure.isModule ? closure : undefined };
  }

  define(scope: number, frame: Frame): void {
    const s = this.model.fragments[frame.fragment].scopes[scope];
    frame.vars.set(s.name, this.definition(frame.fragment, scope, frame));
    if (frame === this.moduleFrame) this.origins.set(s.name, frame.fragment);
  }

  /** `from .blocks import Block`: the class, function or constant as the other file defines it. */
  private importedName(module: string, member: string): Value | undefined {
    const model = this.resolver?.resolve(module);
    this.reads?.files.set(module, model);
    if (!model) return undefined;
    let other = this.shared.imported.get(model);
    if (!other) {
      other = new Evaluator(model, { layer: (p, c, a) => this.hooks.layer(p, c, a, false), report: () => undefined }, this.resolver, this.shared);
      this.shared.imported.set(model, other);
      other.runModule();
    }
    const v = other.moduleFrame.vars.get(member) ?? other.global(member);
    return v.t === 'sym' ? undefined : v;
  }

  // ---- attributes and items -----------------------------------------------------------------------

  member(obj: Value, id: string): Value {
    switch (obj.t) {
      case 'ref':
        return { t: 'ref', path: `${obj.path}.${id}` };
      case 'dict': {
        const field = obj.fields.get(id);
        if (field) return field;
        if (obj.cls) return this.classes.attribute(obj.cls, id, obj) ?? UNKNOWN;
        return obj.origin ? { t: 'sym', name: `${obj.origin}.${id}` } : UNKNOWN;
      }
      case 'sym':
        return { t: 'sym', name: `${obj.name}.${id}` };
      case 'class':
        return this.classes.attribute(obj, id, undefined) ?? UNKNOWN;
      case 'module':
      case 'layer': {
        const tree = this.moduleOf(obj)!;
        const field = obj.t === 'module' ? obj.fields.get(id) : undefined;
        if (field && (field.t !== 'module' && field.t !== 'layer' ? !tree.children.has(id) && !tree.params.has(id) : this.moduleOf(field) === tree.children.get(id))) return field;
        const child = tree.children.get(id);
        if (child) return this.torch.asValue(child);
        const p = tree.params.get(id);
        if (p) return { t: 'param', ref: p };
        if (field) return field;
        if (obj.t === 'module' && obj.cls) return this.classes.attribute(obj.cls, id, obj) ?? UNKNOWN;
        return UNKNOWN;
      }
      case 'super':
        return this.classes.superAttribute(obj, id) ?? UNKNOWN;
      case 'tensor':
        return id === 'shape' ? { t: 'seq', items: obj.partial ? [] : obj.shape.map((d) => (d ? int(d) : UNKNOWN)) } : id === 'T' ? obj : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  private subscript(obj: Value, key: Value): Value {
    if (key.t === 'slice') return sliced(obj, key);
    if (obj.t === 'dict' && key.t === 'str') return obj.fields.get(key.v) ?? (obj.origin ? { t: 'sym', name: `${obj.origin}[${JSON.stringify(key.v)}]` } : UNKNOWN);
    const items = obj.t === 'seq' || obj.t === 'range' ? itemsOf(obj) : undefined;
    if (items && key.t === 'int' && key.p.constant !== undefined) {
      const i = Number(key.p.constant);
      return items[i < 0 ? items.length + i : i] ?? UNKNOWN;
    }
    if (obj.t === 'repeat' && key.t === 'int') return obj.item;
    if (obj.t === 'module' && key.t === 'int' && key.p.constant !== undefined) return this.member(obj, String(key.p.constant));
    if (obj.t === 'module' && key.t === 'str') return this.member(obj, key.v);
    if (obj.t === 'sym' && key.t === 'str') return { t: 'sym', name: `${obj.name}[${JSON.stringify(key.v)}]` };
    return UNKNOWN;
  }

  // ---- assignment ---------------------------------------------------------------------------------

  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void {
    switch (target.k) {
      case 'name':
        frame.vars.set(target.id, value);
        if (frame === this.moduleFrame) this.origins.set(target.id, frame.fragment);
        return;
      case 'attr': {
        const obj = this.eval(target.object, frame);
        this.setAttribute(obj, target.id, value, source?.k === 'call');
        return;
      }
      case 'index': {
        const obj = this.eval(target.object, frame);
        const key = this.eval(target.index, frame);
        if (obj.t === 'dict' && key.t === 'str' && obj.fields instanceof Map) this.journal.set(this.fieldsOwner, obj.fields as Map<string, Value>, key.v, value);
        else if (obj.t === 'module' && key.t === 'str' && obj.tree.kind === 'ModuleDict') this.torch.setMember(obj, key.v, value);
        return;
      }
      case 'list': {
        const items = value.t === 'seq' ? value.items : undefined;
        target.items.forEach((t, i) => this.assign(t, items?.[i] ?? (value.t === 'repeat' ? value.item : UNKNOWN), frame));
        return;
      }
      default:
        return;
    }
  }

  /**
   * `obj.name = value`: a module registers submodules and parameters; other objects keep fields. A value a
   * call returned that cannot be followed may be a module: the module's total is then not known.
   */
  setAttribute(target: Value, name: string, value: Value, fromCall = false): void {
    // `self.out.weight = ...` on a catalog layer: its module tree takes the parameter (weight tying).
    const obj: Value = target.t === 'layer' ? { t: 'module', tree: this.moduleOf(target)!, fields: new Map() } : target;
    if (obj.t === 'module') {
      if (value.t === 'unknown' && !value.scalar && fromCall) this.torch.owner(obj.tree).differs(obj.tree.children as Map<string, unknown>, name, `self.${name} cannot be followed`);
      this.torch.setMember(obj, name, value);
    } else if (obj.t === 'dict' && obj.fields instanceof Map) {
      this.journal.set(this.fieldsOwner, obj.fields as Map<string, Value>, name, value);
    }
  }

  /** An instance's or a dict's fields: a field two branches set differently is unknown. */
  readonly fieldsOwner: Owner = { differs: (map, key) => void map.set(key, UNKNOWN) };

  /** Expression statements: `xs.append(v)` rebinds a plain list; everything else is a call for its effects. */
  run(e: Expr, frame: Frame): void {
    if (e.k === 'call' && e.callee.k === 'attr' && (e.callee.id === 'append' || e.callee.id === 'extend' || e.callee.id === 'insert') && (e.callee.object.k === 'name' || e.callee.object.k === 'attr')) {
      const holder = this.eval(e.callee.object, frame);
      if (holder.t === 'seq') {
        const args = e.args.map((a) => this.eval(a.value, frame));
        this.assign(e.callee.object, this.torch.grown(holder, e.callee.id, args), frame);
        return;
      }
    }
    this.eval(e, frame);
  }

  raised(span: Span, message: Value | undefined): void {
    this.hooks.raised?.(span, message?.t === 'str' ? message.v : undefined);
  }

  // ---- arithmetic ---------------------------------------------------------------------------------

  binary(op: string, l: Value, r: Value, span?: Span): Value {
    if (l.t === 'tensor' && r.t === 'tensor') return this.checks.broadcast(op, l, r, span);
    // `torch.randn(n, d) * 0.02` is still a tensor of that shape.
    if (l.t === 'tensor') return l;
    if (r.t === 'tensor') return r;
    return arithmetic(op, l, r, this.language);
  }

  // ---- calls --------------------------------------------------------------------------------------

  bind(args: readonly Arg[], frame: Frame): BoundCall | undefined {
    const positional: { value: Value; arg?: Arg }[] = [];
    const keywords = new Map<string, { value: Value; arg?: Arg }>();
    for (const arg of args) {
      const value = this.eval(arg.value, frame);
      if (arg.spread === 'dict') {
        if (value.t !== 'dict') return undefined;
        for (const [k, v] of value.fields) keywords.set(k, { value: v });
      } else if (arg.spread === 'list') {
        if (value.t === 'repeat') positional.push({ value, arg });
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

  private call(e: CallExpr, frame: Frame): Value {
    this.reached.add(e.span.start);
    const c = e.callee;
    let callee: Value;
    if (c.k === 'attr') {
      const obj = this.eval(c.object, frame);
      if (obj.t === 'super' && c.id === '__init__') return this.superInit(obj, e, frame);
      const special = this.methodCall(obj, c.id, e, frame);
      if (special) return special;
      callee = this.member(obj, c.id);
    } else if (c.k === 'name' && c.id === 'super' && this.language === 'typescript') {
      const s = this.classes.builtin('builtins.super', [], new Map(), frame);
      return s?.t === 'super' ? this.superInit(s, e, frame) : UNKNOWN;
    } else {
      callee = this.eval(c, frame);
    }
    const bound = this.bind(e.args, frame);
    if (!bound) return UNKNOWN;
    return this.callValue(callee, bound, e, frame);
  }

  /** `super().__init__(...)`: the next constructor in the MRO, or the catalog layer being subclassed. */
  private superInit(s: Extract<Value, { t: 'super' }>, e: CallExpr, frame: Frame): Value {
    const bound = this.bind(e.args, frame);
    if (!bound) {
      if (s.self.t === 'module') this.torch.owner(s.self.tree).differs(s.self.tree.children as Map<string, unknown>, '', 'the arguments of super().__init__ cannot be followed');
      return UNKNOWN;
    }
    const next = this.classes.superAttribute(s, this.language === 'python' ? '__init__' : 'constructor');
    if (next?.t === 'function') {
      const init = next;
      const missing: string[] = [];
      this.nested(() => {
        (init.owner ?? this).runConstructor(init, bound.positional.map((p) => p.value), plain(bound.keywords), s.self, missing);
        return NONE;
      });
      return NONE;
    }
    return this.classes.superInit(s, bound, e) ?? NONE;
  }

  /** Methods with a meaning of their own on the object they are called on; undefined for the others. */
  private methodCall(obj: Value, method: string, e: CallExpr, frame: Frame): Value | undefined {
    if (method === 'get' && obj.t === 'dict' && e.args[0]) {
      const key = this.eval(e.args[0].value, frame);
      if (key.t === 'str') return obj.fields.get(key.v) ?? (e.args[1] ? this.eval(e.args[1].value, frame) : obj.fields.has(key.v) ? UNKNOWN : NONE);
    }
    if (APPLY_METHODS.has(method) || method === 'add') {
      const flowed = this.flowCall(obj, method, e.args, frame);
      if (flowed) return flowed;
    }
    if (obj.t === 'tensor') {
      const args = this.bind(e.args, frame);
      return args ? tensorMethod(obj, method, args.positional.map((p) => p.value), plain(args.keywords)) : UNKNOWN;
    }
    if (obj.t === 'module' || obj.t === 'layer') {
      const args = this.bind(e.args, frame);
      if (!args) return undefined;
      if (method === 'forward' || (method === 'call' && this.language === 'typescript' && obj.t === 'module')) return this.applyCallable(obj, args.positional.map((p) => p.value), plain(args.keywords), e.span);
      return this.torch.moduleMethod(obj, method, args.positional.map((p) => p.value));
    }
    return undefined;
  }

  /** Calls any callable value: classes, functions, methods, lambdas, partials, layers, library functions. */
  callValue(callee: Value, bound: BoundCall, e: CallExpr, frame: Frame): Value {
    const positional = bound.positional.map((p) => p.value);
    const keywords = plain(bound.keywords);
    switch (callee.t) {
      case 'class': {
        const built = (callee.owner ?? this).classes.instantiate(callee, bound, e);
        // Instances are this file's when its own module body builds them, whichever file defines the class.
        if (frame.isModule && built.t === 'module') this.hooks.instance?.(callee, e, built);
        return built;
      }
      case 'function':
        return (callee.owner ?? this).callFunction(callee, positional, keywords, callee.self);
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
        return this.applyCallable(callee, positional, keywords, e.span);
      case 'super':
        return UNKNOWN;
      case 'ref':
        return this.library(normalizePath(callee.path), bound, e, frame);
      default:
        return UNKNOWN;
    }
  }

  private library(path: string, bound: BoundCall, e: CallExpr, frame: Frame): Value {
    const positional = bound.positional.map((p) => p.value);
    const keywords = plain(bound.keywords);
    const language = this.classes.builtin(path, positional, keywords, frame);
    if (language) return language;
    const functional = this.checks.tensorFunction(path, positional, keywords);
    if (functional) return functional;
    const built = this.torch.construct(path, positional, keywords);
    if (built) return built;
    const builtin = BUILTIN_CALLS[path];
    if (builtin) return builtin(positional, keywords);
    const source = tensorSource(path, positional);
    if (source) return source;
    if (path === 'tfjs.sequential') return this.sequential(positional[0]);
    const op = path.startsWith('tfjs.layers.') ? path.slice('tfjs.layers.'.length) : '';
    if (op === 'flatten' || op === 'concatenate') return { t: 'op', op };
    if (TFJS_PASS_THROUGH.has(op)) return { t: 'op', op: 'same' };
    return this.hooks.layer(path, e, bound, true) ?? UNKNOWN;
  }

  private callLambda(fn: Extract<Value, { t: 'lambda' }>, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
    const frame = new Frame(fn.closure.fragment, fn.closure.scope, fn.closure);
    fn.expr.params.forEach((p, i) => {
      frame.vars.set(p.name, keywords.get(p.name) ?? positional[i] ?? (p.default ? this.eval(p.default, fn.closure) : { t: 'sym', name: p.name }));
    });
    return this.nested(() => this.eval(fn.expr.body, frame));
  }

  /** Runs `work` one call deeper; beyond the depth limit (recursion) the result is unknown. */
  nested(work: () => Value): Value {
    if (this.budget.depth >= LIMITS.depth) return UNKNOWN;
    this.budget.depth++;
    try {
      return work();
    } finally {
      this.budget.depth--;
    }
  }

  /** Runs a constructor on `self`; the parameters that got no value are added to `missing`. */
  runConstructor(init: DefRef & { closure?: Frame }, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, self: Value, missing: string[]): Exit {
    const scope = this.scopeAt(init.fragment, init.scope);
    const frame = new Frame(init.fragment, init.scope, init.closure ?? this.moduleFrame);
    missing.push(...this.bindParams(scope, frame, positional, keywords, self));
    return this.runner.body(scope.body, frame);
  }

  /** Runs a function's body with its parameters bound; its value is what every `return` agrees on. */
  callFunction(fn: DefRef & { closure?: Frame }, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, self?: Value): Value {
    const scope = this.scopeAt(fn.fragment, fn.scope);
    const frame = new Frame(fn.fragment, fn.scope, fn.closure ?? this.moduleFrame);
    this.bindParams(scope, frame, positional, keywords, self);
    return this.nested(() => {
      const exit = this.runner.body(scope.body, frame);
      if (exit === 'raise' && frame.returns.length === 0) return UNKNOWN;
      if (frame.returns.length === 0) return NONE;
      const [first, ...rest] = frame.returns;
      return rest.every((r) => r === first || (compare('==', r, first) as { v?: boolean }).v === true) ? first : UNKNOWN;
    });
  }

  /**
   * Binds arguments to parameters as Python does (positional, keyword, `*args`, `**kwargs`, keyword-only);
   * a parameter without an argument or a default becomes a symbol of its own name. Returns those names.
   */
  bindParams(scope: Scope, frame: Frame, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, self?: Value): string[] {
    let params = scope.params;
    if (self !== undefined) {
      if (this.language === 'python' && params[0]) {
        frame.vars.set(params[0].name, self);
        params = params.slice(1);
      } else frame.vars.set('this', self);
    }
    const missing: string[] = [];
    const used = new Set<string>();
    let index = 0;
    for (const p of params) {
      if (p.variadic === 'list') {
        frame.vars.set(p.name, { t: 'seq', items: positional.slice(index), tuple: true });
        index = positional.length;
        continue;
      }
      if (p.variadic === 'dict') {
        frame.vars.set(p.name, { t: 'dict', fields: new Map([...keywords].filter(([k]) => !used.has(k) && !params.some((q) => q.name === k && !q.variadic))) });
        continue;
      }
      used.add(p.name);
      const given = keywords.get(p.name) ?? (p.keywordOnly ? undefined : positional[index]);
      if (!p.keywordOnly && !keywords.has(p.name) && index < positional.length) index++;
      if (given) frame.vars.set(p.name, given);
      else if (p.default) frame.vars.set(p.name, this.eval(this.expr(p.default), frame.parent ?? this.moduleFrame));
      else {
        frame.vars.set(p.name, { t: 'sym', name: p.name });
        missing.push(p.name);
      }
    }
    return missing;
  }

  /** `layer.apply(x)` / `mha.call(q, {value})` / `model.add(layer)`: the shapes that flow through. */
  private flowCall(target: Value, method: string, args: readonly Arg[], frame: Frame): Value | undefined {
    if (target.t !== 'model' && target.t !== 'layer' && target.t !== 'op') return undefined;
    const values = args.map((a) => this.eval(a.value, frame));
    if (method === 'add') {
      if (target.t !== 'model' || !values[0]) return undefined;
      this.models.set(target.id, feed(values[0], this.models.get(target.id) ? [this.models.get(target.id)!] : []));
      return NONE;
    }
    if (target.t === 'model') return undefined;
    const shapes = appliedShapes(values);
    const out = shapes && feed(target, shapes);
    return out ? { t: 'tensor', shape: out } : UNKNOWN;
  }

  /** `tf.sequential({layers: [...]})`: each layer is fed what the one before it produces. */
  private sequential(config: Value | undefined): Value {
    const id = this.models.size;
    this.models.set(id, undefined);
    const layers = config?.t === 'dict' ? config.fields.get('layers') : undefined;
    if (layers?.t === 'seq') {
      let shape: readonly (Poly | undefined)[] | undefined;
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

  /** Makes `tree` the module tree of a layer value (a copy of another layer's tree). */
  adoptTree(layer: LayerValue, tree: ModuleTree): void {
    this.layerModules.set(layer, tree);
  }

  /** A value as a child module: modules, layers, and `repeat` (n copies, one node with a count). */
  childTree(v: Value): ModuleTree | undefined {
    if (v.t === 'repeat') {
      const item = this.childTree(v.item);
      if (!item) return undefined;
      const copy = deepCopy(item, v.count);
      // The copies run the item's forward(): reading `self.blocks[0]` or iterating gives its instance back.
      this.torch.registerCopy(item, copy);
      return copy;
    }
    return this.moduleOf(v);
  }

  // ---- tensors through forward() ------------------------------------------------------------------

  /** `model(x)`: a module runs its forward(); a Sequential applies its layers in order; a layer its rule. */
  applyCallable(callee: Extract<Value, { t: 'layer' } | { t: 'module' }>, positional: readonly Value[], keywords: ReadonlyMap<string, Value>, span: Span): Value {
    if (callee.t === 'layer') return this.checks.applyLayer(callee, positional, keywords, span);
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
      const forward = this.classes.method(callee.cls, this.language === 'python' ? 'forward' : 'forward');
      if (forward) return (forward.owner ?? this).callFunction(forward, positional, keywords, callee);
      if (callee.layer) return this.checks.applyLayer(callee.layer, positional, keywords, span);
      return UNKNOWN;
    }
    const input = positional[0];
    return WEIGHTLESS.has(callee.tree.kind) && callee.tree.kind !== 'Flatten' && input?.t === 'tensor' ? input : UNKNOWN;
  }

  /**
   * Follows a model instance's forward() with its inputs unknown: shape errors go to the hooks, and the
   * feature size known after each assignment of this file that the run reaches is returned, for inlay hints.
   */
  followForward(instance: Value): { at: Expr; features: Poly }[] {
    if (instance.t !== 'module' || !instance.cls) return [];
    const forward = this.classes.method(instance.cls, 'forward');
    if (!forward) return [];
    const sizes: { at: Expr; features: Poly }[] = [];
    this.assigned = (value, expr) => {
      const f = value.t === 'tensor' ? value.shape[value.shape.length - 1] : undefined;
      if (f?.constant !== undefined) sizes.push({ at: expr, features: f });
    };
    try {
      const scope = (forward.owner ?? this).scopeAt(forward.fragment, forward.scope);
      const inputs = scope.params.slice(this.language === 'python' ? 1 : 0).filter((p) => !p.default && !p.variadic).map(() => OPAQUE);
      this.guard(() => (forward.owner ?? this).callFunction(forward, inputs, new Map(), instance));
    } finally {
      this.assigned = undefined;
    }
    return sizes;
  }

  /** A catalog layer's spec is known for `path`. */
  isCatalogLayer(path: string): boolean {
    return layerSpec(normalizePath(path)) !== undefined;
  }
}

/** `xs[a:b:c]` of a list, a tuple or a string with known bounds. */
function sliced(obj: Value, key: Extract<Value, { t: 'slice' }>): Value {
  const items = obj.t === 'seq' || obj.t === 'range' ? itemsOf(obj) : undefined;
  const text = obj.t === 'str' ? obj.v : undefined;
  const length = items?.length ?? text?.length;
  const bound = (v: Value) => (v.t === 'none' ? undefined : asPoly(v)?.constant);
  const step = bound(key.step) ?? 1n;
  const lo = bound(key.lower);
  const hi = bound(key.upper);
  if (length === undefined || step === 0n || (key.lower.t !== 'none' && lo === undefined) || (key.upper.t !== 'none' && hi === undefined)) return obj.t === 'tensor' ? obj : UNKNOWN;
  const n = BigInt(length);
  const clamp = (x: bigint | undefined, fallback: bigint) => {
    if (x === undefined) return fallback;
    const y = x < 0n ? x + n : x;
    return y < 0n ? (step > 0n ? 0n : -1n) : y > n ? (step > 0n ? n : n - 1n) : y;
  };
  const start = clamp(lo, step > 0n ? 0n : n - 1n);
  const stop = clamp(hi, step > 0n ? n : -1n);
  const picked: number[] = [];
  for (let i = start; step > 0n ? i < stop : i > stop; i += step) picked.push(Number(i));
  if (text !== undefined) return { t: 'str', v: picked.map((i) => text[i]).join('') };
  return { t: 'seq', items: picked.map((i) => items![i]), tuple: obj.t === 'seq' ? obj.tuple : undefined };
}

/** A module-level name as the file defines it: an import or a top-level class or function, and where. */
interface Global {
  readonly fragment: number;
  readonly import?: ImportBinding;
  readonly def?: { readonly fragment: number; readonly scope: number };
}

function plain(keywords: ReadonlyMap<string, { value: Value }>): Map<string, Value> {
  return new Map([...keywords].map(([k, v]) => [k, v.value]));
}

