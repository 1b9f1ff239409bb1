/**
 * The runs of a file besides its module body, and what their results come to: factories, Hugging Face
 * configurations, the parts of built models, functions no run reached; the total and the attention a class
 * shows when several runs build it.
 */
import type { Construction } from './cache';
import { definitions } from '../ir/moduleNames';
import type { Evaluator } from '../interp/evaluator';
import { figuresOf, perBuild } from '../attention/builds';
import type { LayerInstance } from '../values/layer';
import { emptyModule, summarize, type ModuleSummary, type ModuleTree } from '../values/modules';
import type { ModuleResult } from './results';
import type { SourceModel } from '../ir/source';
import { groupDigits, type Poly } from '../values/symbolic';
import type { DefRef, Value } from '../values/value';
import { sizing, type NodeFacts, type Sizing } from '../sizing/sizing';
import type { GradOf } from '../values/modules';
import { followActivations } from './followForward';
import { modelOf } from './documented';
import { configParameter, mayTakeConfiguration, requiredParams, valueOfName } from './configParameter';
import { deprecatedModels } from './timmDeprecations';

/**
 * The runs of a site's own code: its enclosing top-level class or function built or called with its own
 * defaults, or run with its parameters unknown. Every other context is a real caller.
 */
export function lexicalContexts(fragment: SourceModel['fragments'][number], scope: number): ReadonlySet<string> {
  let top = scope;
  while (top >= 0 && fragment.scopes[top].parent >= 0) top = fragment.scopes[top].parent;
  return new Set(['', ...(top >= 0 ? [`${fragment.scopes[top].name}()`] : [])]);
}

/** A class by the id of its statement, which an edit elsewhere leaves alone. */
export function classKey(model: SourceModel, fragment: number, scope: number): string {
  return `${model.fragments[fragment].id}:${scope}`;
}

/**
 * Whether a class's text has what attention is computed with: a class built with names is followed through
 * forward() only then. A prefilter: what the class does is still decided by following it.
 */
export function mayHoldAttention(text: string): boolean {
  return ATTENTION_WORDS.test(text);
}

