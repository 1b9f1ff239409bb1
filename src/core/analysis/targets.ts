/**
 * Configuration files that name the class to build by its import path, as latent and stable diffusion's
 * `instantiate_from_config` reads them: anywhere in the file's tree, `{target: "ldm.modules.diffusionmodules.
 * openaimodel.UNetModel", params: {...}}` builds `UNetModel(**params)`. A target naming a class of the analysed
 * file (its module as the configuration's folder imports it, `TargetFile.module`) is a configuration of that
 * class: `UNetModel(**../../../configs/stable-diffusion/v1-inference.yaml)`.
 */
import type { SourceModel, TargetFile } from '../ir/source';
import { definitions } from '../ir/moduleNames';
import type { Evaluator } from '../interp/evaluator';
import type { Value } from '../values/value';
import { configurationValues } from './configurationFiles';
import { classKey, hasTotal } from './runs';

/** How deep in a file targets are looked for, and how many of its objects: a configuration is a small tree. */
const MAX_DEPTH = 8;
const MAX_OBJECTS = 10_000;

/** Each `{target, params}` of the data naming `module.<class>`, by class name: the first for each class. */
export function targetsIn(data: unknown, module: string): Map<string, unknown> {
  const found = new Map<string, unknown>();
  let seen = 0;
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > MAX_DEPTH || ++seen > MAX_OBJECTS) return;
    if (Array.isArray(v)) return v.forEach((item) => visit(item, depth + 1));
    const entries = v as Record<string, unknown>;
    const target = entries.target;
    if (typeof target === 'string' && target.startsWith(`${module}.`)) {
      const name = target.slice(module.length + 1);
      if (/^[A-Za-z_]\w*$/.test(name) && !found.has(name)) found.set(name, entries.params ?? {});
    }
    for (const child of Object.values(entries)) visit(child, depth + 1);
  };
  visit(data, 0);
  return found;
}

/**
 * Builds each class of the file a target names with its params, through `each` (which may replay the run from
 * the last version, keyed by the file's version too); `tentative` keeps a build only if it has a total. Returns
 * the contexts of the builds kept.
 */
export function runTargets(
  evaluator: Evaluator,
  model: SourceModel,
  files: readonly TargetFile[],
  each: (key: string, run: () => string | undefined) => string | undefined,
  tentative: <T>(work: () => T, keep: (result: T) => boolean) => T,
): string[] {
  const contexts: string[] = [];
  if (model.language !== 'python') return contexts;
  for (const file of files) {
    const targets = targetsIn(file.data, file.module);
    for (const { fragment: fi, scope: si, name } of definitions(model, 'class')) {
      const params = targets.get(name);
      const values = params === undefined ? undefined : configurationValues(params);
      if (!values || evaluator.budget.exhausted) continue;
      const label = `${name}(**${file.name})`;
      const context = each(`target ${classKey(model, fi, si)} ${file.name} ${file.version}`, () => {
        const cls = evaluator.names.definition(fi, si, undefined);
        if (cls.t !== 'class') return undefined;
        const keywords = new Map([...values].map(([k, value]) => [k, { value }]));
        const built = tentative(
          () =>
            evaluator.guard((): Value =>
              evaluator.classes.instantiate(cls, { positional: [], keywords }, undefined, label),
            ),
          hasTotal,
        );
        return built?.t === 'module' && hasTotal(built) ? label : undefined;
      });
      if (context) contexts.push(context);
    }
  }
  return contexts;
}
