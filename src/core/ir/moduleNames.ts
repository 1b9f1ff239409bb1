/**
 * What a file defines and imports at module level, in order, read in one pass over its statements. The runs
 * of an analysis (the module body, the index of names, the classes built with their defaults, factories)
 * walk this list instead of every statement's scopes: in a file of thousands of statements each such walk
 * is mostly waiting for memory. The list names statements and scopes by index only, so that the next
 * version of a document keeps it while an edit leaves every statement's imports and definitions as they were.
 */
import type { ImportBinding, Scope, SourceModel } from './source';

/** A class or function defined at module level: scope `scope` of statement `fragment`. */
export interface Definition {
  readonly fragment: number;
  readonly scope: number;
  readonly name: string;
  readonly kind: Scope['kind'];
  /** Its body does more than define methods (`Scope.code`). */
  readonly code: boolean;
}

export type ModuleName = { readonly fragment: number; readonly import: ImportBinding } | Definition;

/** A version's list, with the statement ids it was read from, for the next version. */
export interface KeptNames {
  readonly ids: readonly number[];
  readonly names: readonly ModuleName[];
}

const NAMES = new WeakMap<SourceModel, readonly ModuleName[]>();

/** Each statement's imports, then its module-level definitions, statement by statement. */
export function moduleNames(model: SourceModel): readonly ModuleName[] {
  let names = NAMES.get(model);
  if (!names) {
    const found: ModuleName[] = [];
    model.fragments.forEach((fragment, fi) => {
      for (const binding of fragment.imports) found.push({ fragment: fi, import: binding });
      for (const si of fragment.defs) found.push(definition(fragment.scopes[si], fi, si));
    });
    NAMES.set(model, (names = found));
  }
  return names;
}

/**
 * Takes the last version's list for `model` (statement ids `ids`) when the statements are the same ones at
 * the same places, those an edit replaced importing and defining what they did.
 */
export function keepModuleNames(model: SourceModel, ids: readonly number[], last: KeptNames | undefined): void {
  if (!last || last.ids.length !== ids.length || NAMES.has(model)) return;
  let at = 0;
  for (let fi = 0; fi < ids.length; fi++) {
    const first = at;
    while (at < last.names.length && last.names[at].fragment === fi) at++;
    if (ids[fi] !== last.ids[fi] && !sameNames(model, fi, last.names.slice(first, at))) return;
  }
  NAMES.set(model, last.names);
}

function sameNames(model: SourceModel, fi: number, was: readonly ModuleName[]): boolean {
  const { imports, defs, scopes } = model.fragments[fi];
  if (was.length !== imports.length + defs.length) return false;
  return was.every((n, i) => {
    if ('import' in n) {
      const b = imports[i];
      return (
        b !== undefined && b.local === n.import.local && b.module === n.import.module && b.member === n.import.member
      );
    }
    const si = defs[i - imports.length];
    const s = scopes[si];
    return s !== undefined && si === n.scope && s.name === n.name && s.kind === n.kind && s.code === n.code;
  });
}

function definition(s: Scope, fragment: number, scope: number): Definition {
  return { fragment, scope, name: s.name, kind: s.kind, code: s.code };
}

const DEFINITIONS = {
  class: new WeakMap<readonly ModuleName[], readonly Definition[]>(),
  function: new WeakMap<readonly ModuleName[], readonly Definition[]>(),
};

/** The module-level classes or functions of the file, in order. */
export function definitions(model: SourceModel, kind: Scope['kind']): readonly Definition[] {
  const names = moduleNames(model);
  let found = DEFINITIONS[kind].get(names);
  if (!found)
    DEFINITIONS[kind].set(names, (found = names.filter((n): n is Definition => 'kind' in n && n.kind === kind)));
  return found;
}
