/**
 * analyze(SourceModel) -> Analysis: every layer definition with its count, tensors and findings. Plain
 * data, computed once per document version and read by every surface (hover, CodeLens, diagnostics, CLI).
 */
import { layerSpec } from './catalog';
import { instantiate } from './catalog/instantiate';
import { siteResult } from './siteResults';
import { describe } from './attention/recognise';
import type { Core } from './attention/trace';
import type { Span } from './expr';
import { summarize, type ModuleSummary, type ModuleTree } from './modules';
import { Evaluator } from './evaluate';
import { newShared, type Hooks, type Reads } from './interp/hooks';
import type { AnalysisCache, BuildOutputs, CachedBuild, Construction, PartRecord, SiteRecord } from './analysisCache';
import type { Finding, LayerInstance } from './layer';
import type { Analysis, InstanceResult, LayerResult, ModuleResult, SizeHint } from './results';
import { partResults } from './partResults';
import { agreed, classKey, followParts, lexicalContexts, mayHoldAttention, runConfigured, runFactories, runUnreached, shown, sizeModel, unknownSummary } from './runs';
import type { ImportResolver, SourceModel } from './source';
import type { Poly } from './symbolic';
import type { DefRef, Shape, Value } from './value';

export { attentionLayers } from './results';
export type { Analysis, InstanceResult, LayerResult, ModuleResult, PartResult, SiteValue, SizeHint } from './results';

/**
 * Runs the interpreter over the file: its module body (instances built there, `if __name__ == "__main__"`),
 * then each model class built with its defaults, then every function holding a layer no run reached, with
 * its parameters unknown. Every layer construction is recorded with the context that built it.
 */
