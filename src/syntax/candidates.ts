/**
 * The callee names worth looking for in one document (the catalog's, plus what its statements declare),
 * kept with how many statements declare each: an edit learns whether the set changed from the statements
 * it replaced, not from a set of every name rebuilt on each key.
 */
import { CATALOG_NAMES } from '../core/catalog';

const CATALOG = new Set(CATALOG_NAMES);

/** The callee names worth looking for: the catalog's, plus what the file's statements declare. */
export function candidateNames(declared: Iterable<readonly string[]>): ReadonlySet<string> {
  const names = new Set(CATALOG);
  for (const list of declared) for (const name of list) names.add(name);
  return names;
}

export class Candidates {
  private readonly counts = new Map<string, number>();
  private names: ReadonlySet<string> = CATALOG;

  get set(): ReadonlySet<string> {
    return this.names;
  }

  /** Counts the names of every statement anew (a new text, or an edit that could not be followed). */
  reset(declared: readonly (readonly string[])[]): void {
    this.counts.clear();
    for (const list of declared) for (const name of list) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    this.names = candidateNames([[...this.counts.keys()]]);
  }

  /** Statements declaring `removed` gave way to statements declaring `added`; whether the set stayed the same. */
  replace(removed: readonly (readonly string[])[], added: readonly (readonly string[])[]): boolean {
    // Net changes only: a statement typed in declares what the one it replaces declared.
    const delta = new Map<string, number>();
    for (const list of removed) for (const name of list) delta.set(name, (delta.get(name) ?? 0) - 1);
    for (const list of added) for (const name of list) delta.set(name, (delta.get(name) ?? 0) + 1);
    let same = true;
    for (const [name, by] of delta) {
      if (by === 0) continue;
      const was = this.counts.get(name) ?? 0;
      const now = was + by;
      if (now > 0) this.counts.set(name, now);
      else this.counts.delete(name);
      if (was > 0 !== now > 0 && !CATALOG.has(name)) same = false;
    }
    if (!same) this.names = candidateNames([[...this.counts.keys()]]);
    return same;
  }
}
