/**
 * Source models of the other files of the workspace, for the classes and constants a file imports. Files
 * are read through the host's `read` (open editors first, then the disk) and parsed once per content.
 */
import * as path from 'path';
import {
  ANALYSED,
  type ConfigurationFile,
  type Importer,
  type ImportResolver,
  type Language,
  type SourceModel,
  type TargetFile,
  type DataFormat,
} from '../core/ir/source';
import {
  CONFIGURATION_FILES,
  CONFIGURATION_FOLDERS,
  CONFIGURATION_SUFFIXES,
  MAX_CONFIGURATION_FILES,
  readConfigurationFile,
  readData,
} from './configurationFiles';
import type { Grammars, Tree } from './parser';
import { buildModel } from './model';
import { parseText } from './parseText';
import { importedModules } from './pythonImports';
import { notebookText } from './notebookText';
import type { CellLines } from '../core/ir/cellLines';

/** The current text of a file, or undefined when it does not exist (or cannot be read). */
export type ReadText = (file: string) => string | undefined;
/** The names of the files of folder `dir` ending in `suffix`, in order, at most `max`. */
/** The names of the files of a folder ending in `suffix` (its folders for `/`), in order, at most `max`. */
export type ListFiles = (dir: string, suffix: string, max: number) => readonly string[] | undefined;

/** How far up from the importing file an absolute Python import is looked for. */
const SEARCH_LEVELS = 4;
/** The analysed file's folder and those above it searched for files importing it. */
const IMPORTER_LEVELS = 3;
/** Importers run at most: each runs its module and factories in the analysis's budget. */
const MAX_IMPORTERS = 8;
/** Python files of one folder looked at for importers. */
const MAX_LISTED_SOURCES = 128;
/** Subfolders of each of those folders looked at for importers too (a package's sibling modules). */
const MAX_IMPORTER_SUBFOLDERS = 16;
/** Files whose imports are kept listed: a few folders' worth. */
const MAX_IMPORT_LISTS = 1024;
/** How many packages' `__init__.py` an import may pass through to reach the analysed file. */
const PACKAGE_DEPTH = 2;
/** Folders searched for `configs/` trees whose `target`s name a file's classes: its own and those above it. */
const TARGET_LEVELS = 5;
/** Subfolders of a `configs/` folder read (`configs/stable-diffusion/`), in order of name. */
const MAX_TARGET_FOLDERS = 64;
/** Parsed imported files kept: their trees live in WASM memory, which is never garbage-collected. */
const MAX_MODELS = 50;
/** Configuration files kept read: a folder of them holds a few hundred (open_clip's `model_configs/`). */
const MAX_CONFIGURATIONS = 2 * MAX_CONFIGURATION_FILES;

/**
 * The files an import may name, in the order they are tried. An absolute Python import in a package's module
 * (its folder holds an `__init__.py`, `isPackage`) is looked for from above the package, as Python finds it
 * from the project's folder: `from typing import Callable` in timm's `layers/mlp.py` is the standard library's
 * `typing`, not `layers/typing.py`.
 */
export function importCandidates(
  file: string,
  language: Language,
  module: string,
  isPackage: (dir: string) => boolean = () => false,
): string[] {
  const dir = path.dirname(file);
  if (language === 'typescript') {
    if (!module.startsWith('.')) return [];
    const base = path.resolve(dir, module);
    return module.endsWith('.ts') ? [base] : [`${base}.ts`, path.join(base, 'index.ts')];
  }
  const relative = /^(\.+)(.*)$/.exec(module);
  const asFile = (root: string, parts: string[]) =>
    parts.length ? [`${path.join(root, ...parts)}.py`, path.join(root, ...parts, '__init__.py')] : [];
  if (relative) {
    let root = dir;
    for (let i = 1; i < relative[1].length; i++) root = path.dirname(root);
    return asFile(root, relative[2] ? relative[2].split('.') : []);
  }
  const out: string[] = [];
  let root = dir;
  for (let i = 0; i < SEARCH_LEVELS && isPackage(root); i++) {
    const up = path.dirname(root);
    if (up === root) break;
    root = up;
  }
  for (let i = 0; i < SEARCH_LEVELS; i++) {
    out.push(...asFile(root, module.split('.')));
    const up = path.dirname(root);
    if (up === root) break;
    root = up;
  }
  return out;
}

