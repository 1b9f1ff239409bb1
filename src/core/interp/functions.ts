/** Running user functions: parameters bound as Python binds them, bodies run, depth bounded. */
import type { FunctionRef, Interp } from './interp';
import { fragmentIndexAt, type ExprRef, type Param, type Scope } from '../ir/source';
import { MAYBE_MODULE, NONE, UNKNOWN, isTainted, joinHoldingNothing, unknownOf, type Value } from '../values/value';
import { compare } from './arith';
import { LIMITS } from '../limits/budget';
import { Frame } from './frame';
import type { Exit } from './statements';
import { born } from '../values/births';

/** Decorators that leave a method as it is written, as far as the modules it builds go. */
const TRANSPARENT_DECORATORS = new Set([
  'staticmethod',
  'classmethod',
  'property',
  'cached_property',
  'functools.cached_property',
  'abstractmethod',
  'abc.abstractmethod',
  'overload',
  'typing.overload',
  'override',
  'typing.override',
  'torch.no_grad',
  'torch.inference_mode',
  'torch.enable_grad',
  'torch.jit.ignore',
  'torch.jit.unused',
  'torch.jit.export',
  'torch.jit.script_method',
  'torch.compile',
  'torch.compiler.disable',
  'torch._dynamo.disable',
  'torch.autocast',
  'beartype',
  'jaxtyped',
  'typecheck',
  'torch.cuda.amp.autocast',
]);

export class Functions {
  constructor(private readonly ev: Interp) {}

  /** Runs `work` one call deeper; beyond the depth limit (recursion) the result is unknown. */
  nested(work: () => Value): Value {
    if (this.ev.budget.depth >= LIMITS.depth) return UNKNOWN;
    this.ev.budget.depth++;
    try {
      return work();
    } finally {
      this.ev.budget.depth--;
    }
  }

  /**
   * Runs `work` as a call of `scope`, unless it is a call of a function already running, made on a path that
   * may not be taken since that run started (DLA's `if levels == 1: ... else: DlaTree(levels - 1, ...)` with
   * `levels` not known): Python ends such a recursion where the condition decides, which is not known here,
   * and following both paths at every level costs twice as much a level. That call gives what `refused` gives.
   */
  running<T>(scope: Scope, work: () => T, refused: () => T): T {
    const running = this.ev.shared.running;
    for (let i = running.length - 1; i >= 0; i--) {
      if (running[i].scope !== scope) continue;
      if (this.ev.shared.unsure > running[i].unsure) return refused();
      break;
    }
    running.push({ scope, unsure: this.ev.shared.unsure, file: this.ev.file });
    try {
      return work();
    } finally {
      running.pop();
    }
  }

  /** Runs a constructor on `self`; the parameters that got no value are added to `missing`. */
  runConstructor(
    init: FunctionRef,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    self: Value,
    missing: string[],
    opaque = false,
  ): Exit {
    const scope = this.ev.scopeAt(init.fragment, init.scope);
    const frame = new Frame(init.fragment, init.scope, this.closure(init));
    missing.push(...this.bindParams(scope, frame, positional, keywords, self, opaque));
    return this.ev.runner.body(scope.body, frame);
  }

  /** The frame a function was defined in: the module's for a top-level function or a method. */
  private closure(fn: FunctionRef): Frame {
    return fn.closure === undefined ? this.ev.moduleFrame : this.ev.shared.environments.frame(fn.closure);
  }

  /** Runs a function's body with its parameters bound; its value is what every `return` agrees on. */
  callFunction(
    fn: FunctionRef,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    self?: Value,
  ): Value {
    const scope = this.ev.scopeAt(fn.fragment, fn.scope);
    // A module's method behind a decorator this file does not follow (`@singleton('projector')` setting
    // `self.projector` on its first call) may add modules: called while a model is built, the total after it is
    // not known. Called after (Hugging Face's `@check_model_inputs` forward() followed for its attention), what
    // it returns is not known, and the model stays as it was built.
    const unfollowed = self?.t === 'module' && scope.decorators.find((d) => !TRANSPARENT_DECORATORS.has(d));
    if (unfollowed && self?.t === 'module') {
      if (this.ev.shared.building > 0)
        this.ev.torch
          .owner(self.tree)
          .differs(
            self.tree.children as Map<string, unknown>,
            '',
            `${scope.name}() is decorated with @${unfollowed}, which Attention Lens does not follow`,
          );
      return UNKNOWN;
    }
    const frame = new Frame(fn.fragment, fn.scope, this.closure(fn));
    this.bindParams(scope, frame, positional, keywords, self);
    return this.nested(() => {
      const exit = this.running(
        scope,
        () => this.ev.runner.body(scope.body, frame),
        () => 'unknown' as const,
      );
      // A function that could not be followed may have returned a module (a builder), as may one whose returns differ.
      if (exit === 'unknown') return MAYBE_MODULE;
      if (exit === 'raise' && frame.returns.length === 0) return UNKNOWN;
      if (frame.returns.length === 0) return NONE;
      const [first, ...rest] = frame.returns;
      return rest.every((r) => r === first || (compare('==', r, first) as { v?: boolean }).v === true)
        ? first
        : (joinHoldingNothing(frame.returns) ?? unknownOf(...frame.returns));
    });
  }

