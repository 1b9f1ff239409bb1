/**
 * The passes of an analysis, in the order analyze.ts runs them, each over one AnalysisRun: the module body,
 * each model class built with its defaults, the models the body built followed through forward(), the
 * factories, Hugging Face configurations, functions no run reached; then what their records come to.
 */
import { runConfigurationFiles } from './configurationFiles';
import { runImporters } from './importers';
import { registriesOf } from './registries';
import type { SiteShown } from './cache';
import type { Span } from '../ir/expr';
import { StatementReplays } from '../interp/statementReplays';
import { LIMITS } from '../limits/budget';
import type { Finding, LayerInstance } from '../values/layer';
import { summarize, type ModuleSummary, type ModuleTree } from '../values/modules';
import { definitions } from '../ir/moduleNames';
import { Replays } from './replays';
import type { InstanceResult, LayerResult, ModuleResult, SizeHint } from './results';
import { siteResult } from './siteResults';
import type { DefRef, Value } from '../values/value';
import type { AnalysisRun } from './run';
import {
  agreed,
  classKey,
  configurationsOf,
  hasTotal,
  followParts,
  lexicalContexts,
  mayComputeAttention,
  mayHoldAttention,
  namesConfig,
  runConfigured,
  runFactories,
  runUnreached,
  shown,
  sizesOf,
  summarized,
  sizeModel,
  unknownSummary,
} from './runs';
import { analysisTruncated } from '../findings/messages';
import { runPresets } from './presets';
import { runTargets } from './targets';
import { calledName, configurationSource } from './configurationSource';
import { contextOf, isChosen, modelOf, realBuild, shownAmong, type Showing } from './documented';

/** A model class of the file with its result, by class key. */
export interface ClassBuild {
  readonly key: string;
  readonly result: ModuleResult;
}

/** The module body, statement by statement: instances built there, `if __name__ == "__main__":`. */
export function runModuleBody(run: AnalysisRun): void {
  const { model, cache, evaluator, resolver } = run;
  // A document's first analysis records no statement: most files opened are read, not edited. Its first
  // edit records them, for the keys typed after it.
  const statements =
    cache?.statements && model.language === 'python'
      ? new StatementReplays(evaluator, cache.statements, resolver)
      : undefined;
  run.recorder.mode.moduleBody = true;
  try {
    evaluator.runModule(statements);
  } finally {
    run.recorder.mode.moduleBody = false;
  }
  if (cache) cache.statements = statements?.kept ?? new Map();
  registriesOf(evaluator, run.registered);
  // A chosen configuration's heads and sizing are read from its trees, which a replayed run no longer holds.
  const chosen = (context: string) => isChosen(run.chosen, context);
  run.replays = new Replays(model, cache, evaluator, run.out, resolver, chosen);
}

/**
 * The user's own configurations (SourceModel.named), each statement run as its own model, named after its
 * expression; one that builds no model with a total (a name the file lacks, a size not followed, a raise)
 * adds nothing.
 */
export function runOwnConfigurations(run: AnalysisRun): void {
  const { model, evaluator, out, recorder } = run;
  const named = model.named;
  if (!named?.size) return;
  recorder.mode.moduleBody = true;
  try {
    for (const [fi, fragment] of model.fragments.entries()) {
      const label = named.get(fragment.span.startLine);
      // One expression, as the statement the host wrote around it: anything else (`a; b`) is no configuration.
      if (label === undefined || fragment.body.length !== 1 || fragment.body[0].k !== 'assign') continue;
      out.tentative(
        () =>
          evaluator.guard(() =>
            evaluator.inContext(label, undefined, () => {
              evaluator.moduleFrame.fragment = fi;
              evaluator.runner.body(fragment.body, evaluator.moduleFrame);
              const [target] = fragment.body.flatMap((s) => (s.k === 'assign' ? s.targets : []));
              const bound = target && evaluator.expr(target);
              return bound?.k === 'name' ? evaluator.moduleFrame.vars.get(bound.id) : undefined;
            }),
          ),
        hasTotal,
      );
    }
  } finally {
    recorder.mode.moduleBody = false;
  }
}