/**
 * Installed packages whose layers and functions the analysis knows itself (its catalog, its torch, its stand-ins
 * for transformers' base classes): their source in an environment is never read in their place.
 */
const KNOWN_PACKAGES: ReadonlySet<string> = new Set([
  'torch',
  'transformers',
  'fairscale',
  'megatron',
  'bitsandbytes',
  'apex',
  'transformer_engine',
  'einops',
  'numpy',
  'tensorflow',
]);

/** The files an absolute import names in the folders of installed packages (site-packages), in order. */
export function installedCandidates(roots: readonly string[], module: string): string[] {
  const parts = module.split('.');
  if (module.startsWith('.') || KNOWN_PACKAGES.has(parts[0])) return [];
  return roots.flatMap((root) => [`${path.join(root, ...parts)}.py`, path.join(root, ...parts, '__init__.py')]);
}

export class WorkspaceModels {
  /** By path; a text the parser gave up on has no tree: parsed again it would give up again. */
  private readonly cache = new Map<string, { text: string; tree?: Tree; model?: SourceModel }>();
  /**
   * Trees of models dropped from the cache, freed when the next analysis starts: the analysis that dropped
   * them may still read a model it resolved earlier, and a freed tree read again is memory reused by others.
   */
  private retired: Tree[] = [];
  /** Notebooks read as importers, by path: their code, as last read. */
  private readonly notebooks = new Map<
    string,
    { json: string; code: { text: string; cells: CellLines } | undefined }
  >();
  /** The files found importing each analysed file, by its path, until it is searched again. */
  private readonly importerPaths = new Map<string, readonly string[]>();
  /** The words of each file's lines that hold `import`, by path (mayImport). */
  private readonly importWords = new Map<string, { text: string; words: ReadonlySet<string> }>();
  /** Whether a folder is a Python package: it holds an `__init__.py`. */
  private readonly isPackage = (dir: string): boolean => this.read(path.join(dir, '__init__.py')) !== undefined;
  /** The modules each file read for its imports names, by path (importedModules). */
  private readonly imports = new Map<string, { text: string; modules: readonly string[] }>();
  /** Configuration files by path, as last read. */
  private readonly configurations = new Map<string, { text: string; data: unknown; version: number }>();
  private configurationVersions = 0;

  constructor(
    private readonly grammars: Grammars,
    private readonly read: ReadText,
    private readonly list?: ListFiles,
    /** The folders of the installed Python packages imports are read from after the workspace's (site-packages). */
    private readonly packages: () => readonly string[] = () => [],
  ) {}

  /**
   * Resolves the imports of `file`; the files it reaches are added to `used`, to know what to watch. The files
   * importing it are searched for again when `rescan` (the file is opened, or a file it reads changed), not at
   * every edit: they are watched, and a new one is found at the next opening.
   */
  resolverFor(file: string, language: Language, used?: Set<string>, rescan = true): ImportResolver {
    for (const tree of this.retired) tree.delete();
    this.retired = [];
    // One answer per module and importing file for the resolver's analysis: the interpreter asks again at each
    // use of an imported name, and a second parse of the same text would be a second module to it.
    const resolved = new Map<string, ReturnType<ImportResolver['resolve']>>();
    const paths = new Map<SourceModel, string>();
    // A script (the analysed file, an importer) finds absolute imports from its own folder, as Python's sys.path
    // starts there; a module it imports, from above the package holding it.
    const resolve = (from: string, module: string, script: boolean) => {
      const installed = language === 'python' ? installedCandidates(this.packages(), module) : [];
      for (const candidate of [
        ...importCandidates(from, language, module, script ? undefined : this.isPackage),
        ...installed,
      ]) {
        // A file never imports itself (timm's `layers/typing.py` imports the standard library's `typing`).
        if (candidate === from) continue;
        if (candidate === file) return ANALYSED;
        const model = this.model(candidate, language);
        if (model) {
          used?.add(candidate);
          paths.set(model, candidate);
          return model;
        }
      }
      return undefined;
    };
    const at = (from: string, script = false): ImportResolver => ({
      resolve: (module) => {
        const key = `${from}\0${module}`;
        if (!resolved.has(key)) resolved.set(key, resolve(from, module, script));
        return resolved.get(key);
      },
      resolverOf: (model) => {
        const path_ = paths.get(model);
        return path_ === undefined ? undefined : at(path_);
      },
      nameOf: (model) => {
        const path_ = paths.get(model);
        return path_ === undefined ? undefined : this.moduleName(path_);
      },
      dataFile: (name, format) => this.dataFile(from, name, format, used),
    });
    let files: ConfigurationFile[] | undefined;
    let targets: TargetFile[] | undefined;
    let importers: Importer[] | undefined;
    return {
      ...at(file, true),
      configurationFiles: () => (files ??= this.configurationFiles(file, language, used)),
      targetFiles: () => (targets ??= this.targetFiles(file, language, used)),
      importers: () =>
        (importers ??= this.importersOf(file, language, used, rescan).map((importer) => {
          paths.set(importer.model, importer.path);
          const { cells } = this.code(importer.path) ?? {};
          return {
            name: importer.name,
            model: importer.model,
            resolver: at(importer.path, true),
            ...(cells
              ? { cells }
              : {
                  // Named from the analysed file's folder, as the configurations it lists are.
                  targetFiles: () => this.targetFiles(importer.path, language, used, path.dirname(file)),
                  configurationFiles: () => this.configurationFiles(importer.path, language, used, path.dirname(file)),
                }),
          };
        })),
    };
  }