/** One pass over a class's text, not one per word. */
const ATTENTION_WORDS = /softmax|Softmax|scaled_dot_product_attention|einsum|matmul|bmm| @ |_attention\(/;

/** Whether a forward() may compute attention: a softmax and a product, or PyTorch's fused attention. */
export function mayComputeAttention(text: string): boolean {
  return (
    /scaled_dot_product_attention/.test(text) || (/softmax|Softmax/.test(text) && /einsum|matmul|bmm| @ /.test(text))
  );
}

/**
 * The attention a class shows: with its defaults' total shown, the description of that build; else the one
 * every concrete build agrees on, else its description in names. A run that lost the sizes on the way
 * (a model's forward() through layers not followed) finds the core without its heads: it disagrees with none.
 */
export function shown(
  all: readonly LayerInstance[],
  total: Poly | undefined,
  crowded = false,
): LayerInstance | undefined {
  // Two paths to one core (sdpa or a softmax, as torch allows): the one that reached the output projection.
  const rank = (l: LayerInstance) =>
    4 * Number(!!l.attention?.output) + 2 * Number(!!l.attention?.heads.isConstant) + Number(!!l.attention?.headDim);
  const found = [...all].sort((a, b) => rank(b) - rank(a));
  // Builds with other heads (the defaults' 12, a model's 16) may have the same total: none stands for the others.
  const figured = found.filter((l) => l.params?.isConstant && l.attention?.heads.isConstant);
  // A run that lost the head size on the way (a model's forward() through sizes not followed) adds nothing
  // to a build of the same heads and weights that has it.
  const known = figured.filter(
    (l) =>
      l.attention!.headDim ||
      !figured.some(
        (m) => m.attention!.headDim && m.attention!.heads.equals(l.attention!.heads) && m.params!.equals(l.params!),
      ),
  );
  if (known.length && (crowded || known.some((l) => figuresOf(l) !== figuresOf(known[0]))))
    return perBuild(known, crowded);
  // TF.js keeps a subclass's dense layers out of its count: its attention's weights are not its total.
  const ofTotal = total?.isConstant ? found.find((l) => l.params?.equals(total)) : undefined;
  if (ofTotal || (total?.isConstant && found[0]?.framework !== 'tfjs')) return ofTotal;
  const concrete = known.length ? known : found.filter((l) => l.params?.isConstant);
  // T5's one class for self and cross attention: the same heads either way, shown as the self attention's.
  const first = concrete.find((l) => !l.attention?.cross) ?? concrete[0];
  if (first && concrete.every((l) => figuresOf(l) === figuresOf(first)))
    return concrete.every((l) => l.params!.equals(first.params!))
      ? first
      : shared([first, ...concrete.filter((l) => l !== first)]);
  // Builds whose totals are not known may still disagree on the heads (Swin's stages of 3, 6, 12 and 24 with
  // timm's helpers not followed): each is listed, as for builds with totals.
  const headed = found.filter((l) => l.attention?.heads.isConstant);
  const distinct = headed.filter(
    (l) =>
      l.attention!.headDim ||
      !headed.some((m) => m.attention!.headDim && m.attention!.heads.equals(l.attention!.heads)),
  );
  if (distinct.some((l) => figuresOf(l) !== figuresOf(distinct[0]))) return perBuild(distinct, crowded);
  return found.find((l) => !l.params?.isConstant);
}

/**
 * Builds that agree on the heads but not on every tensor (T5's relative bias table, in the first block of a
 * stack only): the tensors they all have, and no total.
 */
function shared(builds: readonly LayerInstance[]): LayerInstance {
  const [first, ...rest] = builds;
  const same = (a: LayerInstance['tensors'][number], b: LayerInstance['tensors'][number]) =>
    a.name === b.name &&
    a.shape.length === b.shape.length &&
    a.shape.every((d, i) => d && b.shape[i] && d.equals(b.shape[i]!));
  const totals = [...new Set(builds.map((l) => groupDigits(l.params!.constant!)))];
  return {
    ...first,
    tensors: first.tensors.filter((t) => rest.every((l) => l.tensors.some((u) => same(t, u)))),
    params: undefined,
    formula: '',
    unknownReason: `Its builds have different parameters (${totals.join(', ')}): no one total; the tensors listed are those every build has.`,
  };
}

/** A class's build in one context, with its total, and the expression that builds it so where there is one. */
export interface Built {
  readonly context: string;
  readonly summary: ModuleSummary;
  readonly expression?: string;
}

/** Each build of a class with its total, summed up once for all that read it. */
export function summarized(list: readonly Construction[] | undefined): Built[] | undefined {
  return list?.map((b) => ({ context: b.context, summary: b.summary ?? summarize(b.tree!), expression: b.expression }));
}

/**
 * The build every context agrees on (the same total), if there is one: a context whose total is not known
 * (a block of a loop that adds a layer this file cannot follow) may be another size, so there is none. A
 * Hugging Face class built with its own configuration's defaults (`own`) is that build, whatever other
 * classes build it with (ViTForImageClassification's ViTModel has no pooler).
 */
export function agreed(builds: readonly Built[] | undefined, own?: string): ModuleResult['built'] {
  const configured = own === undefined ? undefined : builds?.find((b) => b.context === own);
  if (configured) return configured.summary.params?.isConstant ? configured : undefined;
  const first = builds?.[0];
  if (
    !first?.summary.params?.isConstant ||
    !builds!.every((b) => b.summary.params?.isConstant && b.summary.params.equals(first.summary.params!))
  )
    return undefined;
  return first;
}

/**
 * The different totals the models shown build a class with (Swin's `Mlp`, built at each stage's width inside
 * `SwinTransformer()`), where every build is known and they differ, and the model they come from when one does.
 */
export function sizesOf(builds: readonly Built[] | undefined): ModuleResult['sizes'] {
  if (!builds?.length || !builds.every((b) => b.summary.params?.isConstant)) return undefined;
  const totals = [...new Set(builds.map((b) => b.summary.params!.constant!))];
  if (totals.length < 2) return undefined;
  const models = new Set(builds.map((b) => modelOf(b.context)));
  return { totals, context: models.size === 1 ? [...models][0] : `${models.size} models` };
}

/**
 * Each model that builds the class (the context a build starts from: `GPT (line 202)` for `GPT (line 202) via
 * Block ×12`) with one total, all its builds of the class agreeing, in the order first built.
 */
export function configurationsOf(builds: readonly Built[] | undefined, shown?: string): ModuleResult['configurations'] {
  const byModel = new Map<string, { params: Poly; expression?: string } | undefined>();
  for (const b of builds ?? []) {
    const model = modelOf(b.context);
    const params = b.summary.params;
    const seen = byModel.get(model);
    if (!byModel.has(model))
      byModel.set(model, params?.isConstant ? { params, expression: b.expression ?? calledAs(b.context) } : undefined);
    else if (seen && !(params?.isConstant && params.equals(seen.params))) byModel.set(model, undefined);
  }
  const active = shown === undefined ? undefined : modelOf(shown);
  const found = [...byModel].flatMap(([context, built]) =>
    built
      ? [
          {
            context,
            params: built.params,
            ...(built.expression === undefined ? {} : { expression: built.expression }),
            ...(context === active ? { active: true as const } : {}),
          },
        ]
      : [],
  );
  return found.length ? found : undefined;
}

/**
 * A context that is itself the call building the class (`BertModel(BertConfig())`): the expression where the
 * arguments could not be written out. Not a place (`GPT (line 202)`), nor a function that builds it, whose
 * value may be another model around it.
 */
function calledAs(context: string): string | undefined {
  return !context.includes(' via ') && context.endsWith('())') && !/ \((line|cell) /.test(context)
    ? context
    : undefined;
}

/**
 * Top-level functions whose parameters all have defaults, run as they are (`def vit_base(**kw): return
 * VisionTransformer(embed_dim=768, ..., **kw)`), then timm's deprecated names (timmDeprecations.ts): the
 * models they build are contexts of their layers. Each run goes through `each`, which may replay it from the
 * last version instead. Returns whether the work budget left some out.
 */
export function runFactories(
  evaluator: Evaluator,
  model: SourceModel,
  each: (key: string, run: () => void) => void,
): boolean {
  let left = false;
  for (const { fragment: fi, scope: si, name } of definitions(model, 'function')) {
    if (!model.fragments[fi].scopes[si].params.every((p) => p.default || p.variadic)) continue;
    if (evaluator.budget.exhausted) {
      left = true;
      continue;
    }
    each(`factory ${classKey(model, fi, si)}`, () => {
      const fn = evaluator.names.definition(fi, si, undefined);
      if (fn.t === 'function')
        evaluator.guard(() =>
          evaluator.inContext(`${name}()`, undefined, () =>
            returned(evaluator, evaluator.functions.callFunction(fn, [], new Map())),
          ),
        );
    });
  }
  const deprecated = evaluator.guard(() => deprecatedModels(evaluator, model)) ?? [];
  for (const { name, factory, tag } of deprecated) {
    if (evaluator.budget.exhausted) return true;
    each(`deprecated ${name}`, () =>
      evaluator.guard(() =>
        evaluator.inContext(`${name}()`, undefined, () =>
          returned(
            evaluator,
            evaluator.functions.callFunction(
              factory,
              [],
              new Map<string, Value>([
                ['pretrained', { t: 'bool', v: false }],
                ['pretrained_cfg', { t: 'str', v: tag }],
              ]),
            ),
          ),
        ),
      ),
    );
  }
  return left;
}

/** What a factory gave: a module is the model of its context. */
function returned(evaluator: Evaluator, value: Value): Value {
  if (value.t === 'module') evaluator.hooks.returned?.(value.tree);
  return value;
}

/**
 * A model built with a configuration: a Hugging Face model names its configuration class (`config_class =
 * BertConfig`), another takes one as its constructor's one required parameter (configParameter.ts). Built
 * with that configuration's defaults, it is a context of its own: `BertModel(BertConfig())`,
 * `GPT(GPTConfig())`. Returns that context by class. A class the file itself builds (`builtByFile`) shows
 * that build; a build that fails (a default PyTorch rejects: Llama's `vocab_size = -1`, set later from the
 * tokenizer) adds nothing (`tentative` keeps what a run adds only if it ends with a count).
 */
export function runConfigured(
  evaluator: Evaluator,
  model: SourceModel,
  each: (key: string, run: () => string | undefined) => string | undefined,
  builtByFile: (key: string) => boolean,
  tentative: <T>(work: () => T, keep: (result: T) => boolean) => T,
): Map<string, string> {
  const contexts = new Map<string, string>();
  for (const { fragment: fi, scope: si, name } of definitions(model, 'class')) {
    if (evaluator.budget.exhausted) break;
    const key = classKey(model, fi, si);
    if (builtByFile(key) || !mayTakeConfiguration(model, fi, si)) continue;
    const context = each(`configured ${key}`, () => {
      const cls = evaluator.names.definition(fi, si, undefined);
      if (cls.t !== 'class') return undefined;
      if (!evaluator.guard(() => evaluator.classes.needsArguments(cls))) return undefined;
      const taken = configurationTaken(evaluator, cls);
      if (!taken) return undefined;
      const { config, param, first } = taken;
      const label = first ? `${name}(${config.name}())` : `${name}(${param}=${config.name}())`;
      const built = tentative(
        () =>
          evaluator.guard(() => {
            const defaults = evaluator
              .of(config)
              .classes.instantiate(config, { positional: [], keywords: new Map() }, undefined);
            const passed = { value: defaults };
            return evaluator.classes.instantiate(
              cls,
              param === undefined
                ? { positional: [passed], keywords: new Map() }
                : { positional: [], keywords: new Map([[param, passed]]) },
              undefined,
              label,
            );
          }),
        hasTotal,
      );
      if (built?.t !== 'module' || !hasTotal(built)) return undefined;
      followParts(evaluator, built.tree);
      return label;
    });
    if (context) contexts.set(key, context);
  }
  return contexts;
}

/**
 * The configuration class a model class takes: the one a Hugging Face model names (`config_class`), else
 * its constructor's one required parameter's (configParameter.ts), with that parameter's name unless it is
 * the first. `needsDefaults`: only a configuration class that builds with no arguments.
 */
export function configurationTaken(
  evaluator: Evaluator,
  cls: Extract<Value, { t: 'class' }>,
  needsDefaults = true,
): { config: Extract<Value, { t: 'class' }>; param: string | undefined; first: boolean } | undefined {
  const named = evaluator.guard(() => configClass(evaluator, cls));
  return named?.t === 'class'
    ? { config: named, param: undefined, first: true }
    : evaluator.guard(() => configParameter(evaluator, cls, undefined, needsDefaults));
}

/** Whether a run built a model with a known total: what a tentative run is kept for. */
export function hasTotal(v: Value | undefined): boolean {
  return v?.t === 'module' && summarize(v.tree).params?.isConstant === true;
}

/**
 * Whether a statement names a configuration class (`config_class = …`, the annotation `config: BertConfig`)
 * or defines a class whose constructor needs one argument, which may be a configuration: a prefilter for
 * runConfigured. Each statement is read once while it stays the same: `last` holds the last
 * version's answers by statement id, `seen` this version's.
 */
export function namesConfig(
  model: SourceModel,
  last: ReadonlyMap<number, boolean> | undefined,
): { found: boolean; seen: Map<number, boolean> } {
  const seen = new Map<number, boolean>();
  const found = model.fragments.some(({ id, span, scopes }) => {
    let names = last?.get(id);
    if (names === undefined) {
      // A class whose constructor takes one argument it needs may take a configuration.
      names = scopes.some(
        (init) =>
          init.name === '__init__' &&
          init.parent >= 0 &&
          scopes[init.parent].kind === 'class' &&
          requiredParams(init).length === 1,
      );
      names ||= CONFIG_NAMED.test(model.text(span));
    }
    seen.set(id, names);
    return names;
  });
  return { found, seen };
}

/**
 * `config_class = ...`, or a line that is an annotation `config: BertConfig` alone, as a class body has it (a
 * parameter `config: GPTConfig` has its function's line or a comma with it): a prefilter for configClass.
 */
const CONFIG_NAMED = /config_class|^[^\S\n]+config[^\S\n]*:[^\S\n]*[\w.]+[^\S\n]*(#[^\n]*)?$/m;

/**
 * The configuration class a Hugging Face model names: `config_class = BertConfig`, or, as transformers 4.5x
 * writes it, the annotation `config: BertConfig` in the class or a base.
 */
function configClass(evaluator: Evaluator, cls: DefRef): Value | undefined {
  // transformers' own PreTrainedModel says `config_class = None`, and takes the annotation of a subclass instead.
  const named = evaluator.classes.attribute(cls, 'config_class', undefined);
  if (named && named.t !== 'none') return named;
  for (const base of evaluator.classes.mro(cls) ?? []) {
    if ('path' in base) continue;
    const owner = evaluator.of(base);
    for (const s of owner.scopeAt(base.fragment, base.scope).body) {
      if (s.k !== 'assign' || s.value || !s.annotation || s.targets.length !== 1 || !/^[\w.]+$/.test(s.annotation))
        continue;
      const target = owner.expr(s.targets[0]);
      if (target.k !== 'name' || target.id !== 'config') continue;
      const value = valueOfName(owner, s.annotation, target.span);
      return value.t === 'class' ? value : undefined;
    }
  }
  return undefined;
}

/**
 * Each class of a model, once, followed through its own forward() quietly: a configured model's attention
 * shows its heads (a model file's top class often has no forward() that reaches them).
 */
export function followParts(
  evaluator: Evaluator,
  root: ModuleTree,
  wanted: (cls: DefRef, tree: ModuleTree) => boolean = () => true,
): void {
  const classes = new Set<string>();
  const visited = new Set<ModuleTree>();
  const visit = (tree: ModuleTree) => {
    if (visited.has(tree) || evaluator.budget.exhausted) return;
    visited.add(tree);
    const value = evaluator.torch.asValue(tree);
    if (value.t === 'module' && value.cls && !classes.has(value.cls.name) && wanted(value.cls, tree)) {
      classes.add(value.cls.name);
      evaluator.quietly(() => evaluator.flows.followForward(value));
    }
    for (const child of tree.children.values()) visit(child);
  };
  visit(root);
}

/**
 * Functions (and methods) holding a layer no run reached: run once with their parameters unknown, a method
 * on its class built with its defaults. Each run goes through `each`, with the key of that class, which may
 * replay it from the last version instead.
 */
export function runUnreached(
  evaluator: Evaluator,
  model: SourceModel,
  defaults: (fragment: number, scope: number) => Value | undefined,
  each: (key: string, owner: string | undefined, run: () => void) => void,
): void {
  model.fragments.forEach((fragment, fi) => {
    // Most statements have no such call: nothing is allocated for them.
    let pending: Set<number> | undefined;
    for (const c of fragment.calls)
      if (c.scope >= 0 && !evaluator.reached.has(c.span.start)) (pending ??= new Set()).add(c.scope);
    if (!pending) return;
    const done = new Set<number>();
    for (const si of pending) {
      if (evaluator.budget.exhausted) return;
      // The outermost function holding the site: nested functions run when it defines and calls them.
      let top = si;
      while (fragment.scopes[top].parent >= 0 && fragment.scopes[fragment.scopes[top].parent].kind === 'function')
        top = fragment.scopes[top].parent;
      const scope = fragment.scopes[top];
      if (scope.kind !== 'function' || done.has(top)) continue;
      done.add(top);
      const owner = scope.parent >= 0 && fragment.scopes[scope.parent].kind === 'class' ? scope.parent : undefined;
      each(
        `unreached ${classKey(model, fi, top)}`,
        owner === undefined ? undefined : classKey(model, fi, owner),
        () => {
          const self: Value | undefined =
            owner === undefined
              ? undefined
              : (defaults(fi, owner) ?? {
                  t: 'module',
                  tree: emptyModule(fragment.scopes[owner].name),
                  fields: new Map(),
                });
          const fn = evaluator.names.definition(fi, top, undefined);
          if (fn.t !== 'function') return;
          // Its parameters are names: what it builds is recorded, but a shape it meets proves no error.
          evaluator.shared.paramsAsNames = scope;
          evaluator.quietly(() => evaluator.guard(() => evaluator.functions.callFunction(fn, [], new Map(), self)));
          evaluator.shared.paramsAsNames = undefined;
        },
      );
    }
  });
}

export function unknownSummary(name: string): ModuleSummary {
  return {
    params: undefined,
    reason: `${name} could not be built within Attention Lens's work budget`,
    children: [],
    tied: [],
  };
}

/** A model's sizing: its module tree with what the runs found in its parts, and the activations of its forward(). */
export function sizeModel(
  evaluator: Evaluator,
  model: Extract<Value, { t: 'module' }>,
  attention: NodeFacts['attention'],
): Sizing {
  const grad: GradOf = (p) => evaluator.shared.grad.get(String(p.id)) ?? 'trainable';
  // The catalog layer a part is: a layer, or a subclass of one.
  const layer = (node: ModuleTree) => {
    const v = evaluator.torch.asValue(node);
    return v.t === 'layer' ? v.layer : v.t === 'module' ? v.layer?.layer : undefined;
  };
  return sizing(model.tree, { attention, layer, grad }, followActivations(evaluator, model, grad));
}
