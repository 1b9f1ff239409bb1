/**
 * Reads the files a document imports, from the disk of a Node host (the web host would use
 * workspace.fs). Import paths come from the file being edited, so they are not trusted: only regular
 * files inside a workspace folder are read, after following symlinks, and only up to a size cap. A
 * symlink to /dev/zero or a FIFO in the workspace would otherwise block or fill the extension host.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'fs';
import * as path from 'path';

/** Beyond this an imported file is not read: a module of layer definitions is far smaller. */
export const MAX_IMPORT_BYTES = 1_000_000;
const MAX_CACHED_FILES = 200;

interface Cached {
  readonly stamp: string;
  readonly text: string;
}

export class WorkspaceFileReader {
  private readonly cache = new Map<string, Cached>();

  /** `roots`: the workspace folders, asked on each read (folders come and go). */
  constructor(
    private readonly roots: () => readonly string[],
    private readonly maxBytes = MAX_IMPORT_BYTES,
  ) {}

  /** The real path of `file` when it lies inside a workspace folder (or is one, `folder`); undefined otherwise or when missing. */
  resolve(file: string, folder = false): string | undefined {
    const real = realpathOrUndefined(file);
    if (!real) return undefined;
    const inside = this.roots().some((root) => {
      const realRoot = this.realRoot(root);
      return realRoot !== undefined && ((folder && realRoot === real) || isInside(realRoot, real));
    });
    return inside ? real : undefined;
  }

  /** A workspace folder's real path, worked out once: every file read is checked against it. */
  private realRoot(root: string): string | undefined {
    if (!this.roots_.has(root)) this.roots_.set(root, realpathOrUndefined(root));
    return this.roots_.get(root);
  }
  private readonly roots_ = new Map<string, string | undefined>();

  /**
   * The text of `file`: `open(realPath)` first (an editor's unsaved text), else the disk, read once per
   * change of its size or modification time.
   */
  read(file: string, open?: (real: string) => string | undefined): string | undefined {
    const real = this.resolve(file);
    if (real === undefined) return undefined;
    const text = open?.(real);
    if (text !== undefined) return text.length > this.maxBytes ? undefined : text;
    return this.readRegularFile(real);
  }

  /**
   * The names of the files in folder `dir` ending in `suffix` (its folders for `/`, not those a symlink names),
   * in order, at most `max`: only a folder inside a workspace folder is listed; each file is read through
   * read(), which checks it again.
   */
  list(dir: string, suffix: string, max: number): string[] | undefined {
    const real = this.resolve(dir, true);
    if (real === undefined) return undefined;
    try {
      return readdirSync(real, { withFileTypes: true })
        .filter((e) => (suffix === '/' ? e.isDirectory() : !e.isDirectory() && e.name.endsWith(suffix)))
        .map((e) => e.name)
        .sort()
        .slice(0, max);
    } catch {
      return undefined;
    }
  }

  private readRegularFile(real: string): string | undefined {
    const read = readRegularFile(real, this.maxBytes, (stamp) => this.cache.get(real)?.stamp === stamp);
    if (read === 'unchanged') return this.cache.get(real)!.text;
    if (typeof read !== 'object') return undefined;
    const text = read.bytes.toString('utf8');
    if (this.cache.size >= MAX_CACHED_FILES) this.cache.clear();
    this.cache.set(real, { stamp: read.stamp, text });
    return text;
  }
}

/**
 * The bytes of a regular file, at most `maxBytes`: 'not a file' for a FIFO, a device or a folder, 'too large'
 * past the cap (counted as read, not as stat says: /proc reports 0 for files that never end), 'unchanged'
 * when `known` holds its stamp already, undefined when it cannot be opened.
 */
export function readRegularFile(
  file: string,
  maxBytes: number,
  known?: (stamp: string) => boolean,
): { bytes: Buffer; stamp: string } | 'not a file' | 'too large' | 'unchanged' | undefined {
  let fd: number;
  try {
    // Non-blocking, so that a FIFO swapped in after the path was checked cannot hang the open.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    // Checked on the open descriptor: what is read is what was checked.
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not a file';
    if (stat.size > maxBytes) return 'too large';
    const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    if (known?.(stamp)) return 'unchanged';
    // One byte past the cap tells a file that is too large from one that just fits.
    let buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stat.size + 1, 64 * 1024)));
    let read = 0;
    for (;;) {
      if (read === buffer.length) {
        if (read > maxBytes) return 'too large';
        const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, read);
        buffer = grown;
      }
      const n = readSync(fd, buffer, read, buffer.length - read, null);
      if (n === 0) break;
      read += n;
    }
    return { bytes: buffer.subarray(0, read), stamp };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    // The system's realpath: one call, where Node's own walks the path with an lstat per component (every
    // file a workspace search reads goes through here).
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

export function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}
