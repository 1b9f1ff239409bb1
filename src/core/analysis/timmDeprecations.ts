/**
 * timm's deprecated model names: `register_model_deprecations(__name__, {'vit_base_patch16_224_in21k':
 * 'vit_base_patch16_224.augreg_in21k'})` registers each old name as the current factory called with
 * `pretrained_cfg` set to the tag, whose configuration may change the head (21,843 classes for in21k).
 */
import type { Evaluator } from '../interp/evaluator';
import type { SourceModel } from '../ir/source';
import type { Span } from '../ir/expr';
import { registersDeprecations } from '../interp/timmBuilds';
import type { Value } from '../values/value';

export interface DeprecatedModel {
  /** The old name, as `timm.create_model` takes it. */
  readonly name: string;
  /** The current factory, a function of the file. */
  readonly factory: Extract<Value, { t: 'function' }>;
  readonly tag: string;
}

/** The file's deprecated names whose current factory is one of its functions, in the order the maps give them. */
export function deprecatedModels(evaluator: Evaluator, model: SourceModel): DeprecatedModel[] {
  const found: DeprecatedModel[] = [];
  for (const fragment of model.fragments) {
    const [statement] = fragment.body;
    if (fragment.body.length !== 1 || statement.k !== 'expr') continue;
    const call = model.expr(statement.value);
    if (call.k !== 'call' || call.args.length !== 2 || call.args.some((a) => a.name !== undefined || a.spread))
      continue;
    const frame = evaluator.moduleFrame;
    if (!registersDeprecations(evaluator, evaluator.eval(call.callee, frame))) continue;
    const map = evaluator.eval(call.args[1].value, frame);
    if (map.t !== 'dict' || !map.mapping) continue;
    for (const [name, current] of map.fields) {
      if (current.t !== 'str' || !current.v) continue;
      // timm's split_model_name_tag: the name, then everything after its first dot.
      const dot = current.v.indexOf('.');
      const factory = evaluator.names.lookup(dot < 0 ? current.v : current.v.slice(0, dot), frame);
      if (factory.t === 'function') found.push({ name, factory, tag: dot < 0 ? '' : current.v.slice(dot + 1) });
    }
  }
  return found;
}

const KEYS = new WeakMap<SourceModel, ReadonlyMap<string, Span>>();

/**
 * Where the file states a deprecated name: its key in a module-level call's dict display
 * (`register_model_deprecations(__name__, {...})`), read from the syntax alone, once a file.
 */
export function deprecationKey(model: SourceModel, name: string): Span | undefined {
  let keys = KEYS.get(model);
  if (!keys) {
    const found = new Map<string, Span>();
    for (const { body } of model.fragments) {
      const [statement] = body;
      if (body.length !== 1 || statement.k !== 'expr' || !model.text(statement.value).includes('deprecations'))
        continue;
      const call = model.expr(statement.value);
      const map = call.k === 'call' && call.args.length === 2 ? call.args[1].value : undefined;
      if (map?.k !== 'dict') continue;
      for (const { key } of map.entries) if (key?.k === 'str' && !found.has(key.value)) found.set(key.value, key.span);
    }
    KEYS.set(model, (keys = found));
  }
  return keys.get(name);
}
