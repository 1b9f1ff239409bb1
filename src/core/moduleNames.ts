/**
 * What a file defines and imports at module level, in order, read in one pass over its statements. The runs
 * of an analysis (the module body, the index of names, the classes built with their defaults, factories)
 * walk this list instead of every statement's scopes: in a file of thousands of statements each such walk
 * is mostly waiting for memory.
 */
import type { ImportBinding, Scope, SourceModel } from './source';

/** A class or function defined at module level: scope `scope` of statement `fragment`. */
export interface Definition {
  readonly fragment: number;
  readonly scope: number;
  readonly def: Scope;
}

export type ModuleName = { readonly fragment: number; readonly import: ImportBinding } | Definition;

const NAMES = new WeakMap<SourceModel, readonly ModuleName[]>();

/** Each statement's imports, then its module-level definitions, statement by statement. */
export function moduleNames(model: SourceModel): readonly ModuleName[] {
  let names = NAMES.get(model);
  if (!names) {
    const found: ModuleName[] = [];
    model.fragments.forEach((fragment, fi) => {
      for (const binding of fragment.imports) found.push({ fragment: fi, import: binding });
      for (const si of fragment.defs) found.push({ fragment: fi, scope: si, def: fragment.scopes[si] });
    });
    NAMES.set(model, (names = found));
  }
  return names;
}

const DEFINITIONS = { class: new WeakMap<SourceModel, readonly Definition[]>(), function: new WeakMap<SourceModel, readonly Definition[]>() };

/** The module-level classes or functions of the file, in order. */
export function definitions(model: SourceModel, kind: Scope['kind']): readonly Definition[] {
  let found = DEFINITIONS[kind].get(model);
  if (!found) DEFINITIONS[kind].set(model, (found = moduleNames(model).filter((n): n is Definition => 'def' in n && n.def.kind === kind)));
  return found;
}
