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
import { int, NONE, type Value } from '../values/value';
import { mayTakeConfiguration } from './configParameter';
import { classKey, configurationTaken, hasTotal } from './runs';

type ClassValue = Extract<Value, { t: 'class' }>;

/**
 * A configuration file's data (syntax/configurationFiles.ts: JSON, an int as a bigint, a float as a number) as the values
 * Python's `json.load` gives, or undefined when it is no object.
 */
export function configurationValues(data: unknown): ReadonlyMap<string, Value> | undefined {
  let value: Value;
  try {
    value = valueOf(data);
  } catch {
    // Nested deeper than the stack: no configuration, as a file Python cannot load.
    return undefined;
  }
  return value.t === 'dict' ? value.fields : undefined;
}

function valueOf(data: unknown): Value {
  if (data === null || data === undefined) return NONE;
  if (typeof data === 'boolean') return { t: 'bool', v: data };
  if (typeof data === 'string') return { t: 'str', v: data };
  if (Array.isArray(data)) return { t: 'seq', items: data.map(valueOf) };
  if (typeof data === 'bigint') return int(data);
  if (typeof data === 'number') return { t: 'float', v: data };
  const fields = new Map<string, Value>();
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) fields.set(k, valueOf(v));
  return { t: 'dict', fields, mapping: true };
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
    if (!mayTakeConfiguration(model, fi, si)) continue;
    for (const file of read) {
      if (evaluator.budget.exhausted) return contexts;
      const context = each(`configuration file ${classKey(model, fi, si)} ${file.name} ${file.version}`, () => {
        const cls = evaluator.names.definition(fi, si, undefined);
        if (cls.t !== 'class' || !evaluator.guard(() => evaluator.classes.needsArguments(cls))) return undefined;
        const taken = configurationTaken(evaluator, cls, false);
        if (!taken || !evaluator.guard(() => fits(evaluator, taken.config, file.values))) return undefined;
        const { config, param, first } = taken;
        const made = `${config.name}(**${file.name})`;
        const label = first ? `${name}(${made})` : `${name}(${param}=${made})`;
        const built = tentative(
          () =>
            evaluator.guard(() => {
              const keywords = new Map([...file.values].map(([k, value]) => [k, { value }]));
              const configuration = evaluator
                .of(config)
                .classes.instantiate(config, { positional: [], keywords }, undefined);
              const passed = { value: configuration };
              return evaluator.classes.instantiate(
                cls,
                first
                  ? { positional: [passed], keywords: new Map() }
                  : { positional: [], keywords: new Map([[param, passed]]) },
                undefined,
                label,
              );
            }),
          hasTotal,
        );
        // Its forward() is not followed, as a preset's is not: the heads a class shows are those of the build
        // it shows (passes.ts).
        return built?.t === 'module' && hasTotal(built) ? label : undefined;
      });
      if (context) contexts.push(context);
    }
  }
  return contexts;
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
  const init = evaluator.classes.method(config, '__init__');
  const taken = init
    ? new Set(
        evaluator
          .of(init)
          .scopeAt(init.fragment, init.scope)
          .params.slice(1)
          .filter((p) => !p.variadic)
          .map((p) => p.name),
      )
    : evaluator.classes.dataclassFields(config);
  return [...values.keys()].every((k) => taken.has(k));
}
