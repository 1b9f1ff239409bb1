/** A file's text as the analyser reads it, or why it cannot be read: too large, binary, not a notebook. */
import { promises as fs } from 'fs';
import { isNotebook, reason } from './files';
import { notebookText } from '../syntax/notebookText';
import { readRegularFile } from '../service/workspaceFileReader';
import { plainText, type Locate } from './place';
import { cellPlace, type CellLines } from '../core/ir/cellLines';

/** The editor stops analysing at 5 million characters; a file past that many bytes is not read whole. */
export const MAX_BYTES = 5_000_000;

export interface Source {
  readonly text: string;
  readonly locate: Locate;
  /** For a notebook, where its cells lie in the text. */
  readonly cells?: CellLines;
}

/** Throws with the reason, worded for the report, when the file cannot be analysed. */
export async function readSource(file: string): Promise<Source> {
  const bytes = await readBytes(file);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('not UTF-8 text');
  }
  if (text.includes('\0')) throw new Error('a binary file (it contains NUL bytes)');
  if (!isNotebook(file)) return { text, locate: plainText };
  const notebook = notebookText(text);
  const { cells } = notebook;
  return { ...notebook, locate: (l, char) => ({ ...cellPlace(cells, l), column: char + 1 }) };
}

/** The editor's reader: a FIFO or a device is never opened to wait, and what is read stops at the cap. */
async function readBytes(file: string): Promise<Buffer> {
  await fs.access(file).catch((e: unknown) => {
    throw new Error(`cannot read: ${reason(e)}`);
  });
  const read = readRegularFile(file, MAX_BYTES);
  if (read === 'not a file') throw new Error('not a regular file');
  if (read === 'too large') {
    // The size stat reports, where it says so (/proc says 0 for files that never end).
    const size = (await fs.stat(file)).size;
    throw new Error(
      `larger than ${MAX_BYTES / 1_000_000} MB${size > MAX_BYTES ? ` (${size.toLocaleString('en-US')} bytes)` : ''}`,
    );
  }
  if (typeof read !== 'object') throw new Error('cannot read it');
  return read.bytes;
}
