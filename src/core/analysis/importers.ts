/**
 * The files of the workspace that import the analysed one (ImportResolver.importers): a train script, a
 * builder (`build_sam.py`). Each runs as a script does, its module body and then its factories (top-level
 * functions whose parameters all have defaults), the configuration files beside it and those naming its classes
 * by import path (stable diffusion's `configs/`, building its UNet), and each model it builds one of the file's
 * classes in is a configuration of that class stated in that file: `build_sam_vit_b()`, `GPT (../train.py, line
 * 40)`.
 * They run last among the configurations, on a share of the file's work budget: the file's own come first.
 */
import type { Span } from '../ir/expr';
import { definitions } from '../ir/moduleNames';
import type { Importer, SourceModel } from '../ir/source';
import { LIMITS } from '../limits/budget';
import { configurationSource } from './configurationSource';
import type { AnalysisRun } from './run';
import type { SourceElsewhere } from './results';
import { runFactories } from './runs';
import { runTargets } from './targets';
import { runConfigurationFiles } from './configurationFiles';
import { modelOf } from './documented';
import { summarize } from '../values/modules';
import { cellPlace } from '../ir/cellLines';
import { importerLineName } from '../interp/evaluator';
import { registriesOf } from './registries';

/** The steps all importers may take together, and one of them: a script's training loop leaves the others theirs. */
const IMPORTER_STEPS = 30_000;
const STEPS_EACH = 20_000;

/** A number for each importer's text: its runs are replayed only while it is the same. */
const numbers = new WeakMap<SourceModel, number>();
let numbered = 0;

/**
 * The contexts of the models the importers build, in order, with where each is stated. `factories`: steps the
 * importers' factories may take beyond their share (a full analysis's allowance for factories: timm's
 * `deit.py` registers 24 models of `vision_transformer.py`'s classes).
 */
export function runImporters(
  run: AnalysisRun,
  factories = 0,
): { contexts: string[]; sources: Map<string, SourceElsewhere> } {
  const { model, resolver, replays, shared } = run;
  const contexts: string[] = [];
  const unsized: string[] = [];
  const sources = new Map<string, SourceElsewhere>();
  if (model.language !== 'python' || !definitions(model, 'class').length) return { contexts, sources };
  const importers = resolver?.importers?.() ?? [];
  // A file that took half its budget already keeps the rest for its own functions no run reached.
  if (!importers.length || shared.budget.spent > LIMITS.steps / 2) return { contexts, sources };
  shared.budget.within(IMPORTER_STEPS + factories, () => {
    for (const importer of importers) {
      if (shared.budget.exhausted) break;
      let number = numbers.get(importer.model);
      if (number === undefined) numbers.set(importer.model, (number = numbered++));
      const built = replays.valued(`importer ${importer.name} ${number} ${factories}`, () =>
        JSON.stringify(runImporter(run, importer, factories)),
      );
      const { models, registered } = built === undefined ? { models: [], registered: [] } : (JSON.parse(built) as Ran);
      for (const [context, names] of registered)
        run.registered.set(context, [...(run.registered.get(context) ?? []), ...names]);
      for (const { context, counted } of models) {
        if (sources.has(context) || (counted ? contexts : unsized).includes(context)) continue;
        (counted ? contexts : unsized).push(context);
        const span = sourceIn(importer, context);
        if (span) sources.set(context, { file: importer.name, ...placeOf(importer, span) });
      }
    }
  });
  // A model whose sizes no importer states (read from the command line) comes last: no place shows it where
  // an importer's model has sizes, and none shows it over the file's own models.
  return { contexts: [...contexts, ...unsized], sources };
}

/**
 * Runs one importer: the models it built the file's classes in, and its registries of factories. Its module
 * body and factories take a share of the importers' steps, its factories `factories` more.
 */
function runImporter(run: AnalysisRun, importer: Importer, factories: number): Ran {
  const { evaluator, recorder, shared } = run;
  const other = evaluator.importer(importer);
  if (!other) return { models: [], registered: [] };
  const built = new Set<string>();
  let registered: [string, string[]][] = [];
  recorder.builtElsewhere = built;
  shared.importer = importer.name;
  const start = shared.budget.spent;
  try {
    shared.budget.within(STEPS_EACH, () => other.runModule());
    registered = [...registriesOf(other)];
    shared.importer = importer.name;
    const left = Math.max(0, STEPS_EACH - (shared.budget.spent - start)) + factories;
    shared.budget.within(left, () => {
      runFactories(other, importer.model, (_key, factory) => factory());
      // The configuration files beside it (open_clip's `model_configs/`, building `transformer.py`'s towers in
      // `model.py`'s CLIP) and those naming its classes (stable diffusion's UNet, building `attention.py`'s).
      const tentative = <T>(work: () => T, keep: (result: T) => boolean) => run.out.tentative(work, keep);
      runConfigurationFiles(other, importer.model, importer.configurationFiles?.() ?? [], (_k, b) => b(), tentative);
      runTargets(other, importer.model, importer.targetFiles?.() ?? [], (_k, b) => b(), tentative);
    });
  } finally {
    recorder.builtElsewhere = undefined;
    shared.importer = undefined;
  }
  const counted = new Set<string>();
  for (const list of run.out.constructions.values())
    for (const c of list)
      if (built.has(modelOf(c.context)) && (c.summary ?? summarize(c.tree!)).params?.isConstant)
        counted.add(modelOf(c.context));
  return { models: [...built].map((context) => ({ context, counted: counted.has(context) })), registered };
}

/** What one importer's run found, kept for the next version as JSON. */
interface Ran {
  readonly models: readonly Built[];
  readonly registered: readonly [string, string[]][];
}

/** A model an importer built the file's classes in, and whether any of them has a total there. */
interface Built {
  readonly context: string;
  readonly counted: boolean;
}

/**
 * The statement building a model at an importer's module level (the context names its line, `Net (../train.py,
 * line 15)`, as the importer's evaluator names lines), or the factory building it.
 */
function sourceIn(importer: Importer, context: string): Span | undefined {
  const { model } = importer;
  const named = importerLineName(importer);
  const at = (f: SourceModel['fragments'][number]) => {
    for (let line = f.span.startLine; line <= f.span.endLine; line++)
      if (context.endsWith(` (${named(line)})`)) return true;
    return false;
  };
  return context.endsWith(')') && context.includes(` (${importer.name}, `)
    ? model.fragments.find(at)?.span
    : configurationSource(model, context, false);
}

/** A place in an importer, 1-based: a notebook's by its cell. */
function placeOf(importer: Importer, span: Span): { cell?: number; line: number; column: number } {
  const column = span.startChar + 1;
  return importer.cells
    ? { ...cellPlace(importer.cells, span.startLine), column }
    : { line: span.startLine + 1, column };
}
