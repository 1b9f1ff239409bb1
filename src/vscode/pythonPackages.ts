/**
 * The folders of the installed Python packages the analysis reads imports from: the `attentionLens.pythonPackages`
 * setting, else the environment the Python extension has selected (through its API, when it is active), else a
 * `.venv` or `venv` in the workspace. Nothing is run to find them.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { sitePackagesOf, workspacePackages } from '../service/pythonEnvironments';
import { SECTION } from './settings';

/** What the Python extension's API gives here (ms-python.python's `environments`), reduced to what is read. */
interface PythonEnvironments {
  getActiveEnvironmentPath(resource?: vscode.Uri): { readonly path: string };
  resolveEnvironment(path: string): Promise<{ readonly executable?: { readonly sysPrefix?: string } } | undefined>;
  readonly onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
}

function pythonEnvironments(): PythonEnvironments | undefined {
  const python = vscode.extensions.getExtension<{ environments?: PythonEnvironments }>('ms-python.python');
  return python?.isActive ? python.exports?.environments : undefined;
}

/** The package folders, for the workspace folders on disk. */
export async function packageFolders(folders: readonly string[]): Promise<string[]> {
  const configured = vscode.workspace.getConfiguration(SECTION).get<unknown>('pythonPackages');
  // A relative path is the workspace's (`.venv`), as the Python extension reads its own.
  if (Array.isArray(configured) && configured.length)
    return configured
      .filter((p): p is string => typeof p === 'string')
      .map((p) => (path.isAbsolute(p) || !folders.length ? p : path.join(folders[0], p)))
      .flatMap(sitePackagesOf);
  const selected = await selectedEnvironment();
  return selected?.length ? selected : workspacePackages(folders);
}

async function selectedEnvironment(): Promise<string[] | undefined> {
  const environments = pythonEnvironments();
  if (!environments) return undefined;
  try {
    const active = environments.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
    const prefix = (await environments.resolveEnvironment(active.path))?.executable?.sysPrefix;
    return prefix ? sitePackagesOf(prefix) : sitePackagesOf(active.path);
  } catch {
    return undefined;
  }
}

/** Calls `changed` when the setting or the Python extension's selected environment changes. */
export function onPackagesChanged(changed: () => void): vscode.Disposable {
  const disposables = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.pythonPackages`)) changed();
    }),
  ];
  const selected = pythonEnvironments()?.onDidChangeActiveEnvironmentPath?.(() => changed());
  if (selected) disposables.push(selected);
  return vscode.Disposable.from(...disposables);
}
