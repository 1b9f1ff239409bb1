/**
 * The configuration class a model's constructor takes when the class names none (Hugging Face's
 * `config_class` is runs.ts's configClass): the class its one required parameter is annotated with
 * (`params: ModelArgs`), else the one class of its file whose fields hold every field the constructor reads
 * of that parameter (nanoGPT's GPT reads `config.n_embd`, `config.n_head`, ...: GPTConfig's fields). Only a
 * class that builds with no arguments, every field with a default, configures a model: the model is then
 * counted with its defaults, `GPT(GPTConfig())`, as PyTorch would build it.
 */
import { children, type Expr, type Span } from '../ir/expr';
import { definitions } from '../ir/moduleNames';
import type { Scope, Stmt } from '../ir/source';
import type { Evaluator } from '../interp/evaluator';
import type { Value } from '../values/value';

type ClassValue = Extract<Value, { t: 'class' }>;

export interface ConfigParameter {
  readonly config: ClassValue;
  /** The constructor's parameter it is passed as. */
  readonly param: string;
  /** Whether that parameter is the first after `self`, so the configuration is passed by position. */
  readonly first: boolean;
}

export function configParameter(evaluator: Evaluator, cls: ClassValue): ConfigParameter | undefined {
  if (evaluator.language !== 'python') return undefined;
  const init = evaluator.classes.method(cls, '__init__');
  if (!init) return undefined;
  const owner = evaluator.of(init);
  const scope = owner.scopeAt(init.fragment, init.scope);
  const params = scope.params.slice(1);
  const required = params.filter((p) => !p.default && !p.variadic);
  if (required.length !== 1) return undefined;
  const [param] = required;
  const annotated =
    param.annotation && /^[\w.]+$/.test(param.annotation) ? valueOfName(owner, param.annotation) : undefined;
  const config = annotated?.t === 'class' ? annotated : byFields(owner, scope, param.name, cls);
  if (!config || !buildsAlone(evaluator.of(config), config)) return undefined;
  return { config, param: param.name, first: params[0] === param };
}

/** The value a dotted name has at module level of `ev`'s file (`GPTConfig`, `model_args.ModelArgs`). */
export function valueOfName(ev: Evaluator, dotted: string, span: Span = NOWHERE): Value {
  const [head, ...rest] = dotted.split('.');
  const e = rest.reduce<Expr>((object, id) => ({ k: 'attr', object, id, span }), { k: 'name', id: head, span });
  return ev.eval(e, ev.moduleFrame);
}

const NOWHERE: Span = { start: 0, end: 0, startLine: 0, startChar: 0, endLine: 0, endChar: 0 };

/** The one class of the constructor's file, other than the model, that has every field it reads of `param`. */
function byFields(ev: Evaluator, init: Scope, param: string, cls: ClassValue): ClassValue | undefined {
  const reads = new Set<string>();
  eachExpr(ev, init.body, (e) => {
    if (e.k === 'attr' && e.object.k === 'name' && e.object.id === param) reads.add(e.id);
  });
  if (!reads.size) return undefined;
  const found: ClassValue[] = [];
  for (const { fragment, scope } of definitions(ev.model, 'class')) {
    if (ev.file === cls.file && fragment === cls.fragment && scope === cls.scope) continue;
    const c = ev.names.definition(fragment, scope, undefined);
    if (c.t !== 'class' || ev.classes.isModuleClass(c)) continue;
    const fields = fieldsOf(ev, c);
    if ([...reads].every((r) => fields.has(r))) found.push(c);
  }
  return found.length === 1 ? found[0] : undefined;
}

/** A class's fields: its and its bases' annotated attributes (a dataclass's), and what their constructors set on `self`. */
function fieldsOf(ev: Evaluator, c: ClassValue): Set<string> {
  const fields = new Set<string>();
  for (const b of ev.classes.mro(c) ?? [c]) {
    if ('path' in b) continue;
    const owner = ev.of(b);
    const scope = owner.scopeAt(b.fragment, b.scope);
    for (const f of scope.fields) fields.add(f);
    const init = owner.classes.attribute(b, '__init__', undefined);
    if (init?.t !== 'function' || init.file !== b.file) continue;
    const initScope = owner.scopeAt(init.fragment, init.scope);
    const self = initScope.params[0]?.name;
    eachExpr(
      owner,
      initScope.body,
      () => undefined,
      (target) => {
        if (target.k === 'attr' && target.object.k === 'name' && target.object.id === self) fields.add(target.id);
      },
    );
  }
  return fields;
}

/** Whether `c()` builds a whole configuration: a constructor with every parameter defaulted, or every dataclass field with a default. */
function buildsAlone(ev: Evaluator, c: ClassValue): boolean {
  if (ev.classes.needsArguments(c)) return false;
  if (ev.classes.method(c, '__init__')) return true;
  for (const b of ev.classes.mro(c) ?? [c]) {
    if ('path' in b) continue;
    for (const f of ev.of(b).scopeAt(b.fragment, b.scope).fields)
      if (ev.classes.attribute(c, f, undefined) === undefined) return false;
  }
  return true;
}

/**
 * Every expression the statements hold, nested ones too (not those of functions defined inside them);
 * `target` is also given each assignment target.
 */
function eachExpr(
  ev: Evaluator,
  body: readonly Stmt[],
  visit: (e: Expr) => void,
  target: (e: Expr) => void = () => undefined,
): void {
  const walk = (e: Expr) => {
    visit(e);
    for (const c of children(e)) walk(c);
  };
  const ref = (r: { start: number; end: number } | undefined) => r && walk(ev.expr(r));
  for (const s of body) {
    switch (s.k) {
      case 'assign':
        for (const t of s.targets) {
          target(ev.expr(t));
          ref(t);
        }
        ref(s.value);
        break;
      case 'aug':
        target(ev.expr(s.target));
        ref(s.target);
        ref(s.value);
        break;
      case 'expr':
      case 'return':
      case 'raise':
        ref(s.value);
        break;
      case 'assert':
        ref(s.test);
        ref(s.message);
        break;
      case 'if':
        ref(s.test);
        ref(s.equals);
        eachExpr(ev, s.then, visit, target);
        eachExpr(ev, s.otherwise, visit, target);
        break;
      case 'for':
        ref(s.target);
        ref(s.iterable);
        eachExpr(ev, s.body, visit, target);
        eachExpr(ev, s.orelse, visit, target);
        break;
      case 'while':
        ref(s.test);
        eachExpr(ev, s.body, visit, target);
        eachExpr(ev, s.orelse, visit, target);
        break;
      case 'try':
        for (const part of [s.body, ...s.handlers, s.orelse, s.final]) eachExpr(ev, part, visit, target);
        break;
      case 'with':
        for (const item of s.items) {
          ref(item.value);
          ref(item.target);
        }
        eachExpr(ev, s.body, visit, target);
        break;
      default:
        break;
    }
  }
}
