/** Which files a list of paths names: folders are searched, and only regular files are ever read. */
import { promises as fs } from 'fs';
import * as path from 'path';
import type { Language } from '../core/source';

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
}

export async function collectFiles(targets: readonly string[]): Promise<Collected> {
  const found: Collected = { files: [], problems: [] };
  for (const target of targets) {
    // Paths named on the command line are followed even when they are symlinks, as the user asked for them.
    let stat;
    try {
      stat = await fs.stat(target);
    } catch (e) {
      found.problems.push(`cannot read ${target}: ${reason(e)}`);
      continue;
    }
    if (stat.isDirectory()) await walk(target, found);
    else if (!stat.isFile()) found.problems.push(`cannot read ${target}: not a regular file`);
    else add(target, found, `cannot read ${target}: not a .py, .ts or .ipynb file`);
  }
  return found;
}

/** Symlinked folders are not entered (a link to a parent would never end); FIFOs and devices are skipped. */
async function walk(dir: string, found: Collected): Promise<void> {
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
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(full, found);
    } else if (e.isFile()) {
      add(full, found);
    } else if (e.isSymbolicLink() && languageOf(e.name)) {
      await followFileLink(full, found);
    }
  }
}

async function followFileLink(link: string, found: Collected): Promise<void> {
  try {
    if ((await fs.stat(link)).isFile()) add(link, found);
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
