/**
 * Configuration files beside a model file: a Hugging Face checkpoint's `config.json`, Meta's `params.json`.
 * Each object is a configuration of every class that takes a configuration class it fits, built as
 * `LlamaModel(LlamaConfig(**config.json))`: the configuration class called with the file's keys, as
 * `LlamaConfig(**json.load(open('config.json')))` would be in Python. A file fits a configuration class
 * that names its `model_type` (Hugging Face's), else one that takes each of its keys as a parameter or a
 * dataclass field; a build that fails or has no total adds nothing.
 */
import type { ConfigurationFile, SourceModel } from '../ir/source';
import { definitions } from '../ir/moduleNames';
import type { Evaluator } from '../interp/evaluator';
import type { Value } from '../values/value';
import { dataValue } from '../values/dataValue';
import { mayTakeConfiguration } from './configParameter';
import { classKey, configurationTaken, hasTotal } from './runs';

type ClassValue = Extract<Value, { t: 'class' }>;

/**
 * A configuration file's data (syntax/configurationFiles.ts: JSON, an int as a bigint, a float as a number) as the values
 * Python's `json.load` gives, or undefined when it is no object.
 */
export function configurationValues(data: unknown): ReadonlyMap<string, Value> | undefined {
  const value = dataValue(data);
  return value?.t === 'dict' ? value.fields : undefined;
}

/**
 * Builds each class that takes a configuration class with each file that fits it, through `each` (which may
 * replay the run from the last version, keyed by the file's version too); `tentative` keeps a build only if it
 * has a total. Returns the contexts of the builds kept.
 */
export function runConfigurationFiles(
  evaluator: Evaluator,
  model: SourceModel,
  files: readonly ConfigurationFile[],
  each: (key: string, run: () => string | undefined) => string | undefined,
  tentative: <T>(work: () => T, keep: (result: T) => boolean) => T,
): string[] {
  const contexts: string[] = [];
  if (model.language !== 'python') return contexts;
  const read = files.flatMap((f) => {
    const values = configurationValues(f.data);
    return values?.size ? [{ ...f, values }] : [];
  });
  for (const { fragment: fi, scope: si, name } of definitions(model, 'class')) {
    const byConfiguration = mayTakeConfiguration(model, fi, si);
    for (const file of read) {
      if (evaluator.budget.exhausted) return contexts;
      const context = each(`configuration file ${classKey(model, fi, si)} ${file.name} ${file.version}`, () => {
        const cls = evaluator.names.definition(fi, si, undefined);
        if (cls.t !== 'class' || !evaluator.guard(() => evaluator.classes.needsArguments(cls))) return undefined;
        const build = evaluator.guard(() => buildWith(evaluator, cls, name, file, byConfiguration));
        if (!build) return undefined;
        const built = tentative(() => evaluator.guard(build.run), hasTotal);
        // Its forward() is not followed, as a preset's is not: the heads a class shows are those of the build
        // it shows (passes.ts).
        return built?.t === 'module' && hasTotal(built) ? build.label : undefined;
      });
      if (context) contexts.push(context);
    }
  }
  return contexts;
}

/**
 * How `cls` is built with the file, when it takes it: through the configuration class it takes
 * (`Transformer(ModelArgs(**params.json))`), else with the file's keys as its own arguments
 * (`CLIP(**model_configs/ViT-B-32.json)`, open_clip's way).
 */
function buildWith(
  evaluator: Evaluator,
  cls: ClassValue,
  name: string,
  file: { readonly name: string; readonly values: ReadonlyMap<string, Value> },
  byConfiguration: boolean,
): { label: string; run: () => Value } | undefined {
  const keywords = new Map([...file.values].map(([k, value]) => [k, { value }]));
  const taken = byConfiguration ? configurationTaken(evaluator, cls, false) : undefined;
  if (taken && fits(evaluator, taken.config, file.values)) {
    const { config, param, first } = taken;
    const made = `${config.name}(**${file.name})`;
    const label = first ? `${name}(${made})` : `${name}(${param}=${made})`;
    return {
      label,
      run: () => {
        const configuration = evaluator.of(config).classes.instantiate(config, { positional: [], keywords }, undefined);
        const passed = { value: configuration };
        return evaluator.classes.instantiate(
          cls,
          first
            ? { positional: [passed], keywords: new Map() }
            : { positional: [], keywords: new Map([[param, passed]]) },
          undefined,
          label,
        );
      },
    };
  }
  if (!takesKeys(evaluator, cls, file.values)) return undefined;
  const label = `${name}(**${file.name})`;
  return { label, run: () => evaluator.classes.instantiate(cls, { positional: [], keywords }, undefined, label) };
}

/**
 * Whether the configuration class takes the file: Hugging Face's names the file's `model_type`; another
 * takes every key as a parameter of its constructor (not through `**kwargs`) or as a dataclass field.
 */
function fits(evaluator: Evaluator, config: ClassValue, values: ReadonlyMap<string, Value>): boolean {
  const modelType = values.get('model_type');
  if (modelType) {
    const named = evaluator.classes.attribute(config, 'model_type', undefined);
    return modelType.t === 'str' && named?.t === 'str' && named.v === modelType.v;
  }
  return (
    takesKeys(evaluator, config, values) ??
    [...values.keys()].every((k) => evaluator.classes.dataclassFields(config).has(k))
  );
}

/**
 * Whether `cls`'s constructor takes every key as a parameter of its own (not through `**kwargs`), and each it
 * needs is among them; undefined when the class has no constructor of its own to tell.
 */
function takesKeys(evaluator: Evaluator, cls: ClassValue, values: ReadonlyMap<string, Value>): boolean | undefined {
  const init = evaluator.classes.method(cls, '__init__');
  if (!init) return undefined;
  const params = evaluator.of(init).scopeAt(init.fragment, init.scope).params.slice(1);
  const named = new Set(params.filter((p) => !p.variadic).map((p) => p.name));
  return (
    [...values.keys()].every((k) => named.has(k)) && params.every((p) => p.default || p.variadic || values.has(p.name))
  );
}