  /**
   * The Python files and notebooks beside `file`, in the folders above it (IMPORTER_LEVELS) and in their
   * subfolders (MAX_IMPORTER_SUBFOLDERS each) that import it,
   * directly or through a package's `__init__.py` (`from .modeling import Sam`), at most MAX_IMPORTERS, in order
   * of path.
   * A file whose lines holding `import` name neither the module nor its package is not parsed.
   */
  private importersOf(
    file: string,
    language: Language,
    used: Set<string> | undefined,
    rescan: boolean,
  ): { path: string; name: string; model: SourceModel }[] {
    const listFiles = this.list;
    if (language !== 'python' || !listFiles) return [];
    const folder = path.dirname(file);
    const importer = (candidate: string, model: SourceModel) => {
      used?.add(candidate);
      return { path: candidate, name: nameFrom(folder, candidate), model };
    };
    const known = rescan ? undefined : this.importerPaths.get(file);
    if (known)
      return known.flatMap((candidate) => {
        const model = this.model(candidate, language);
        return model ? [importer(candidate, model)] : [];
      });
    const stem = path.basename(file, '.py');
    const named = [stem, path.basename(folder)];
    const found: { path: string; name: string; model: SourceModel }[] = [];
    let dir = folder;
    let below: string | undefined;
    for (let level = 0; level < IMPORTER_LEVELS && found.length < MAX_IMPORTERS; level++) {
      const list = (where: string) => [
        ...(listFiles(where, '.py', MAX_LISTED_SOURCES) ?? []).map((name) => path.join(where, name)),
        ...(listFiles(where, '.ipynb', MAX_LISTED_SOURCES) ?? []).map((name) => path.join(where, name)),
      ];
      // The folder, then its subfolders but the one searched already: dinov2's `models/` builds `layers/`'s blocks.
      const subfolders = (listFiles(dir, '/', MAX_IMPORTER_SUBFOLDERS) ?? []).filter(
        (sub) => path.join(dir, sub) !== below && !/^(\.|__pycache__$|node_modules$)/.test(sub),
      );
      const sources = [...list(dir), ...subfolders.flatMap((sub) => list(path.join(dir, sub)))];
      for (const candidate of sources) {
        const name = path.basename(candidate);
        if (candidate === file || name === '__init__.py') continue;
        const text = this.code(candidate)?.text;
        if (text === undefined || !this.mayImport(candidate, text, named)) continue;
        // Parsed once, as the model it is run from: a file that names the module beside `import` most often imports it.
        const model = this.model(candidate, language);
        if (!model || !this.reaches(candidate, text, file, language, PACKAGE_DEPTH)) continue;
        found.push(importer(candidate, model));
        if (found.length >= MAX_IMPORTERS) break;
      }
      const up = path.dirname(dir);
      if (up === dir) break;
      below = dir;
      dir = up;
    }
    remember(
      this.importerPaths,
      file,
      found.map((f) => f.path),
      MAX_MODELS,
    );
    return found;
  }