/** Builds a model class with its defaults and follows its forward(); its total is taken before that. */
function buildDefaults(
  run: AnalysisRun,
  cls: DefRef,
  key: string,
  extent: Span,
): { value: Value; total: ModuleSummary } | undefined {
  const { evaluator, shared, recorder } = run;
  const { mode } = recorder;
  mode.buildingDefaults = true;
  const needsArguments = evaluator.guard(() => evaluator.classes.needsArguments(cls)) ?? true;
  mode.symbolic = needsArguments;
  shared.paramsAsNames = needsArguments ? evaluator.guard(() => evaluator.classes.constructorScope(cls)) : undefined;
  const value = shared.budget.exhausted
    ? undefined
    : evaluator.guard(() => evaluator.classes.instantiate(cls, { positional: [], keywords: new Map() }, undefined));
  mode.buildingDefaults = false;
  mode.symbolic = false;
  shared.paramsAsNames = undefined;
  if (value?.t !== 'module') return undefined;
  run.defaults.set(key, value);
  const total = summarize(value.tree);
  // Built with names for its arguments, its forward() carries sizes that are names too: no hint and
  // no mismatch can come of it; the models the file builds are followed instead.
  if (!needsArguments)
    for (const size of evaluator.flows.followForward(value)) run.out.hint(size.at.span, size.features);
  else if (mayHoldAttention(run.model.text(extent))) followQuietly(run, value);
  return { value, total };
}

/**
 * A class built with names for its arguments: its forward() is followed for the attention it holds only;
 * sizes that are names give no hint and no error.
 */
function followQuietly(run: AnalysisRun, value: Value): void {
  const { evaluator, recorder } = run;
  recorder.mode.symbolic = true;
  try {
    evaluator.quietly(() => evaluator.flows.followForward(value));
  } finally {
    recorder.mode.symbolic = false;
  }
}

/** Each model class of the file built with its defaults (or replayed from the last version). */
export function buildClasses(run: AnalysisRun): ClassBuild[] {
  const { model, evaluator, replays } = run;
  const classes: ClassBuild[] = [];
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
        return isModel ? buildDefaults(run, cls, key, scope.extent)?.total : undefined;
      },
      // A class that is no model is kept as such; a model whose build did not end is built again.
      () => !isModel,
    );
    if (isModel) classes.push(result(summary ?? unknownSummary(scope.name)));
  }
  return classes;
}

/**
 * The models the module body built, followed through forward() for the sizes they hint; then the attention
 * of their parts that forward() did not reach with sizes (whisper's encoder stops before its blocks), each
 * part followed alone: only parts of this file that look like attention. Returns the hints.
 */
export function followModuleModels(run: AnalysisRun): SizeHint[] {
  const { evaluator, model, recorder } = run;
  for (const value of recorder.moduleModels)
    for (const size of evaluator.flows.followForward(value)) run.out.hint(size.at.span, size.features);
  const unseen = (cls: DefRef, tree: ModuleTree) =>
    cls.file === evaluator.file &&
    !recorder.attentionByTree.has(tree) &&
    mayHoldAttention(model.text(model.fragments[cls.fragment].scopes[cls.scope].extent));
  for (const value of recorder.moduleModels) if (value.t === 'module') followParts(evaluator, value.tree, unseen);
  return run.out.hints();
}

/**
 * How far an analysis goes: `first`, an editor's first answer, runs the factories on half of what the file
 * has left; `full` gives them an allowance of their own (timm's `vision_transformer.py` registers 157).
 */
export type Depth = 'first' | 'full';

/**
 * Top-level functions whose parameters all have defaults, run as they are (`def vit_base(**kw): ...`).
 * Returns whether the work budget left some out: a first analysis then says nothing of where it stopped
 * (the full one that follows does), and its classes list at least the configurations it found.
 */
export function runFactoryFunctions(run: AnalysisRun, depth: Depth): boolean {
  const { budget, stops } = run.evaluator;
  const run_ = () =>
    runFactories(run.evaluator, run.model, (key, work) => run.replays.run(key, work)) || budget.exhausted;
  if (depth === 'full') return budget.aside(LIMITS.factorySteps, run_, LIMITS.factoryEntrySteps);
  const stopped = stops.length;
  const cut = budget.within(Math.max(0, LIMITS.steps - budget.spent) / 2, run_);
  if (cut) stops.length = stopped;
  return cut;
}

/** Hugging Face models built with their configuration class's defaults: each class's context, by class key. */
export function buildConfigured(run: AnalysisRun): Map<string, string> {
  const { model, cache, evaluator, replays } = run;
  const config = namesConfig(model, cache?.configNames);
  if (cache) cache.configNames = config.seen;
  return config.found
    ? runConfigured(
        evaluator,
        model,
        (key, run_) => replays.valued(key, run_),
        (key) => run.recorder.builtByBody.has(key),
        (work, keep) => run.out.tentative(work, keep),
      )
    : new Map<string, string>();
}

/**
 * The classes that take a configuration built with each configuration file beside the file that fits it:
 * the contexts of the models they built, documented configurations as presets are.
 */