  /**
   * Binds arguments to parameters as Python does (positional, keyword, `*args`, `**kwargs`, keyword-only);
   * a parameter without an argument or a default becomes a symbol of its own name. Returns those names.
   */
  bindParams(
    scope: Scope,
    frame: Frame,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    self?: Value,
    opaque = false,
  ): string[] {
    let params = scope.params;
    if (self !== undefined) {
      if (this.ev.language === 'python' && params[0]) {
        frame.set(params[0].name, self);
        params = params.slice(1);
      } else frame.set('this', self);
    }
    if (opaque) {
      // Arguments that could not be followed: no parameter, not even one with a default, is known.
      for (const p of params) frame.set(p.name, UNKNOWN);
      return [];
    }
    const missing: string[] = [];
    const used = new Set<string>();
    let index = 0;
    for (const p of params) {
      if (p.variadic === 'list') {
        frame.set(p.name, { t: 'seq', items: positional.slice(index), tuple: true });
        index = positional.length;
        continue;
      }
      if (p.variadic === 'dict') {
        frame.set(p.name, {
          t: 'dict',
          mapping: true,
          fields: born(
            new Map([...keywords].filter(([k]) => !used.has(k) && !params.some((q) => q.name === k && !q.variadic))),
          ),
        });
        continue;
      }
      used.add(p.name);
      const given = keywords.get(p.name) ?? (p.keywordOnly ? undefined : positional[index]);
      if (!p.keywordOnly && !keywords.has(p.name) && index < positional.length) index++;
      if (given) frame.set(p.name, given);
      else if (p.default) frame.set(p.name, this.defaultOf(scope, p.name, p.default, frame));
      else {
        frame.set(p.name, { t: 'sym', name: p.name });
        missing.push(p.name);
      }
      if (p.fields) this.destructure(scope, p.fields, frame.vars.get(p.name)!, frame);
    }
    return missing;
  }

  /** A parameter's default; a number or flag is a name of its own while a class is built with names. */
  private defaultOf(scope: Scope, name: string, expr: ExprRef, frame: Frame): Value {
    // JavaScript evaluates a default at each call, with the parameters before it bound (`hidden = 4 * dim`).
    const value = this.ev.eval(
      this.ev.expr(expr),
      this.ev.language === 'typescript' ? frame : (frame.parent ?? this.ev.moduleFrame),
    );
    // A None default is a name too: the formula must hold when the caller gives one (`hidden = hidden or dim`).
    const asName =
      scope === this.ev.shared.paramsAsNames &&
      (value.t === 'int' || value.t === 'float' || value.t === 'bool' || value.t === 'none');
    return asName ? { t: 'sym', name } : value;
  }

  /**
   * `{ units = 4, dim }: Config`: each name from the argument's property, its default when that is undefined
   * (missing from an object that is known); a name of its own when the argument is not a known object.
   */
  private destructure(scope: Scope, fields: NonNullable<Param['fields']>, arg: Value, frame: Frame): void {
    const known = arg.t === 'dict' && !arg.cls && !isTainted(arg) ? arg.fields : undefined;
    for (const f of fields) {
      const v = f.key !== undefined && known ? known.get(f.key) : undefined;
      if (v !== undefined && v.t !== 'none') frame.set(f.name, v);
      else if (known && f.key !== undefined)
        frame.set(f.name, f.default ? this.defaultOf(scope, f.name, f.default, frame) : NONE);
      else frame.set(f.name, { t: 'sym', name: f.name });
    }
  }
}

/** An arrow function with a body, as the value of the function scope it was lowered to (the one starting at `start`). */
export function inlineFunction(ev: Interp, start: number, frame: Frame): Value {
  const at = fragmentIndexAt(ev.model.fragments, start);
  const scope =
    at < 0 ? -1 : ev.model.fragments[at].scopes.findIndex((s) => s.kind === 'function' && s.extent.start === start);
  return scope >= 0 ? ev.names.definition(at, scope, frame) : UNKNOWN;
}
