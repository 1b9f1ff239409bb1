/**
 * The files an editor's documents import: read from the workspace folders (which come and go) and the folders
 * of the installed Python packages, an editor's unsaved text of a file before the disk.
 */
import type { ListFiles, ReadText } from '../syntax/workspaceModels';
import { WorkspaceFileReader } from './workspaceFileReader';

/** Where imported files are read: the workspace folders, then the installed packages' folders (site-packages). */
export interface Roots {
  readonly folders: readonly string[];
  readonly packages: readonly string[];
}

export class EditorFiles {
  /** Editors' texts of files on disk, by path. */
  private readonly open = new Map<string, string>();
  private roots: Roots;
  readonly read: ReadText;
  readonly list: ListFiles;
  readonly packages = (): readonly string[] => this.roots.packages;

  constructor(roots: Roots) {
    this.roots = roots;
    const reader = new WorkspaceFileReader(() => [...this.roots.folders, ...this.roots.packages]);
    this.read = (file) => reader.read(file, (real) => this.open.get(real));
    this.list = (dir, suffix, max) => reader.list(dir, suffix, max);
  }

  setRoots(roots: Roots): void {
    this.roots = roots;
  }

  /** An editor's text of `path`, or none once it is closed. */
  openText(path: string, text: string | undefined): void {
    if (text === undefined) this.open.delete(path);
    else this.open.set(path, text);
  }
}
