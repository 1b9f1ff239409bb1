/**
 * The imported files of one CLI run, each resolved and read once: a run is a snapshot of the folder, and the
 * editor's reader, which checks each path against the workspace folders and the disk again on every read
 * (they change under an editor), spent more time in realpath and lstat than the analysis did.
 */
import type { ReadText } from '../syntax/workspaceModels';
import type { WorkspaceFileReader } from '../service/workspaceFileReader';

/** Characters of imported text kept (1 MB at most each): past them the memo starts again. */
const MAX_KEPT_CHARS = 64_000_000;

export function readOncePerRun(reader: WorkspaceFileReader): ReadText {
  const read = new Map<string, string | undefined>();
  let kept = 0;
  return (file) => {
    if (read.has(file)) return read.get(file);
    const text = reader.read(file);
    if (kept + (text?.length ?? 0) > MAX_KEPT_CHARS) {
      read.clear();
      kept = 0;
    }
    read.set(file, text);
    kept += text?.length ?? 0;
    return text;
  };
}
