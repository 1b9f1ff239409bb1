/**
 * analyze(SourceModel) -> Analysis: every layer definition with its count, tensors and findings. Plain
 * data, computed once per document version and read by every surface (hover, CodeLens, diagnostics, CLI).
 */
import { layerSpec } from './catalog';
import { instantiate } from './catalog/instantiate';
import { siteResult } from './siteResults';
import { InstanceBuilds } from './instanceResults';
import { describe, moduleParts } from './attention/recognise';
import { fieldParts } from './attention/fieldParts';
import type { Span } from './expr';
import { summarize, type ModuleSummary, type ModuleTree } from './modules';
import { Evaluator } from './evaluate';
import { newShared, type Hooks } from './interp/hooks';
import type { AnalysisCache, SiteRecord, SiteShown } from './analysisCache';
import { Replays } from './replays';
import { LIMITS } from './interp/budget';
import { StatementReplays } from './interp/statementReplays';
import { definitions, keepModuleNames, moduleNames } from './moduleNames';
import { Collected } from './collected';
import type { Finding, LayerInstance } from './layer';
import type { Analysis, LayerResult, ModuleResult } from './results';
import { partResults } from './partResults';
import {
  agreed,
  classKey,
  followParts,
  lexicalContexts,
  mayComputeAttention,
  mayHoldAttention,
  namesConfig,
  runConfigured,
  runFactories,
  runUnreached,
  shown,
  sizeModel,
  unknownSummary,
} from './runs';
import { LINE_NUMBER, type ImportResolver, type SourceModel } from './source';
import type { DefRef, Shape, Value } from './value';

export { attentionLayers } from './results';
export type { Analysis, InstanceResult, LayerResult, ModuleResult, PartResult, SiteValue, SizeHint } from './results';

/**
 * Runs the interpreter over the file: its module body (instances built there, `if __name__ == "__main__"`),
 * then each model class built with its defaults, then every function holding a layer no run reached, with
 * its parameters unknown. Every layer construction is recorded with the context that built it.
 */