export function runConfigurationFileBuilds(run: AnalysisRun): string[] {
  return fileBuilds(run, run.resolver?.configurationFiles?.() ?? [], runConfigurationFiles);
}

/** The classes built as the `target`s of configuration files above the file name them. */
export function runTargetBuilds(run: AnalysisRun): string[] {
  return fileBuilds(run, run.resolver?.targetFiles?.() ?? [], runTargets);
}

/** Runs the builds a kind of configuration file states, each replayed from the last version where it can be. */
function fileBuilds<F>(
  run: AnalysisRun,
  files: readonly F[],
  runner: (
    evaluator: AnalysisRun['evaluator'],
    model: AnalysisRun['model'],
    files: readonly F[],
    each: (key: string, run: () => string | undefined) => string | undefined,
    tentative: <T>(work: () => T, keep: (result: T) => boolean) => T,
  ) => string[],
): string[] {
  const { evaluator, model, replays, out } = run;
  return files.length
    ? runner(
        evaluator,
        model,
        files,
        (key, run_) => replays.valued(key, run_),
        (work, keep) => out.tentative(work, keep),
      )
    : [];
}

/**
 * The files importing this one, run: the contexts of the models they built its classes in. In a full analysis
 * their factories run on an allowance of their own, as the file's do (runFactoryFunctions).
 */
export function runImporterBuilds(run: AnalysisRun, depth: Depth): string[] {
  const { budget } = run.shared;
  const { contexts, sources } =
    depth === 'full'
      ? budget.aside(LIMITS.factorySteps, () => runImporters(run, LIMITS.factorySteps), LIMITS.factoryEntrySteps)
      : runImporters(run);
  for (const [context, source] of sources) run.elsewhere.set(context, source);
  return contexts;
}

/** Preset functions run for each name of their tables: the contexts of the models they built. */
export function runPresetFunctions(run: AnalysisRun): string[] {
  const { evaluator, model, replays, out } = run;
  return runPresets(
    evaluator,
    model,
    (key, run_) => replays.valued(key, run_),
    (work, keep) => out.tentative(work, keep),
    (work) => out.muted(work),
  );
}

/** Each class's result: its total, the attention it shows, and the build every context agrees on. */
export function moduleResults(
  run: AnalysisRun,
  classes: readonly ClassBuild[],
  configured: ReadonlyMap<string, string>,
  showing: Showing,
): ModuleResult[] {
  const { out } = run;
  return classes.map(({ key, result }) => {
    const attentions = out.attentions.get(key);
    const attention = attentions
      ? shown([...attentions.values()], result.summary.params, out.crowded.has(key))
      : undefined;
    const builds = summarized(out.constructions.get(key));
    const defaults = result.summary.params;
    // Built with its defaults, a class shows that build, unless the user chose a configuration that builds
    // it; where models build it with another total, they are its other configurations.
    if (defaults?.isConstant && !builds?.some((b) => isChosen(showing.chosen, b.context))) {
      const others = configurationsOf(builds);
      return {
        ...result,
        attention,
        configurations: others?.some((c) => !c.params.equals(defaults))
          ? [
              {
                context: `${result.name}()`,
                params: defaults,
                expression: `${result.name}()`,
                source: result.span,
                active: true as const,
              },
              ...(sourced(run, others) ?? []),
            ]
          : undefined,
      };
    }
    // A class built with its own configuration's defaults shows that build, whatever builds it as a part.
    const own = configured.get(key);
    const shownBuilds = builds && shownAmong(builds, showing, contextOf, () => true);
    const built =
      own !== undefined &&
      builds?.some((b) => b.context === own) &&
      !builds.some((b) => isChosen(showing.chosen, b.context))
        ? agreed(builds, own)
        : // A class build is recorded only from a real run: every one counts.
          agreed(shownBuilds);
    const sizes = built || result.summary.params?.isConstant ? undefined : sizesOf(shownBuilds);
    return {
      ...result,
      // The heads of a configuration the user chose, or of a documented one shown, are its own build's: another's
      // may differ at the same total, and a documented build's forward() is not followed.
      attention:
        built && (isChosen(showing.chosen, built.context) || showing.documented.has(modelOf(built.context)))
          ? attentionOf(run, key, built.context)
          : attention,
      built,
      ...(sizes ? { sizes } : {}),
      configurations: sourced(run, configurationsOf(builds, built?.context)),
    };
  });
}

