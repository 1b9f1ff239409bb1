/**
 * Names: a lookup through the running frames to the module's, then the file's imports and top-level
 * definitions (defined further down), then the built-ins; `def`/`class` statements binding their name;
 * imports followed into the other files of the workspace. Each module-level read is recorded for reuse.
 */
import { canonicalPath } from '../ir/imports';
import { moduleNames, type ModuleName } from '../ir/moduleNames';
import type { ImportBinding, Scope, SourceModel } from '../ir/source';
import type { Value } from '../values/value';
import { BUILTIN_NAMES } from './builtins';
import type { Environments, Frame } from './frame';
import type { Reads } from './hooks';
import { valueKey, type DefiningFiles } from '../values/valueKey';

/** What names need of the interpreter: its file, its module frame, and the files it imports. */
export interface NamesContext extends DefiningFiles {
  readonly model: SourceModel;
  readonly file: number;
  readonly language: SourceModel['language'];
  readonly moduleName: string;
  readonly moduleFrame: Frame;
  /** What the statement running now reads, while a run is recorded. */
  readonly reads: Reads | undefined;
  readonly shared: { readonly environments: Environments };
  scopeAt(fragment: number, scope: number): Scope;
  imported(
    module: string,
  ): { readonly moduleFrame: Frame; readonly names: { global(name: string): Value } } | undefined;
}

/** A module-level name as the file defines it: an import or a top-level class or function, and where. */
interface Global {
  readonly fragment: number;
  readonly import?: ImportBinding;
  readonly def?: { readonly fragment: number; readonly scope: number };
}

/** A file's module names by name, kept with the list they were read from (the next version may keep it). */
interface Index {
  readonly globals: Map<string, Global>;
  /** Module names imported or defined more than once (`from x import A` and `class A`, two `def f`). */
  readonly repeated: Set<string>;
  /** The modules whose names `export * from` passes on. */
  readonly stars: string[];
}

const INDEXES = new WeakMap<readonly ModuleName[], Index>();

export class Names {
  private index: Index | undefined;
  private ids: number[] | undefined;
  private idSet: Set<number> | undefined;
  /** The fragment (by index) whose module-level statement last bound each module name. */
  private readonly origins = new Map<string, number>();
  /** The names being looked up through `export * from` now. */
  private readonly passing = new Set<string>();

  constructor(private readonly ev: NamesContext) {}

  /** A module-level statement bound `name` (in the fragment the module frame is running). */
  bound(name: string, fragment: number): void {
    this.origins.set(name, fragment);
  }

  /** The id of the statement that binds module name `name` now (after the module ran), or 0 for none. */
  originOf(name: string): number {
    const fi = this.origins.get(name);
    if (fi !== undefined) return this.fragmentIds[fi];
    const found = this.indexed().globals.get(name);
    return found ? this.fragmentIds[found.fragment] : 0;
  }

  /** Each statement's id, by index: read from one array, not from thousands of statements. */
  get fragmentIds(): readonly number[] {
    return (this.ids ??= this.ev.model.fragments.map((f) => f.id));
  }

  /** The statements' ids, for the runs of the last version that ask whether what they read is still there. */
  get fragmentIdSet(): ReadonlySet<number> {
    return (this.idSet ??= new Set(this.fragmentIds));
  }

