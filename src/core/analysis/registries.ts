/**
 * Registries of factories: a module-level dict whose string keys name top-level functions that build a model with
 * their defaults (segment-anything's `sam_model_registry = {"vit_b": build_sam_vit_b, ...}`). Each entry names the
 * factory's configuration (`build_sam_vit_b()`) too: `--config vit_b` or `--config sam_model_registry['vit_b']`
 * picks it.
 */
import type { Evaluator } from '../interp/evaluator';
import { modelOf, namesConfiguration, pythonString } from './documented';
import { isTainted } from '../values/value';

/** Each factory's context with the entries naming it, in the order the registries list them. */
export type Registered = Map<string, string[]>;

/** The registries of a file whose module has run, added to `into`. */
export function registriesOf(evaluator: Evaluator, into: Registered = new Map()): Registered {
  for (const [name, value] of evaluator.moduleFrame.vars) {
    if (value.t !== 'dict' || !value.mapping || isTainted(value)) continue;
    for (const [key, fn] of value.fields) {
      if (fn.t !== 'function' || fn.self) continue;
      const scope = evaluator.of(fn).model.fragments[fn.fragment].scopes[fn.scope];
      if (scope.parent !== -1 || !scope.params.every((p) => p.default || p.variadic)) continue;
      const context = `${scope.name}()`;
      const names = into.get(context) ?? [];
      names.push(`${name}[${pythonString(key)}]`);
      into.set(context, names);
    }
  }
  return into;
}

/** Whether `name` is one of the entries, as written or by its key (`vit_b`). */
export function namesRegistered(entries: readonly string[], name: string): boolean {
  return entries.some((e) => e === name || e.endsWith(`[${pythonString(name)}]`));
}

/** Whether `name` names a configuration as `--config` takes it: its own names, or a registry's entry for it. */
export function namesListed(
  name: string,
  c: { readonly context: string; readonly registered?: readonly string[] },
): boolean {
  return namesConfiguration(name, modelOf(c.context)) || namesRegistered(c.registered ?? [], name);
}

/** The contexts the names pick through the registries. */
export function registeredContexts(registered: Registered, names: readonly string[]): string[] {
  return [...registered].filter(([, entries]) => names.some((n) => namesRegistered(entries, n))).map(([c]) => c);
}
