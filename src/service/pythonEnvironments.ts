/**
 * The folders of installed Python packages (site-packages) that imports are read from after the workspace's:
 * an environment's (a virtual environment, a conda environment, an interpreter's prefix), found on disk
 * without running its interpreter.
 */
import { readdirSync, statSync } from 'fs';
import * as path from 'path';

/** The virtual environments a workspace folder may hold, as `python -m venv` and tools name them. */
const WORKSPACE_ENVIRONMENTS: readonly string[] = ['.venv', 'venv'];

/**
 * The package folders `given` names: a site-packages folder itself, an environment (its
 * `lib/python3.X/site-packages`, or `Lib/site-packages` on Windows), or an interpreter in one (`bin/python`,
 * `Scripts\python.exe`). None where it is none of them.
 */
export function sitePackagesOf(given: string): string[] {
  const base = path.basename(given);
  if (base === 'site-packages' || base === 'dist-packages') return isFolder(given) ? [given] : [];
  const parent = path.dirname(given);
  const environment = isFolder(given)
    ? given
    : ['bin', 'Scripts'].includes(path.basename(parent))
      ? path.dirname(parent)
      : parent === given
        ? undefined
        : parent;
  if (!environment) return [];
  const windows = path.join(environment, 'Lib', 'site-packages');
  const found = pythonFolders(path.join(environment, 'lib')).map((v) =>
    path.join(environment, 'lib', v, 'site-packages'),
  );
  return [...found, windows].filter(isFolder);
}

/** The site-packages of the virtual environments in the workspace folders (`.venv`, `venv`). */
export function workspacePackages(folders: readonly string[]): string[] {
  return folders.flatMap((f) => WORKSPACE_ENVIRONMENTS.flatMap((name) => sitePackagesOf(path.join(f, name))));
}

/** `python3.11` and the like in an environment's `lib`, newest first. */
function pythonFolders(lib: string): string[] {
  try {
    return readdirSync(lib)
      .filter((name) => /^python\d+(\.\d+)*t?$/.test(name))
      .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
  } catch {
    return [];
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