  /**
   * Whether a line of the text that holds `import` has one of `names` as a word: a file that does not is no
   * importer of the module (nor of its package), and is not parsed. The words are listed once per text.
   */
  private mayImport(file: string, text: string, names: readonly string[]): boolean {
    let known = this.importWords.get(file);
    if (known?.text !== text) {
      const words = new Set<string>();
      for (const line of text.split('\n'))
        if (line.includes('import')) for (const word of line.split(/[^A-Za-z0-9_]+/)) words.add(word);
      known = { text, words };
      remember(this.importWords, file, known, MAX_IMPORT_LISTS);
    }
    return names.some((n) => known.words.has(n));
  }

  /** Whether the file at `from` (its text) imports `file`, or a package whose `__init__.py` does, `depth` packages deep. */
  private reaches(from: string, text: string, file: string, language: Language, depth: number): boolean {
    // The candidate runs as a script; a package it imports, as a module.
    const isPackage = depth === PACKAGE_DEPTH ? undefined : this.isPackage;
    for (const module of this.importedModules(from, text, language))
      for (const candidate of importCandidates(from, language, module, isPackage)) {
        if (candidate === file) return true;
        if (depth === 0 || path.basename(candidate) !== '__init__.py') continue;
        const init = this.read(candidate);
        if (init !== undefined && this.reaches(candidate, init, file, language, depth - 1)) return true;
      }
    return false;
  }

  /**
   * The modules a file's import statements name (`pkg.model` for `from pkg import model` too, since the member
   * may be a module), read once per text: the workspace's files are read for them at every analysis, and parsed
   * only once, not kept as models (the parse cache holds what analyses use).
   */
  private importedModules(file: string, text: string, language: Language): readonly string[] {
    const known = this.imports.get(file);
    if (known?.text === text) return known.modules;
    const tree = this.grammars.parse(language, text);
    const modules = tree ? importedModules(tree.rootNode, text) : [];
    tree?.delete();
    remember(this.imports, file, { text, modules }, MAX_IMPORT_LISTS);
    return modules;
  }

  /**
   * The configuration files beside a Python file that exist, each read once per text (a file of a megabyte is
   * not read again at every key typed in the model); each is watched as an import is. `from`: the folder they are
   * named from, when it is not the file's (an importer's are named from the analysed file's).
   */
  private configurationFiles(file: string, language: Language, used?: Set<string>, from?: string): ConfigurationFile[] {
    if (language !== 'python') return [];
    const dir = path.dirname(file);
    const names = [
      ...CONFIGURATION_FILES,
      ...CONFIGURATION_FOLDERS.flatMap((folder) =>
        CONFIGURATION_SUFFIXES.flatMap((suffix) =>
          (this.list?.(path.join(dir, folder), suffix, MAX_CONFIGURATION_FILES) ?? []).map(
            (name) => `${folder}/${name}`,
          ),
        ),
      ),
    ];
    return names.flatMap((name) => {
      const full = path.join(dir, name);
      const read = this.configurationFile(full, from === undefined ? name : nameFrom(from, full), used);
      return read ? [read] : [];
    });
  }

  /** A file `from` opens by the relative path `name`, read as `format`'s loader reads it, and watched. */
  private dataFile(from: string, name: string, format: DataFormat, used?: Set<string>): ConfigurationFile | undefined {
    if (path.isAbsolute(name) || name.includes('\0')) return undefined;
    const full = path.join(path.dirname(from), name);
    const text = this.read(full);
    if (text === undefined) return undefined;
    used?.add(full);
    const key = `${format}\0${full}`;
    let read = this.configurations.get(key);
    if (read?.text !== text) {
      read = { text, data: readData(format, text), version: this.configurationVersions++ };
      remember(this.configurations, key, read, MAX_CONFIGURATIONS);
    }
    return { name, data: read.data, version: read.version };
  }

  /**
   * A configuration file read once per text, named `name`, and watched: an importer names it from another folder
   * than the file beside it does, and neither parses it again.
   */
  private configurationFile(full: string, name: string, used?: Set<string>): ConfigurationFile | undefined {
    const text = this.read(full);
    if (text === undefined) return undefined;
    used?.add(full);
    let read = this.configurations.get(full);
    if (read?.text !== text) {
      read = { text, data: readConfigurationFile(full, text), version: this.configurationVersions++ };
      remember(this.configurations, full, read, MAX_CONFIGURATIONS);
    }
    return { name, data: read.data, version: read.version };
  }