export function analyze(model: SourceModel, resolver?: ImportResolver, cache?: AnalysisCache): Analysis {
  const records = new Map<number, SiteRecord[]>();
  /** The shapes each layer (by the offset of its construction) is first applied to. */
  const inputs = new Map<number, readonly Shape[]>();
  const flowFindings = new Map<string, Finding>();
  const instances = new Map<number, InstanceResult>();
  const instanceValues = new WeakMap<InstanceResult, Value>();
  /** Each class of the file as the runs built it: class -> totals with their contexts. */
  const constructions = new Map<string, Construction[]>();
  const sizes = new Map<number, SizeHint | undefined>();
  /** The outputs of the class build running now, kept for the next version of the document. */
  let capture: { -readonly [K in keyof BuildOutputs]: BuildOutputs[K] } | undefined;
  const shared = newShared();
  /** Every record in the order it was made, for the loops whose passes differ. */
  const made: SiteRecord[] = [];
  const record = (start: number, r: SiteRecord) => {
    const list = records.get(start) ?? [];
    list.push(r);
    made.push(r);
    records.set(start, list);
    capture?.records.push([start, r]);
  };
  /** The model classes built inside other code, by the offset of the call that builds them. */
  const parts = new Map<number, PartRecord[]>();
  const part = (r: PartRecord) => {
    const list = parts.get(r.span.start) ?? [];
    // Up to 64 builds of a part; one more leaves its total unknown (a loop of parts of many sizes).
    if (list.length < 64) list.push(r);
    else if (list.length === 64) list.push({ ...r, tree: undefined, summary: { params: undefined, reason: 'built more times here than are followed', children: [], tied: [] } });
    parts.set(r.span.start, list);
    capture?.parts.push(r);
  };
  const flow = (f: Finding) => {
    flowFindings.set(`${f.span.start}:${f.code}`, f);
    capture?.flows.push(f);
  };
  const construction = (key: string, entry: Construction) => {
    const list = constructions.get(key) ?? [];
    // Up to 64 builds of a class; one more leaves its total unknown (a loop of blocks of many sizes).
    list.push(list.length < 64 ? entry : { context: entry.context, summary: { params: undefined, children: [], tied: [] } });
    if (list.length <= 65) constructions.set(key, list);
    capture?.constructions.push([key, entry]);
  };
  const hint = (span: Span, features: Poly) => {
    const known = sizes.get(span.start);
    // A step that gets different sizes in different models shows none.
    sizes.set(span.start, sizes.has(span.start) && !known?.features.equals(features) ? undefined : { span, features });
    capture?.hints.push({ span, features });
  };
  const context = () => shared.contexts.join(' via ');
  /** Attention written by hand, by class: the latest description of each core (its output projection comes later). */
  const attentions = new Map<string, Map<Core | number, LayerInstance>>();
  /** The attention each module of a run computes, by its tree, for the KV cache of the model holding it. */
  const attentionByTree = new WeakMap<ModuleTree, LayerInstance>();
  const attention = (key: string, core: Core | number, layer: LayerInstance) => {
    const list = attentions.get(key) ?? new Map<Core | number, LayerInstance>();
    if (list.size < 8 || list.has(core)) list.set(core, layer);
    attentions.set(key, list);
    if (capture && typeof core !== 'number') capture.attentions.push([key, layer]);
  };
  /** Set while a class is built with its defaults. */
  let buildingDefaults = false;
  /** Set while a run has parameters without values (a class that needs arguments built alone, a function run with unknowns). */
  let symbolic = false;
  const hooks: Hooks = {
    layer(path, call, bound, site) {
      const spec = layerSpec(path);
      // Following forward() for its activations builds nothing the file shows.
      if (!spec || shared.tape) return undefined;
      const built = instantiate(spec, bound, call.span, inputs.get(call.span.start) ?? []);
      const entry: SiteRecord = { layer: built.layer, findings: built.findings, context: context(), symbolic };
      if (site && !spec.weightless) record(call.span.start, entry);
      const applied = (shapes: readonly Shape[], builds = true) => {
        const again = instantiate(spec, bound, call.span, shapes);
        // TF.js builds a layer's weights on its first call; the site shows that build.
        if (builds && !inputs.has(call.span.start)) {
          inputs.set(call.span.start, shapes);
          if (site) {
            entry.layer = again.layer;
            entry.findings = again.findings;
          }
        }
        return again.layer;
      };
      return { t: 'layer', layer: built.layer, span: call.span, applied };
    },
    report: flow,
    recorded: () => made.length,
    varied(since) {
      if (shared.tape) return;
      for (const r of made.slice(since)) r.varies = true;
    },
    instance(cls, call, value) {
      if (value.t !== 'module' || instances.has(call.span.start)) return;
      const result = { className: cls.name, span: call.span, summary: summarize(value.tree) };
      instanceValues.set(result, value);
      instances.set(call.span.start, result);
      built.push(value);
    },
    part(cls, call, value) {
      // A subclass of a catalog layer is a layer site of its own.
      if (value.t === 'module' && !value.layer && !shared.tape) part({ className: cls.name, span: call.span, context: context(), symbolic, tree: value.tree });
    },
    model(call, className, tree) {
      if (!models.has(call.span.start)) models.set(call.span.start, { className, span: call.span, tree });
    },
    built(call, layer) {
      if (shared.tape) return;
      record(call.span.start, { layer: layer.layer, findings: [], context: context(), symbolic });
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
        message: model.language === 'python'
          ? `Building ${shared.contexts[0]} raises ${exception}${message ? `: "${message}"` : ''} (line ${span.startLine + 1}${where ? `, in ${where}` : ''}): PyTorch would not build this model.`
          : `Building ${shared.contexts[0]} throws ${exception}${message ? `: "${message}"` : ''} (line ${span.startLine + 1}${where ? `, in ${where}` : ''}): the model is never built.`,
        related: site ? [{ span, message: `${exception} raised here` }] : undefined,
      };
      if (!flowFindings.has(key)) flow(found);
    },
    attention(module, found) {
      const cls = module.cls;
      if (!cls || cls.owner !== evaluator) return;
      const layer = describe(cls.name, module.tree, found, (l) => evaluator.torch.pathIn(module.tree, l));
      if (!layer) return;
      attention(classKey(model, cls.fragment, cls.scope), found.core, layer);
      if (!attentionByTree.get(module.tree)?.attention?.output || found.output) attentionByTree.set(module.tree, layer);
    },
    constructed(cls, value) {
      // The class built with its own defaults is the module result itself, not a context of it; a class
      // built with names for its arguments gives no total a part of it could take.
      if (value.t !== 'module' || cls.owner !== evaluator || symbolic || shared.tape || (buildingDefaults && shared.contexts.length === 1)) return;
      // Its tree, not its total yet: the model building it may still add to it (a projector made on the
      // first call of forward() inside the model's own constructor).
      construction(classKey(model, cls.fragment, cls.scope), { tree: value.tree, context: context() });
    },
  };
  /** TF.js models by the call that builds them: their trees are read once every run is over. */
  const models = new Map<number, { className: string; span: Span; tree: () => ModuleTree }>();
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
  evaluator.runModule();
  // Python class builds are kept between versions; TypeScript's sizes flow between statements, so it runs whole.
  const keep = model.language === 'python' ? cache : undefined;
  const moduleCode = model.fragments.filter((f) => f.imports.length || f.body.some((s) => s.k !== 'def')).map((f) => f.id).join(',');
  if (keep && keep.moduleCode !== moduleCode) {
    keep.clear();
    keep.moduleCode = moduleCode;
  }
  const ids = new Set(model.fragments.map((f) => f.id));
  const valid = (c: CachedBuild) =>
    [...c.reads.fragments].every((id) => ids.has(id)) &&
    [...c.reads.names].every(([name, id]) => evaluator.names.originOf(name) === id) &&
    [...c.reads.files].every(([module, file]) => resolver?.resolve(module) === file);
  /** What a run added in the last version, added again, when nothing it read has changed since. */
  const replay = (key: string): BuildOutputs | undefined => {
    const cached = keep?.builds.get(key);
    if (!cached || !valid(cached)) return undefined;
    const o = cached.outputs;
    for (const [start, r] of o.records) record(start, r);
    for (const p of o.parts) part(p);
    for (const f of o.flows) flow(f);
    for (const [k, c] of o.constructions) construction(k, c);
    for (const h of o.hints) hint(h.span, h.features);
    for (const at of o.reached) evaluator.reach(at);
    o.attentions.forEach(([k, layer], i) => attention(k, -1 - i, layer));
    return o;
  };
  /** Runs `work`, keeping what it adds and everything it reads for the next version (`always`: even without a total). */
  const recorded = (key: string, work: () => ModuleSummary | undefined, always: boolean): ModuleSummary | undefined => {
    capture = { records: [], parts: [], flows: [], constructions: [], hints: [], reached: [], summary: undefined, attentions: [] };
    const reachedBefore = evaluator.reachedInOrder.length;
    const reads: Reads = { fragments: new Set(), names: new Map(), files: new Map() };
    evaluator.reads = reads;
    try {
      capture.summary = work();
    } finally {
      evaluator.reads = undefined;
    }
    capture.reached = evaluator.reachedInOrder.slice(reachedBefore);
    // Once the run is over, what it built inside is complete: the next version replays their totals.
    const outputs = {
      ...capture,
      constructions: capture.constructions.map(([k, c]): [string, Construction] => [k, { context: c.context, summary: c.summary ?? summarize(c.tree!) }]),
      parts: capture.parts.map((p): PartRecord => ({ ...p, tree: undefined, summary: p.summary ?? summarize(p.tree!) })),
    };
    if (keep && !shared.budget.exhausted && (always || capture.summary)) keep.builds.set(key, { reads, outputs });
    capture = undefined;
    return outputs.summary;
  };
  const defaults = new Map<string, Value>();
  const classes: { key: string; result: ModuleResult }[] = [];
  model.fragments.forEach((fragment, fi) => {
    fragment.scopes.forEach((scope, si) => {
      if (scope.parent !== -1 || scope.kind !== 'class') return;
      const key = classKey(model, fi, si);
      const result = (summary: ModuleSummary) => ({ key, result: { name: scope.name, span: scope.nameSpan, extent: scope.extent, summary } });
      const cached = replay(key);
      if (cached) {
        if (cached.summary) classes.push(result(cached.summary));
        return;
      }
      const cls = evaluator.names.definition(fi, si, undefined);
      if (cls.t !== 'class' || !evaluator.guard(() => evaluator.classes.isModuleClass(cls))) return;
      const summary = recorded(
        key,
        () => {
          buildingDefaults = true;
          const needsArguments = evaluator.guard(() => evaluator.classes.needsArguments(cls)) ?? true;
          symbolic = needsArguments;
          shared.paramsAsNames = needsArguments ? evaluator.guard(() => evaluator.classes.constructorScope(cls)) : undefined;
          const value = shared.budget.exhausted ? undefined : evaluator.guard(() => evaluator.classes.instantiate(cls, { positional: [], keywords: new Map() }, undefined));
          buildingDefaults = false;
          symbolic = false;
          shared.paramsAsNames = undefined;
          if (value?.t !== 'module') return undefined;
          defaults.set(key, value);
          const total = summarize(value.tree);
          // Built with names for its arguments, its forward() carries sizes that are names too: no hint and
          // no mismatch can come of it; the models the file builds are followed instead.
          if (!needsArguments) for (const size of evaluator.flows.followForward(value)) hint(size.at.span, size.features);
          else if (mayHoldAttention(model.text(scope.extent))) followQuietly(value);
          return total;
        },
        false,
      );
      classes.push(result(summary ?? unknownSummary(scope.name)));
    });
  });
  for (const value of built) for (const size of evaluator.flows.followForward(value)) hint(size.at.span, size.features);
  // The attention of a model's parts that its forward() did not reach with sizes (whisper's encoder stops
  // before its blocks), each part followed alone: only parts of this file that look like attention.
  const unseen = (cls: DefRef, tree: ModuleTree) =>
    cls.owner === evaluator && !attentionByTree.has(tree) && mayHoldAttention(model.text(model.fragments[cls.fragment].scopes[cls.scope].extent));
  for (const value of built) if (value.t === 'module') followParts(evaluator, value.tree, unseen);
  const hints = [...sizes.values()].filter((h): h is SizeHint => h !== undefined).sort((a, b) => a.span.start - b.span.start);
  runFactories(evaluator, model, (key, run) => void (replay(key) ?? recorded(key, () => (run(), undefined), true)));
  runConfigured(evaluator, model);
  const modules: ModuleResult[] = classes.map(({ key, result }) => {
    const withAttention = { ...result, attention: shown([...(attentions.get(key)?.values() ?? [])], result.summary.params) };
    return result.summary.params?.isConstant ? withAttention : { ...withAttention, built: agreed(constructions.get(key)) };
  });
  symbolic = true;
  runUnreached(evaluator, model, defaults);
  symbolic = false;
  for (const [start, m] of models) if (!instances.has(start)) instances.set(start, { className: m.className, span: m.span, summary: summarize(m.tree()) });
  const attentionAt = (node: ModuleTree): LayerInstance | 'unknown' | undefined => {
    const value = evaluator.torch.asValue(node);
    const own = attentionByTree.get(node) ?? (value.t === 'layer' && value.layer.attention ? value.layer : undefined);
    if (own) return own;
    // An instance of a class seen computing attention elsewhere, not followed here: its sizes are not known.
    const cls = value.t === 'module' ? value.cls : undefined;
    return cls && cls.owner === evaluator && attentions.has(classKey(model, cls.fragment, cls.scope)) ? 'unknown' : undefined;
  };
  for (const [start, i] of instances) {
    const value = instanceValues.get(i);
    if (value?.t === 'module' && i.summary.params?.isConstant) instances.set(start, { ...i, sizing: sizeModel(evaluator, value, attentionAt) });
  }
  const layers: LayerResult[] = [];
  const findings: Finding[] = [];
  // `dense(...).apply(x)` is two calls from one offset: one layer.
  const listed = new Set<number>();
  model.fragments.forEach((fragment) => {
    for (const site of fragment.calls) {
      const list = records.get(site.span.start);
      if (!list?.length || listed.has(site.span.start)) continue;
      listed.add(site.span.start);
      const result = siteResult(site.span, list, lexicalContexts(fragment, site.scope));
      layers.push(result);
      findings.push(...result.findings);
    }
  });
  const flows = [...flowFindings.values()].filter((f) => !findings.some((g) => g.span.start === f.span.start && g.code === f.code));
  const silenced = (f: Finding) => model.ignores?.has(f.span.startLine) && (model.ignores.get(f.span.startLine)?.has(f.code) ?? true);
  return {
    language: model.language,
    layers,
    findings: [...findings, ...flows].filter((f) => !silenced(f)).sort((a, b) => a.span.start - b.span.start),
    modules,
    instances: [...instances.values()],
    parts: partResults(parts),
    hints,
  };
}
