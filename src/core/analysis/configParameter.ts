/**
 * The configuration class a model's constructor takes when the class names none (Hugging Face's
 * `config_class` is runs.ts's configClass): the class its one required parameter is annotated with
 * (`params: ModelArgs`), else the one class in scope whose fields hold every field the constructor reads of
 * that parameter (nanoGPT's GPT reads `config.n_embd`, `config.n_head`, ...: GPTConfig's fields), or the one
 * its parts take when it passes the parameter on. Only a class that builds with no arguments, every field
 * with a default, configures a model: the model is then counted with its defaults, `GPT(GPTConfig())`, as
 * PyTorch would build it.
 */
import { children, type Expr, type Span } from '../ir/expr';
import { definitions } from '../ir/moduleNames';
import { partsOf, type Scope, type SourceModel, type Stmt } from '../ir/source';
import type { Evaluator } from '../interp/evaluator';
import { ReadsMemo } from '../interp/readsMemo';
import type { Value } from '../values/value';

type ClassValue = Extract<Value, { t: 'class' }>;

export interface ConfigParameter {
  readonly config: ClassValue;
  /** The constructor's parameter it is passed as. */
  readonly param: string;
  /** Whether that parameter is the first after `self`, so the configuration is passed by position. */
  readonly first: boolean;
}

