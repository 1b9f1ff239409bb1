/**
 * The files an editor's documents import: read from the workspace folders (which come and go), an editor's
 * unsaved text of a file before the disk.
 */
import type { ListFiles, ReadText } from '../syntax/workspaceModels';
import { WorkspaceFileReader } from './workspaceFileReader';

export class EditorFiles {
  /** Editors' texts of files on disk, by path. */
  private readonly open = new Map<string, string>();
  private folders: readonly string[];
  readonly read: ReadText;
  readonly list: ListFiles;

  constructor(folders: readonly string[]) {
    this.folders = folders;
    const reader = new WorkspaceFileReader(() => this.folders);
    this.read = (file) => reader.read(file, (real) => this.open.get(real));
    this.list = (dir, suffix, max) => reader.list(dir, suffix, max);
  }

  setFolders(folders: readonly string[]): void {
    this.folders = folders;
  }

  /** An editor's text of `path`, or none once it is closed. */
  openText(path: string, text: string | undefined): void {
    if (text === undefined) this.open.delete(path);
    else this.open.set(path, text);
  }
}