  /**
   * The configuration files of the `configs/` folders (and their subfolders) of a Python file's folder and the
   * folders above it, each with the file's module as that folder imports it (`ldm.modules.diffusionmodules.
   * openaimodel` from the repository holding `ldm/` and `configs/`), named from the file's folder (or `from`).
   */
  private targetFiles(file: string, language: Language, used?: Set<string>, from?: string): TargetFile[] {
    if (language !== 'python' || !file.endsWith('.py') || !this.list) return [];
    const folder = path.dirname(file);
    const namedFrom = from ?? folder;
    const parts = [path.basename(file, '.py')];
    const out: TargetFile[] = [];
    for (let dir = folder, level = 0; level < TARGET_LEVELS; level++) {
      if (parts.every((p) => /^[A-Za-z_]\w*$/.test(p)))
        for (const configs of CONFIGURATION_FOLDERS.map((f) => path.join(dir, f))) {
          const folders = ['', ...(this.list(configs, '/', MAX_TARGET_FOLDERS) ?? [])];
          for (const sub of folders)
            for (const suffix of CONFIGURATION_SUFFIXES)
              for (const name of this.list(path.join(configs, sub), suffix, MAX_CONFIGURATION_FILES) ?? []) {
                const full = path.join(configs, sub, name);
                const read = this.configurationFile(full, nameFrom(namedFrom, full), used);
                if (read) out.push({ ...read, module: parts.join('.') });
              }
        }
      const up = path.dirname(dir);
      if (up === dir) break;
      parts.unshift(path.basename(dir));
      dir = up;
    }
    return out;
  }

  /**
   * The Python code of a file: a `.py` file's text, or a notebook's code cells joined, with where they lie
   * (read once per text of the notebook); undefined when it cannot be read or is no notebook.
   */
  private code(file: string): { text: string; cells?: CellLines } | undefined {
    const text = this.read(file);
    if (text === undefined || !file.endsWith('.ipynb')) return text === undefined ? undefined : { text };
    const known = this.notebooks.get(file);
    if (known?.json === text) return known.code;
    let code: { text: string; cells: CellLines } | undefined;
    try {
      code = notebookText(text);
    } catch {
      code = undefined;
    }
    remember(this.notebooks, file, { json: text, code }, MAX_MODELS);
    return code;
  }

  /** `timm.models._builder` for `.../timm/models/_builder.py`: the folders above it that are packages, dotted. */
  private moduleName(file: string): string {
    const parts = path.basename(file) === '__init__.py' ? [] : [path.basename(file, path.extname(file))];
    let dir = path.dirname(file);
    while (this.isPackage(dir) && path.dirname(dir) !== dir) {
      parts.unshift(path.basename(dir));
      dir = path.dirname(dir);
    }
    return parts.join('.');
  }

  private model(file: string, language: Language): SourceModel | undefined {
    const text = this.code(file)?.text;
    if (text === undefined) return undefined;
    const cached = this.cache.get(file);
    if (cached?.text === text) {
      // Most recently used last, so that the oldest entry is the first to go.
      this.cache.delete(file);
      this.cache.set(file, cached);
      return cached.model;
    }
    if (cached?.tree) this.retired.push(cached.tree);
    this.cache.delete(file);
    const parsed = parseText(this.grammars, language, text);
    const model = parsed && buildModel(language, parsed.tree, parsed.text);
    this.cache.set(file, { text, tree: parsed?.tree, model });
    // Its import statements, for the search for files importing another, without a parse of their own.
    if (parsed && language === 'python')
      remember(
        this.imports,
        file,
        { text, modules: importedModules(parsed.tree.rootNode, parsed.text) },
        MAX_IMPORT_LISTS,
      );
    for (const [oldest, entry] of this.cache) {
      if (this.cache.size <= MAX_MODELS) break;
      if (entry.tree) this.retired.push(entry.tree);
      this.cache.delete(oldest);
    }
    return model;
  }

  dispose(): void {
    for (const entry of this.cache.values()) entry.tree?.delete();
    for (const tree of this.retired) tree.delete();
    this.retired = [];
    this.cache.clear();
  }
}

/** Sets `key` as the most recently used entry of `map`, dropping the least recently used past `max`. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const [oldest] of map) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}

/** `../build.py`: a file's path from a folder, with `/`, as configurations name the file stating them. */
function nameFrom(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}