export function configParameter(
  evaluator: Evaluator,
  cls: ClassValue,
  visiting = new Set<string>(),
  needsDefaults = true,
): ConfigParameter | undefined {
  if (evaluator.language !== 'python') return undefined;
  const id = classId(cls);
  if (visiting.has(id)) return undefined;
  visiting.add(id);
  const init = evaluator.classes.method(cls, '__init__');
  if (!init) return undefined;
  const owner = evaluator.of(init);
  const scope = owner.scopeAt(init.fragment, init.scope);
  const params = scope.params.slice(1);
  const required = requiredParams(scope);
  if (required.length !== 1) return undefined;
  const [param] = required;
  // `config: GPTConfig`, or as a forward reference, `config: "GPTConfig"`.
  const named = param.annotation?.match(/^(['"]?)([\w.]+)\1$/)?.[2];
  const annotated = named ? valueOfName(owner, named) : undefined;
  // A module it is given (`backbone: ResNet`) is a part, not a configuration.
  const config =
    annotated?.t === 'class'
      ? owner.classes.isModuleClass(annotated)
        ? undefined
        : annotated
      : byFields(owner, scope, param.name, visiting);
  if (!config || (needsDefaults && !buildsAlone(evaluator.of(config), config))) return undefined;
  return { config, param: param.name, first: params[0] === param };
}

/**
 * Whether the class's own constructor could take a configuration, from its text alone: one parameter it needs,
 * annotated, or whose fields it reads (`config.n_embd`), or that it passes on (`Block(config)`). A class that
 * has no constructor of its own may inherit one that does. Asked on every version, for every class, before any
 * run: what it reads is the constructor's statements only.
 */
export function mayTakeConfiguration(model: SourceModel, fragment: number, scope: number): boolean {
  const scopes = model.fragments[fragment].scopes;
  const init = ownConstructor(scopes, scope);
  if (!init) return true;
  const required = requiredParams(init);
  if (required.length !== 1) return false;
  const [param] = required;
  if (param.annotation) return true;
  let used = false;
  eachExpr(model, init.body, (e) => {
    used ||=
      (e.k === 'attr' && e.object.k === 'name' && e.object.id === param.name) ||
      (e.k === 'call' && e.args.some((a) => a.value.k === 'name' && a.value.id === param.name));
  });
  return used;
}

/** The parameters after `self` (the first `bound`) a call must give: no default, not `*args` or `**kwargs`. */
export function requiredParams(init: Scope, bound = 1): Scope['params'] {
  return init.params.slice(bound).filter((p) => !p.default && !p.variadic);
}

/** The class's own `__init__`, if its body defines one. */
function ownConstructor(scopes: readonly Scope[], scope: number): Scope | undefined {
  return scopes.find((s) => s.parent === scope && s.kind === 'function' && s.name === '__init__');
}

/** The value a dotted name has at module level of `ev`'s file (`GPTConfig`, `model_args.ModelArgs`). */
export function valueOfName(ev: Evaluator, dotted: string, span: Span = NOWHERE): Value {
  const [head, ...rest] = dotted.split('.');
  const e = rest.reduce<Expr>((object, id) => ({ k: 'attr', object, id, span }), { k: 'name', id: head, span });
  return ev.eval(e, ev.moduleFrame);
}

const NOWHERE: Span = { start: 0, end: 0, startLine: 0, startChar: 0, endLine: 0, endChar: 0 };

/**
 * The one class of the constructor's file, defined there or imported by name (`from config import GPTConfig`),
 * other than the model, that has every field the constructor reads of `param`; where it passes `param` on to
 * the constructors of its parts (BERT's `BertAttention(config)` builds `BertSelfAttention(config)`), the one
 * configuration they take, if those found agree on one that also has the fields read here.
 */
function byFields(ev: Evaluator, init: Scope, param: string, visiting: Set<string>): ClassValue | undefined {
  const reads = new Set<string>();
  const parts: ClassValue[] = [];
  eachExpr(ev, init.body, (e) => {
    if (e.k === 'attr' && e.object.k === 'name' && e.object.id === param) reads.add(e.id);
    if (e.k === 'call' && e.callee.k === 'name' && e.args.some((a) => a.value.k === 'name' && a.value.id === param)) {
      const part = valueOfName(ev, e.callee.id);
      if (part.t === 'class' && ev.classes.isModuleClass(part)) parts.push(part);
    }
  });
  const taken = new Map<string, ClassValue>();
  // A part whose configuration is not found this way has no say; one wrongly taken makes a build PyTorch
  // refuses (a field missing), which runConfigured drops.
  for (const part of parts) {
    const config = configParameter(ev, part, visiting)?.config;
    if (config) taken.set(classId(config), config);
  }
  if (taken.size > 1) return undefined;
  const [passedOn] = taken.values();
  if (passedOn) {
    const fields =
      configurationsIn(ev).find((c) => classId(c.config) === classId(passedOn))?.fields ?? fieldsOf(ev, passedOn);
    return [...reads].every((r) => fields.has(r)) ? passedOn : undefined;
  }
  if (!reads.size) return undefined;
  const found = configurationsIn(ev).filter(({ fields }) => [...reads].every((r) => fields.has(r)));
  return found.length === 1 ? found[0].config : undefined;
}

type Configuration = { readonly config: ClassValue; readonly fields: Set<string> };

/**
 * The classes a module-level name of the file holds that are no model (those it defines, then those it
 * imports by name), each with its fields: found once per analysis, not once per model class asking. What
 * finding them read is read by each run that asks (ReadsMemo): a class added or removed anywhere decides
 * anew which one a model takes, in the editor as in a fresh analysis.
 */
function configurationsIn(ev: Evaluator): readonly Configuration[] {
  let memo = CONFIGURATIONS.get(ev);
  if (!memo) CONFIGURATIONS.set(ev, (memo = new ReadsMemo(ev)));
  return memo.get(
    'configurations',
    () => {
      const seen = new Set<string>();
      const found: Configuration[] = [];
      for (const c of classesInScope(ev)) {
        const id = classId(c);
        if (seen.has(id) || ev.classes.isModuleClass(c)) continue;
        seen.add(id);
        found.push({ config: c, fields: fieldsOf(ev, c) });
      }
      return found;
    },
    () => [],
  );
}

const CONFIGURATIONS = new WeakMap<Evaluator, ReadsMemo<readonly Configuration[]>>();

const classId = (c: ClassValue) => `${c.file}:${c.fragment}:${c.scope}`;

/**
 * The classes module-level names of the file hold that may be configurations: those it defines (not those
 * whose text says they are modules or whose constructor needs arguments: a model class edited as the user
 * types is no read of the configured runs), then those it imports by name.
 */
function* classesInScope(ev: Evaluator): Generator<ClassValue> {
  for (const { fragment, scope } of definitions(ev.model, 'class')) {
    if (!mayBeConfiguration(ev.model, fragment, scope)) continue;
    const c = ev.names.definition(fragment, scope, undefined);
    if (c.t === 'class') yield c;
  }
  for (const f of ev.model.fragments)
    for (const imp of f.imports) {
      if (!imp.member) continue;
      const v = valueOfName(ev, imp.local);
      if (v.t === 'class') yield v;
    }
}

/** From its text alone: no base named a module or a layer, and a constructor (if any) with every parameter defaulted. */
function mayBeConfiguration(model: SourceModel, fragment: number, scope: number): boolean {
  const scopes = model.fragments[fragment].scopes;
  if (scopes[scope].bases.some((b) => /\bModule\b|\bnn\.|Layer\b/.test(model.text(b)))) return false;
  const init = ownConstructor(scopes, scope);
  return !init || requiredParams(init).length === 0;
}

/**
 * What an instance of a class has, as the interpreter builds it with no arguments (an argument it needs stays
 * a name): its dataclass fields or what its constructor sets (transformers' PretrainedConfig's own included),
 * and its class attributes.
 */
function fieldsOf(ev: Evaluator, c: ClassValue): Set<string> {
  const owner = ev.of(c);
  const built = owner.guard(() => owner.classes.instantiate(c, { positional: [], keywords: new Map() }, undefined));
  const fields = new Set<string>(built?.t === 'dict' && built.fields instanceof Map ? built.fields.keys() : []);
  for (const b of owner.classes.mro(c) ?? [c]) {
    if ('path' in b) continue;
    for (const [name, v] of ev.of(b).classes.ownAttributes(b)) if (v.t !== 'function') fields.add(name);
  }
  return fields;
}

/** Whether `c()` builds a whole configuration: a constructor with every parameter defaulted, or every dataclass field with a default. */
function buildsAlone(ev: Evaluator, c: ClassValue): boolean {
  if (ev.classes.needsArguments(c)) return false;
  if (ev.classes.method(c, '__init__')) return true;
  return [...ev.classes.dataclassFields(c)].every((f) => ev.classes.attribute(c, f, undefined) !== undefined);
}

/** Every expression the statements hold, nested ones too (not those of functions defined inside them). */
export function eachExpr(ev: Pick<SourceModel, 'expr'>, body: readonly Stmt[], visit: (e: Expr) => void): void {
  const walk = (e: Expr) => {
    visit(e);
    for (const c of children(e)) walk(c);
  };
  for (const s of body) {
    const { exprs, bodies } = partsOf(s);
    for (const ref of exprs) walk(ev.expr(ref));
    for (const inner of bodies) eachExpr(ev, inner, visit);
  }
}
