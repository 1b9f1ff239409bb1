/**
 * analyze(SourceModel) -> Analysis: every layer definition with its count, tensors and findings. Plain
 * data, computed once per document version and read by every surface (hover, CodeLens, diagnostics, CLI).
 */
import { partResults } from './partResults';
import type { Analysis, ModuleResult, SizeHint } from './results';
import type { ImportResolver, SourceModel } from '../ir/source';
import type { AnalysisCache } from './cache';
import {
  buildClasses,
  buildConfigured,
  chosenInstances,
  collectSites,
  finish,
  followModuleModels,
  instanceResults,
  moduleResults,
  runFactoryFunctions,
  runModuleBody,
  runOwnConfigurations,
  runConfigurationFileBuilds,
  runTargetBuilds,
  runImporterBuilds,
  runPresetFunctions,
  runUnreachedFunctions,
  type Depth,
} from './passes';
import { AnalysisRun } from './run';
import { documentedOf, isChosen, modelOf } from './documented';
import { registeredContexts } from './registries';

export { attentionLayers } from './results';
export type { Depth } from './passes';
export type { Analysis, InstanceResult, LayerResult, ModuleResult, PartResult, SiteValue, SizeHint } from './results';

/**
 * Runs the interpreter over the file, pass by pass: its module body (instances built there, `if __name__ ==
 * "__main__"`), each model class built with its defaults, the models the body built followed through
 * forward(), the factories, configurations and configuration files, then every function holding a layer no run reached, with its
 * parameters unknown. Every layer construction is recorded with the context that built it. `chosen`: the
 * configurations the user picked (documented.ts), which the places they build show. `depth`: how much work
 * the factories get (passes.ts): an editor's first analysis of a file comes sooner with less. `interrupted`,
 * asked as the work goes, stops it with AnalysisInterrupted (limits/budget.ts).
 */
export function analyze(
  model: SourceModel,
  resolver?: ImportResolver,
  cache?: AnalysisCache,
  chosen: readonly string[] = [],
  depth: Depth = 'full',
  interrupted?: () => boolean,
): Analysis {
  const run = new AnalysisRun(model, resolver, cache, chosen);
  run.shared.budget.interrupted = interrupted;
  runModuleBody(run);
  runOwnConfigurations(run);
  const classes = buildClasses(run);
  const hints = followModuleModels(run);
  const configurationsCut = runFactoryFunctions(run, depth);
  const configured = buildConfigured(run);
  const documented = [
    ...runPresetFunctions(run),
    ...runConfigurationFileBuilds(run),
    ...runTargetBuilds(run),
    ...runImporterBuilds(run, depth),
  ];
  // A registry's entry (`vit_b` of `sam_model_registry`) picks the factory it names.
  const showing = {
    documented: documentedOf(documented),
    chosen: [...chosen, ...registeredContexts(run.registered, chosen)],
  };
  const modules = moduleResults(run, classes, configured, showing);
  runUnreachedFunctions(run);
  // Trees are read once every run is over.
  const instances = [...instanceResults(run), ...chosenInstances(run, classes, modules, showing)];
  const { layers, findings } = collectSites(run, showing);
  return {
    language: model.language,
    layers,
    findings: finish(run, findings),
    modules,
    instances,
    parts: partResults(run.out.parts, showing),
    hints: hintsOutside(hints, modules, showing.chosen),
    ...(configurationsCut ? { configurationsCut } : {}),
  };
}

/**
 * The size hints, but those inside a class shown with a configuration the user chose that is no model the
 * file builds at module level: hints come from those models (and from classes built with their defaults),
 * whose sizes may be another's, and no hint says which model it is for.
 */
function hintsOutside(
  hints: readonly SizeHint[],
  modules: readonly ModuleResult[],
  chosen: readonly string[],
): SizeHint[] {
  const shown = modules
    .filter(
      (m) => m.built && isChosen(chosen, m.built.context) && !BUILT_AT_MODULE_LEVEL.test(modelOf(m.built.context)),
    )
    .map((m) => m.extent);
  return hints.filter((h) => !shown.some((e) => e.start <= h.span.start && h.span.end <= e.end));
}

/** `GPT (line 202)`, `Head (cell 2, line 1)`: a model the file builds at module level. */
const BUILT_AT_MODULE_LEVEL = / \((line|cell) [^)]*\)$/;