  lookup(name: string, frame: Frame): Value {
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      const v = f.vars.get(name);
      if (v === undefined) continue;
      // A statement that binds it may be the same in the next version, and its value not (`X = width()`).
      const reads = this.ev.reads;
      if (f.isModule && reads && !reads.values.has(name)) reads.values.set(name, valueKey(this.ev, v));
      return v;
    }
    this.ev.reads?.names.set(name, this.originOf(name));
    const module = this.ev.moduleFrame.vars.get(name);
    if (module !== undefined) return module;
    return this.global(name);
  }

  /** A module-level name not bound yet: a class or function (defined further down), an import, a built-in. */
  global(name: string): Value {
    const found = this.indexed().globals.get(name);
    this.ev.reads?.names.set(name, found ? this.fragmentIds[found.fragment] : 0);
    if (found?.import) return this.binding(found.import);
    if (found?.def) return this.definition(found.def.fragment, found.def.scope, undefined);
    const passed = found ? undefined : this.starred(name);
    if (passed) return passed;
    if (BUILTIN_NAMES[this.ev.language].has(name)) return { t: 'ref', path: `builtins.${name}` };
    if (name === '__name__' && this.ev.language === 'python') return { t: 'str', v: this.ev.moduleName };
    return { t: 'sym', name };
  }

  /** What an import binds: the other file's definition, or the library's name by its canonical path. */
  binding(imp: ImportBinding): Value {
    return (
      (imp.member && this.importedName(imp.module, imp.member)) || {
        t: 'ref',
        path: canonicalPath(imp.module, imp.member),
      }
    );
  }

  /** A name that `export * from './blocks'` passes on: the first such module that has it (cycles end here). */
  private starred(name: string): Value | undefined {
    if (this.passing.has(name) || this.unstarred.has(name)) return undefined;
    this.passing.add(name);
    try {
      // Python's `import *` passes on no name starting with an underscore.
      if (this.ev.language === 'python' && name.startsWith('_')) return undefined;
      for (const module of this.indexed().stars) {
        const v = this.importedName(module, name);
        if (v) return v;
      }
      // A built-in (`isinstance`, `len`) is asked for at every call: the chains of `import *` of a package
      // (timm's layers) are walked once an analysis, unless a run records what it reads.
      if (!this.ev.reads && BUILTIN_NAMES[this.ev.language].has(name)) this.unstarred.add(name);
      return undefined;
    } finally {
      this.passing.delete(name);
    }
  }

  /** Built-in names no `import *` of the file passes on, found so this analysis. */
  private readonly unstarred = new Set<string>();

  private indexed(): Index {
    if (this.index) return this.index;
    const names = moduleNames(this.ev.model);
    let index = INDEXES.get(names);
    if (!index) INDEXES.set(names, (index = indexGlobals(names)));
    return (this.index = index);
  }

  /**
   * Whether the module run must bind definition `name` where it stands: a name nothing bound before and
   * that is defined once is what a lookup finds among the file's definitions anyway. A frame of the
   * thousands of classes of a large file would be built again on every key typed.
   */
  mustBind(name: string): boolean {
    return this.indexed().repeated.has(name) || this.ev.moduleFrame.vars.has(name);
  }

  /** The value a `def` / `class` statement binds. */
  definition(fragment: number, scope: number, closure: Frame | undefined): Value {
    const s = this.ev.scopeAt(fragment, scope);
    const ref = { name: s.name, fragment, scope, file: this.ev.file };
    return s.kind === 'class'
      ? { t: 'class', ...ref }
      : {
          t: 'function',
          ...ref,
          closure: closure && !closure.isModule ? this.ev.shared.environments.numberOf(closure) : undefined,
        };
  }

  define(scope: number, frame: Frame): void {
    const s = this.ev.model.fragments[frame.fragment].scopes[scope];
    frame.set(s.name, this.definition(frame.fragment, scope, frame));
    if (frame === this.ev.moduleFrame) this.origins.set(s.name, frame.fragment);
  }

  /** `from .blocks import Block`: the class, function or constant as the other file defines it. */
  importedName(module: string, member: string): Value | undefined {
    // Files importing a name from each other in a circle (a package's `__init__.py` and its modules) name no
    // definition: Python raises ImportError there.
    const key = `${module}\0${member}`;
    if (this.importing.has(key)) return undefined;
    const other = this.ev.imported(module);
    if (!other) return undefined;
    this.importing.add(key);
    try {
      const v = other.moduleFrame.vars.get(member) ?? other.names.global(member);
      return v.t === 'sym' ? undefined : v;
    } finally {
      this.importing.delete(key);
    }
  }

  /** The imported names being looked up in other files, as `module\0member`. */
  private readonly importing = new Set<string>();
}

/** The file's imports and top-level definitions by name, the first of each. */
function indexGlobals(names: readonly ModuleName[]): Index {
  const index: Index = { globals: new Map(), repeated: new Set(), stars: [] };
  const { globals, repeated } = index;
  for (const n of names) {
    if ('kind' in n) {
      if (!globals.has(n.name))
        globals.set(n.name, { fragment: n.fragment, def: { fragment: n.fragment, scope: n.scope } });
      else repeated.add(n.name);
    } else if (n.import.local === '*') index.stars.push(n.import.module);
    else if (!globals.has(n.import.local)) globals.set(n.import.local, { fragment: n.fragment, import: n.import });
    else repeated.add(n.import.local);
  }
  return index;
}