/** Each configuration with where the file states it (configurationSource.ts). */
function sourced(run: AnalysisRun, configurations: ModuleResult['configurations']): ModuleResult['configurations'] {
  const own = new Set(run.model.named?.values());
  return configurations?.map((c) => {
    const registered = run.registered.get(modelOf(c.context));
    const elsewhere = run.elsewhere.get(modelOf(c.context));
    if (registered) c = { ...c, registered };
    if (elsewhere) return { ...c, elsewhere };
    const source = configurationSource(run.model, c.context, own.has(c.context));
    return source ? { ...c, source } : c;
  });
}

/**
 * The attention one build of a class computes, found by following that build's forward() quietly, adding
 * nothing to the analysis; none when the build's tree is no longer held (its run was replayed).
 */
function attentionOf(run: AnalysisRun, key: string, context: string): LayerInstance | undefined {
  const { evaluator, recorder } = run;
  const tree = builtTree(run, key, context);
  if (!tree) return undefined;
  followAddingNothing(run, evaluator.torch.asValue(tree));
  return recorder.attentionByTree.get(tree);
}

/** The tree a run built a class in `context` with, while the run's outputs hold it (not once replayed). */
function builtTree(run: AnalysisRun, key: string, context: string): ModuleTree | undefined {
  return run.out.constructions.get(key)?.find((c) => c.context === context)?.tree;
}

/** Follows a built model's forward() for the attention it finds (Recorder.attentionByTree), adding nothing else. */
function followAddingNothing(run: AnalysisRun, value: Value): void {
  const { evaluator, out } = run;
  out.muted(() => evaluator.guard(() => evaluator.quietly(() => evaluator.flows.followForward(value))));
}

/**
 * Every function holding a layer no run reached, run with its parameters unknown; a method runs on its
 * class built with its defaults: replayed while that build is, else run again, on the build of this version
 * (built again, adding nothing twice, when it was replayed).
 */
export function runUnreachedFunctions(run: AnalysisRun): void {
  const { model, evaluator, replays, shared, recorder } = run;
  const { mode } = recorder;
  const selfOf = (fi: number, si: number): Value | undefined => {
    const key = classKey(model, fi, si);
    const known = run.defaults.get(key);
    // A class replayed without a total is no model: a fresh analysis does not build it either.
    if (known || !replays.replayed.get(key)?.summary) return known;
    const cls = evaluator.names.definition(fi, si, undefined);
    if (cls.t !== 'class') return undefined;
    const state = { symbolic: mode.symbolic, paramsAsNames: shared.paramsAsNames };
    try {
      return run.out.muted(() => buildDefaults(run, cls, key, model.fragments[fi].scopes[si].extent))?.value;
    } finally {
      mode.symbolic = state.symbolic;
      shared.paramsAsNames = state.paramsAsNames;
    }
  };
  mode.symbolic = true;
  runUnreached(evaluator, model, selfOf, (key, owner, run_) =>
    replays.run(key, run_, owner === undefined || replays.replayed.has(owner)),
  );
  mode.symbolic = false;
  replays.forgetOthers();
}

/** The models built at module level, with their sizing; their trees are read now that every run is over. */
export function instanceResults(run: AnalysisRun): InstanceResult[] {
  const { evaluator, recorder } = run;
  const attentionAt = attentionIn(run);
  // `model.add` and a TF.js layer's first apply() may extend a tree until the last run.
  return recorder.instances
    .results()
    .map(({ result, value }) =>
      value?.t === 'module' && result.summary.params?.isConstant
        ? { ...result, sizing: sizeModel(evaluator, value, attentionAt) }
        : result,
    );
}

/**
 * Each model class shown with a configuration the user chose that builds that class itself (not as a part), as
 * a model with its sizing, placed at the class: what the model hover and the sizing panel give for it.
 */
export function chosenInstances(
  run: AnalysisRun,
  classes: readonly ClassBuild[],
  modules: readonly ModuleResult[],
  showing: Showing,
): InstanceResult[] {
  const { evaluator } = run;
  const classNames = new Set(modules.map((m) => m.name));
  return modules.flatMap((m, i) => {
    const built = m.built;
    if (!built?.summary.params?.isConstant || !isChosen(showing.chosen, built.context)) return [];
    const via = built.context.split(' via ').slice(1);
    if (via.length > 1 || (via.length === 1 && via[0] !== m.name)) return [];
    // Built through a preset or factory (`GPT.from_pretrained('gpt2') via GPT`) it is the model; built by
    // another class of the file (`LlamaAttention(...) via LlamaRotaryEmbedding`) it is a part of that model.
    const builder = calledName(modelOf(built.context));
    if (via.length === 1 && builder !== undefined && builder !== m.name && classNames.has(builder)) return [];
    const tree = builtTree(run, classes[i].key, built.context);
    const value = tree && evaluator.torch.asValue(tree);
    if (value?.t !== 'module') return [];
    // Followed through forward() for the attention its KV cache needs, as a model the file builds is.
    followAddingNothing(run, value);
    const sizing = evaluator.guard(() => sizeModel(evaluator, value, attentionIn(run)));
    return [
      {
        className: m.name,
        span: m.span,
        summary: built.summary,
        configuration: modelOf(built.context),
        ...(sizing ? { sizing } : {}),
      },
    ];
  });
}