export function analyze(model: SourceModel, resolver?: ImportResolver, cache?: AnalysisCache): Analysis {
  const lineName = model.lineName ?? LINE_NUMBER;
  const instances = new InstanceBuilds();
  const shared = newShared();
  const out = new Collected();
  const context = () => shared.paths[shared.paths.length - 1] ?? '';
  /** The attention each module of a run computes, by its tree, for the KV cache of the model holding it. */
  const attentionByTree = new WeakMap<ModuleTree, LayerInstance>();
  /** Subclasses of catalog layers whose sites show the layer they are. */
  const shownAsLayer = new WeakSet<object>();
  /** Set while a class is built with its defaults. */
  let buildingDefaults = false;
  /** Set while a run has parameters without values (a class that needs arguments built alone, a function run with unknowns). */
  let symbolic = false;
  const hooks: Hooks = {
    layer(path, call, bound, site) {
      const spec = layerSpec(path);
      // Following forward() for its activations builds nothing the file shows.
      if (!spec || shared.tape) return undefined;
      const built = instantiate(spec, bound, call.span, []);
      const entry: SiteRecord = { layer: built.layer, findings: built.findings, context: context(), symbolic };
      if (site && !spec.weightless) out.record(call.span.start, entry);
      // This object's own: a helper run twice builds two layers at one site, each for its own input.
      let builtFor: readonly Shape[] | undefined;
      const applied = (shapes: readonly Shape[], builds = true) => {
        const again = instantiate(spec, bound, call.span, shapes);
        // TF.js builds a layer's weights on its first call; the site shows that build.
        if (builds && !builtFor) {
          builtFor = shapes;
          if (site) {
            entry.layer = again.layer;
            entry.findings = again.findings;
          }
        }
        return again.layer;
      };
      return { t: 'layer', layer: built.layer, span: call.span, applied };
    },
    report: (f) => out.flow(f),
    recorded: () => out.made.length,
    varied(since) {
      if (shared.tape) return;
      for (const r of out.made.slice(since)) r.varies = true;
    },
    instance(cls, call, value) {
      if (value.t !== 'module') return;
      if (!instances.has(call.span)) built.push(value);
      instances.add({ className: cls.name, span: call.span, tree: () => value.tree, value, symbolic });
    },
    part(cls, call, value) {
      // A subclass of a catalog layer that holds only the layer is a layer site of its own.
      if (value.t === 'module' && !(value.layer && shownAsLayer.has(value.layer)) && !shared.tape)
        out.part({ className: cls.name, span: call.span, context: context(), symbolic, tree: value.tree });
    },
    model(call, className, tree) {
      instances.add({ className, span: call.span, tree, symbolic });
    },
    built(call, layer) {
      if (shared.tape) return;
      shownAsLayer.add(layer);
      out.record(call.span.start, { layer: layer.layer, findings: [], context: context(), symbolic });
    },
    raised(span, exception, message) {
      // A class built alone (with its defaults, or names for its arguments) is no model the file builds:
      // its total says it raises, but no diagnostic is raised for a model nobody builds that way.
      if (symbolic || buildingDefaults) return;
      // Reported where the model is built (a module-level call) when there is such a place, else at the raise.
      const site = shared.sites[0];
      const where = shared.contexts.slice(1).join(' via ');
      const key = `${(site ?? span).start}:constructor-raises`;
      const found: Finding = {
        code: 'constructor-raises',
        severity: 'error',
        span: site ?? span,
        fixes: [],
        message:
          model.language === 'python'
            ? `Building ${shared.contexts[0]} raises ${exception}${message ? `: "${message}"` : ''} (${lineName(span.startLine)}${where ? `, in ${where}` : ''}): PyTorch would not build this model.`
            : `Building ${shared.contexts[0]} throws ${exception}${message ? `: "${message}"` : ''} (${lineName(span.startLine)}${where ? `, in ${where}` : ''}): the model is never built.`,
        related: site ? [{ span, message: `${exception} raised here` }] : undefined,
      };
      if (!out.flows.has(key)) out.flow(found);
    },
    attention(module, found) {
      const cls = module.cls;
      if (!cls || cls.file !== evaluator.file) return;
      const parts = evaluator.tfjsLayers.is(cls)
        ? fieldParts(module.fields, (l) => evaluator.flows.tfjs.built(l))
        : moduleParts(module.tree, (l) => evaluator.torch.pathIn(module.tree, l));
      const layer = describe(cls.name, found, parts);
      if (!layer) return;
      out.attention(classKey(model, cls.fragment, cls.scope), found.core, layer);
      if (!attentionByTree.get(module.tree)?.attention?.output || found.output) attentionByTree.set(module.tree, layer);
    },
    constructed(cls, value) {
      // The class built with its own defaults is the module result itself, not a context of it; a class
      // built with names for its arguments gives no total a part of it could take.
      if (
        value.t !== 'module' ||
        cls.file !== evaluator.file ||
        symbolic ||
        shared.tape ||
        (buildingDefaults && shared.contexts.length === 1)
      )
        return;
      // Its tree, not its total yet: the model building it may still add to it (a projector made on the
      // first call of forward() inside the model's own constructor).
      out.construction(classKey(model, cls.fragment, cls.scope), { tree: value.tree, context: context() });
    },
  };
  /** The models built at module level, whose forward() is followed too. */
  const built: Value[] = [];
  /**
   * A class built with names for its arguments: its forward() is followed for the attention it holds only;
   * sizes that are names give no hint and no error.
   */
  const followQuietly = (value: Value) => {
    symbolic = true;
    try {
      evaluator.quietly(() => evaluator.flows.followForward(value));
    } finally {
      symbolic = false;
    }
  };
  const evaluator = new Evaluator(model, hooks, resolver, shared);
  keepModuleNames(model, evaluator.names.fragmentIds, cache?.names);
  if (cache) cache.names = { ids: evaluator.names.fragmentIds, names: moduleNames(model) };
  // A document's first analysis records no statement: most files opened are read, not edited. Its first
  // edit records them, for the keys typed after it.
  const statements =
    cache?.statements && model.language === 'python'
      ? new StatementReplays(evaluator, cache.statements, resolver)
      : undefined;
  evaluator.runModule(statements);
  if (cache) cache.statements = statements?.kept ?? new Map();
  const replays = new Replays(model, cache, evaluator, out, resolver);
  const defaults = new Map<string, Value>();
  /** Builds a model class with its defaults and follows its forward(); its total is taken before that. */
  const buildDefaults = (
    cls: DefRef,
    key: string,
    extent: Span,
  ): { value: Value; total: ModuleSummary } | undefined => {
    buildingDefaults = true;
    const needsArguments = evaluator.guard(() => evaluator.classes.needsArguments(cls)) ?? true;
    symbolic = needsArguments;
    shared.paramsAsNames = needsArguments ? evaluator.guard(() => evaluator.classes.constructorScope(cls)) : undefined;
    const value = shared.budget.exhausted
      ? undefined
      : evaluator.guard(() => evaluator.classes.instantiate(cls, { positional: [], keywords: new Map() }, undefined));
    buildingDefaults = false;
    symbolic = false;
    shared.paramsAsNames = undefined;
    if (value?.t !== 'module') return undefined;
    defaults.set(key, value);
    const total = summarize(value.tree);
    // Built with names for its arguments, its forward() carries sizes that are names too: no hint and
    // no mismatch can come of it; the models the file builds are followed instead.
    if (!needsArguments) for (const size of evaluator.flows.followForward(value)) out.hint(size.at.span, size.features);
    else if (mayHoldAttention(model.text(extent))) followQuietly(value);
    return { value, total };
  };
  const classes: { key: string; result: ModuleResult }[] = [];
  for (const { fragment: fi, scope: si } of definitions(model, 'class')) {
    const scope = model.fragments[fi].scopes[si];
    const key = classKey(model, fi, si);
    const result = (summary: ModuleSummary) => ({
      key,
      result: { name: scope.name, span: scope.nameSpan, extent: scope.extent, summary },
    });
    const cached = replays.replay(key);
    if (cached) {
      if (cached.summary) classes.push(result(cached.summary));
      continue;
    }
    const cls = evaluator.names.definition(fi, si, undefined);
    if (cls.t !== 'class') continue;
    // Whether it is a model is read inside the run: its bases are what the run depends on first.
    let isModel = true;
    const summary = replays.recorded(
      key,
      () => {
        isModel = evaluator.guard(() => evaluator.classes.isModuleClass(cls)) ?? false;
        return isModel ? buildDefaults(cls, key, scope.extent)?.total : undefined;
      },
      // A class that is no model is kept as such; a model whose build did not end is built again.
      () => !isModel,
    );
    if (isModel) classes.push(result(summary ?? unknownSummary(scope.name)));
  }
  for (const value of built)
    for (const size of evaluator.flows.followForward(value)) out.hint(size.at.span, size.features);
  // The attention of a model's parts that its forward() did not reach with sizes (whisper's encoder stops
  // before its blocks), each part followed alone: only parts of this file that look like attention.
  const unseen = (cls: DefRef, tree: ModuleTree) =>
    cls.file === evaluator.file &&
    !attentionByTree.has(tree) &&
    mayHoldAttention(model.text(model.fragments[cls.fragment].scopes[cls.scope].extent));
  for (const value of built) if (value.t === 'module') followParts(evaluator, value.tree, unseen);
  const hints = out.hints();
  runFactories(evaluator, model, (key, run) => replays.run(key, run));
  const config = namesConfig(model, cache?.configNames);
  if (cache) cache.configNames = config.seen;
  const configured = config.found
    ? runConfigured(evaluator, model, (key, run) => replays.valued(key, run))
    : new Map<string, string>();
  const modules: ModuleResult[] = classes.map(({ key, result }) => {
    const attentions = out.attentions.get(key);
    const attention = attentions
      ? shown([...attentions.values()], result.summary.params, out.crowded.has(key))
      : undefined;
    return result.summary.params?.isConstant
      ? { ...result, attention }
      : { ...result, attention, built: agreed(out.constructions.get(key), configured.get(key)) };
  });
  // A method no run reached runs on its class built with its defaults: replayed while that build is, else
  // run again, on the build of this version (built again, adding nothing twice, when it was replayed).
  const selfOf = (fi: number, si: number): Value | undefined => {
    const key = classKey(model, fi, si);
    const known = defaults.get(key);
    // A class replayed without a total is no model: a fresh analysis does not build it either.
    if (known || !replays.replayed.get(key)?.summary) return known;
    const cls = evaluator.names.definition(fi, si, undefined);
    if (cls.t !== 'class') return undefined;
    const state = { symbolic, paramsAsNames: shared.paramsAsNames };
    try {
      return out.muted(() => buildDefaults(cls, key, model.fragments[fi].scopes[si].extent))?.value;
    } finally {
      symbolic = state.symbolic;
      shared.paramsAsNames = state.paramsAsNames;
    }
  };
  symbolic = true;
  runUnreached(evaluator, model, selfOf, (key, owner, run) =>
    replays.run(key, run, owner === undefined || replays.replayed.has(owner)),
  );
  symbolic = false;
  replays.forgetOthers();
  const attentionAt = (node: ModuleTree): LayerInstance | 'unknown' | undefined => {
    const value = evaluator.torch.asValue(node);
    const own = attentionByTree.get(node) ?? (value.t === 'layer' && value.layer.attention ? value.layer : undefined);
    if (own) return own;
    // An instance of a class seen computing attention elsewhere, not followed here: its sizes are not known.
    const cls = value.t === 'module' ? value.cls : undefined;
    if (!cls) return undefined;
    if (cls.file === evaluator.file && out.attentions.has(classKey(model, cls.fragment, cls.scope))) return 'unknown';
    // A forward() that multiplies by a softmax not recognised as attention (DeepViT's re-attention): whether
    // it is one, and what it keeps, are not known; 0 attention layers would be a wrong figure.
    const forward = evaluator.guard(() => evaluator.classes.method(cls, 'forward'));
    const owner = forward ? evaluator.of(forward) : evaluator;
    return forward && mayComputeAttention(owner.model.text(owner.scopeAt(forward.fragment, forward.scope).extent))
      ? 'unknown'
      : undefined;
  };
  // Trees are read once every run is over: `model.add` and a TF.js layer's first apply() may still extend them.
  const instanceResults = instances
    .results()
    .map(({ result, value }) =>
      value?.t === 'module' && result.summary.params?.isConstant
        ? { ...result, sizing: sizeModel(evaluator, value, attentionAt) }
        : result,
    );
  const layers: LayerResult[] = [];
  const findings: Finding[] = [];
  const sites = new Map<number, SiteShown[]>();
  for (const fragment of model.fragments) {
    const { calls } = fragment;
    if (!calls.length) continue;
    const before = cache?.sites.get(fragment.id);
    let shown: SiteShown[] | undefined;
    for (let index = 0; index < calls.length; index++) {
      const site = calls[index];
      const list = out.records.get(site.span.start);
      if (!list?.length) continue;
      // Taken once: `dense(...).apply(x)` is two calls from one offset, and one layer.
      out.records.delete(site.span.start);
      const last = before?.[index];
      const same =
        last !== undefined && last.records.length === list.length && last.records.every((r, i) => r === list[i]);
      const result = !same
        ? siteResult(site.span, list, lexicalContexts(fragment, site.scope))
        : last.result.span === site.span
          ? last.result
          : { ...last.result, span: site.span };
      (shown ??= [])[index] = last && result === last.result ? last : { records: list, result };
      layers.push(result);
      if (result.findings.length) findings.push(...result.findings);
    }
    if (shown) sites.set(fragment.id, shown);
  }
  if (cache) cache.sites = sites;
  const flows = [...out.flows.values()].filter(
    (f) => !findings.some((g) => g.span.start === f.span.start && g.code === f.code),
  );
  for (const stop of evaluator.stops)
    if (!flows.some((f) => f.code === 'analysis-truncated' && f.span.start === stop.span.start))
      flows.push(truncated(stop.span, stop.what));
  const silenced = (f: Finding) =>
    model.ignores?.has(f.span.startLine) && (model.ignores.get(f.span.startLine)?.has(f.code) ?? true);
  return {
    language: model.language,
    layers,
    findings: [...findings, ...flows].filter((f) => !silenced(f)).sort((a, b) => a.span.start - b.span.start),
    modules,
    instances: instanceResults,
    parts: partResults(out.parts),
    hints,
  };
}

/** Where the analysis ran out of its work budget: what comes after is not shown, which must not read as nothing. */
function truncated(span: Span, what: string): Finding {
  const steps = what === 'steps for the file' ? LIMITS.steps : LIMITS.entrySteps;
  const budget = what.startsWith('steps')
    ? `its work budget (${steps.toLocaleString('en-US')} ${what})`
    : `its work budget (${what})`;
  return {
    code: 'analysis-truncated',
    severity: 'info',
    span,
    fixes: [],
    message: `Attention Lens stopped following this near here: ${budget} ran out. Layers, totals and checks past this point are not shown; what is missing is not known, not zero.`,
  };
}
