/**
 * Source models of the other files of the workspace, for the classes and constants a file imports. Files
 * are read through the host's `read` (open editors first, then the disk) and parsed once per content.
 */
import * as path from 'path';
import type { ConfigurationFile, ImportResolver, Language, SourceModel } from '../core/ir/source';
import {
  CONFIGURATION_FILES,
  CONFIGURATION_FOLDERS,
  MAX_CONFIGURATION_FILES,
  readConfiguration,
} from './configurationFiles';
import type { Grammars, Tree } from './parser';
import { buildModel } from './model';
import { parseText } from './parseText';

/** The current text of a file, or undefined when it does not exist (or cannot be read). */
export type ReadText = (file: string) => string | undefined;
/** The names of the files of folder `dir` ending in `suffix`, in order, at most `max`. */
export type ListFiles = (dir: string, suffix: string, max: number) => readonly string[] | undefined;

/** How far up from the importing file an absolute Python import is looked for. */
const SEARCH_LEVELS = 4;
/** Parsed imported files kept: their trees live in WASM memory, which is never garbage-collected. */
const MAX_MODELS = 50;
/** Configuration files kept read: a folder of them holds a few hundred (open_clip's `model_configs/`). */
const MAX_CONFIGURATIONS = 2 * MAX_CONFIGURATION_FILES;

export function importCandidates(file: string, language: Language, module: string): string[] {
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
  for (let i = 0; i < SEARCH_LEVELS; i++) {
    out.push(...asFile(root, module.split('.')));
    const up = path.dirname(root);
    if (up === root) break;
    root = up;
  }
  return out;
}

export class WorkspaceModels {
  /** By path; a text the parser gave up on has no tree: parsed again it would give up again. */
  private readonly cache = new Map<string, { text: string; tree?: Tree; model?: SourceModel }>();
  /**
   * Trees of models dropped from the cache, freed when the next analysis starts: the analysis that dropped
   * them may still read a model it resolved earlier, and a freed tree read again is memory reused by others.
   */
  private retired: Tree[] = [];
  /** Configuration files by path, as last read. */
  private readonly configurations = new Map<string, { text: string; file: ConfigurationFile }>();
  private configurationVersions = 0;

  constructor(
    private readonly grammars: Grammars,
    private readonly read: ReadText,
    private readonly list?: ListFiles,
  ) {}

  /** Resolves the imports of `file`; the files it reaches are added to `used`, to know what to watch. */
  resolverFor(file: string, language: Language, used?: Set<string>): ImportResolver {
    for (const tree of this.retired) tree.delete();
    this.retired = [];
    // One answer per module for the resolver's analysis: the interpreter asks again at each use of an imported
    // name, and a second parse of the same text would be a second module to it.
    const resolved = new Map<string, SourceModel | undefined>();
    const resolve = (module: string) => {
      for (const candidate of importCandidates(file, language, module)) {
        if (candidate === file) continue;
        const model = this.model(candidate, language);
        if (model) {
          used?.add(candidate);
          return model;
        }
      }
      return undefined;
    };
    let files: ConfigurationFile[] | undefined;
    return {
      resolve: (module) => {
        if (!resolved.has(module)) resolved.set(module, resolve(module));
        return resolved.get(module);
      },
      configurationFiles: () => (files ??= this.configurationFiles(file, language, used)),
    };
  }

  /**
   * The configuration files beside a Python file that exist, each read once per text (a file of a megabyte is
   * not read again at every key typed in the model); each is watched as an import is.
   */
  private configurationFiles(file: string, language: Language, used?: Set<string>): ConfigurationFile[] {
    if (language !== 'python') return [];
    const dir = path.dirname(file);
    const names = [
      ...CONFIGURATION_FILES,
      ...CONFIGURATION_FOLDERS.flatMap((folder) =>
        (this.list?.(path.join(dir, folder), '.json', MAX_CONFIGURATION_FILES) ?? []).map(
          (name) => `${folder}/${name}`,
        ),
      ),
    ];
    return names.flatMap((name) => {
      const beside = path.join(dir, name);
      const text = this.read(beside);
      if (text === undefined) return [];
      used?.add(beside);
      let read = this.configurations.get(beside);
      if (read?.text !== text) {
        this.configurations.delete(beside);
        read = { text, file: { name, data: readConfiguration(text), version: this.configurationVersions++ } };
        this.configurations.set(beside, read);
        for (const [oldest] of this.configurations) {
          if (this.configurations.size <= MAX_CONFIGURATIONS) break;
          this.configurations.delete(oldest);
        }
      }
      return [read.file];
    });
  }

  private model(file: string, language: Language): SourceModel | undefined {
    const text = this.read(file);
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
