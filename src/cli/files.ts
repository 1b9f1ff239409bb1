/** Which files a list of paths names: folders are searched, and only regular files are ever read. */
import { promises as fs } from 'fs';
import * as path from 'path';
import type { Language } from '../core/ir/source';
import { isInside } from '../service/workspaceFileReader';

const LANGUAGES: Record<string, Language> = { '.py': 'python', '.ts': 'typescript', '.ipynb': 'python' };
const SKIP_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', 'dist', 'out']);

export function languageOf(file: string): Language | undefined {
  return file.endsWith('.d.ts') ? undefined : LANGUAGES[path.extname(file)];
}

export function isNotebook(file: string): boolean {
  return path.extname(file) === '.ipynb';
}

export interface SourceFile {
  readonly path: string;
  readonly language: Language;
}

export interface Collected {
  readonly files: SourceFile[];
  /** Paths that could not be searched or read, each with the reason; the rest are still collected. */
  readonly problems: string[];
  /** The folders the paths name (a file's own folder for a file): nothing outside them is read. */
  readonly roots: string[];
}

export async function collectFiles(targets: readonly string[]): Promise<Collected> {
  const found: Collected = { files: [], problems: [], roots: [] };
  for (const target of targets) {
    // Paths named on the command line are followed even when they are symlinks, as the user asked for them.
    let stat;
    try {
      stat = await fs.stat(target);
    } catch (e) {
      found.problems.push(`cannot read ${target}: ${reason(e)}`);
      continue;
    }
    if (stat.isDirectory()) {
      found.roots.push(target);
      await walk(target, found, await fs.realpath(target));
    } else if (!stat.isFile()) found.problems.push(`cannot read ${target}: not a regular file`);
    else {
      found.roots.push(path.dirname(target));
      add(target, found, `cannot read ${target}: not a .py, .ts or .ipynb file`);
    }
  }
  return found;
}

/**
 * Symlinked folders are not entered (a link to a parent would never end); FIFOs and devices are skipped, and
 * so is a link to a file outside the folder given (`x.py -> /proc/self/pagemap`).
 */
async function walk(dir: string, found: Collected, root: string): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    found.problems.push(`cannot read ${dir}: ${reason(e)}`);
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(full, found, root);
    } else if (e.isFile()) {
      add(full, found);
    } else if (e.isSymbolicLink() && languageOf(e.name)) {
      await followFileLink(full, found, root);
    }
  }
}

async function followFileLink(link: string, found: Collected, root: string): Promise<void> {
  try {
    const real = await fs.realpath(link);
    if (!isInside(root, real)) found.problems.push(`not read ${link}: it links outside ${root}`);
    else if ((await fs.stat(real)).isFile()) add(link, found);
  } catch (e) {
    found.problems.push(`cannot read ${link}: ${reason(e)}`);
  }
}

/** Adds `file` when its extension is one the analyser reads, else reports `unsupported` if given. */
function add(file: string, found: Collected, unsupported?: string): void {
  const language = languageOf(file);
  if (language) found.files.push({ path: file, language });
  else if (unsupported) found.problems.push(unsupported);
}

/** `no such file or directory (ENOENT)` from Node's `ENOENT: no such file or directory, stat 'x'`. */
export function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const m = /^([A-Z]+): ([^,]+)/.exec(message);
  return m ? `${m[2]} (${m[1]})` : message;
}