/** The attention a part of a model computes, for its KV cache; 'unknown' where it may compute one not followed. */
function attentionIn(run: AnalysisRun): (node: ModuleTree) => LayerInstance | 'unknown' | undefined {
  const { evaluator, recorder, model, out } = run;
  return (node) => {
    const value = evaluator.torch.asValue(node);
    const own =
      recorder.attentionByTree.get(node) ?? (value.t === 'layer' && value.layer.attention ? value.layer : undefined);
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
}

/** Each layer site with what every run built there, reusing the last version's result where its records are the same. */
export function collectSites(run: AnalysisRun, showing: Showing): { layers: LayerResult[]; findings: Finding[] } {
  const { model, cache, out } = run;
  const layers: LayerResult[] = [];
  const findings: Finding[] = [];
  const sites = new Map<number, SiteShown[]>();
  for (const fragment of model.fragments) {
    const { calls } = fragment;
    if (!calls.length) continue;
    const before = cache?.sites.get(fragment.id);
    let shownSites: SiteShown[] | undefined;
    for (let index = 0; index < calls.length; index++) {
      const site = calls[index];
      const all = out.records.get(site.span.start);
      if (!all?.length) continue;
      const list = shownAmong(all, showing, contextOf, realBuild);
      // Taken once: `dense(...).apply(x)` is two calls from one offset, and one layer.
      out.records.delete(site.span.start);
      const last = before?.[index];
      const same =
        last !== undefined && last.records.length === list.length && last.records.every((r, i) => r === list[i]);
      const result = !same
        ? chosenSaid(siteResult(site.span, list, lexicalContexts(fragment, site.scope)), showing)
        : last.result.span === site.span
          ? last.result
          : { ...last.result, span: site.span };
      (shownSites ??= [])[index] = last && result === last.result ? last : { records: list, result };
      layers.push(result);
      if (result.findings.length) findings.push(...result.findings);
    }
    if (shownSites) sites.set(fragment.id, shownSites);
  }
  if (cache) cache.sites = sites;
  return { layers, findings };
}

/** A site showing a configuration the user chose says which, even where its own code gives the same count. */
function chosenSaid(result: LayerResult, showing: Showing): LayerResult {
  const [only, ...others] = result.values;
  return !result.context && only && !others.length && isChosen(showing.chosen, only.context)
    ? { ...result, context: only.context }
    : result;
}

/**
 * The findings shown: the sites' own, then those of the runs (one per place and code), where the work
 * budget ran out, less those a comment silences, in the order of the text.
 */
export function finish(run: AnalysisRun, siteFindings: readonly Finding[]): Finding[] {
  const { model, out, evaluator } = run;
  const flows = [...out.flows.values()].filter(
    (f) => !siteFindings.some((g) => g.span.start === f.span.start && g.code === f.code),
  );
  for (const stop of evaluator.stops)
    if (!flows.some((f) => f.code === 'analysis-truncated' && f.span.start === stop.span.start))
      flows.push(truncated(stop.span, stop.what));
  const silenced = (f: Finding) =>
    model.ignores?.has(f.span.startLine) && (model.ignores.get(f.span.startLine)?.has(f.code) ?? true);
  return [...siteFindings, ...flows].filter((f) => !silenced(f)).sort((a, b) => a.span.start - b.span.start);
}

/** Where the analysis ran out of its work budget: what comes after is not shown, which must not read as nothing. */
function truncated(span: Span, what: string): Finding {
  const steps =
    what === 'steps for the file'
      ? LIMITS.steps
      : what === 'steps for one factory'
        ? LIMITS.factoryEntrySteps
        : LIMITS.entrySteps;
  const budget = what.startsWith('steps')
    ? `its work budget (${steps.toLocaleString('en-US')} ${what})`
    : `its work budget (${what})`;
  return {
    code: 'analysis-truncated',
    severity: 'info',
    span,
    fixes: [],
    message: analysisTruncated(budget),
  };
}
