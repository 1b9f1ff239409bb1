/** A file's text as the analyser reads it, or why it cannot be read: too large, binary, not a notebook. */
import { promises as fs } from 'fs';
import { isNotebook, reason } from './files';
import { notebookText } from './notebook';
import { plainText, type Locate } from './place';

/** The editor stops analysing at 5 million characters; a file past that many bytes is not read whole. */
export const MAX_BYTES = 5_000_000;

export interface Source {
  readonly text: string;
  readonly locate: Locate;
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
  return isNotebook(file) ? notebookText(text) : { text, locate: plainText };
}

async function readBytes(file: string): Promise<Buffer> {
  const stat = await fs.stat(file).catch(cannotRead);
  // Opening a FIFO would wait for a writer for ever.
  if (!stat.isFile()) throw new Error('not a regular file');
  if (stat.size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES / 1_000_000} MB (${stat.size.toLocaleString('en-US')} bytes)`);
  return fs.readFile(file).catch(cannotRead);
}

function cannotRead(e: unknown): never {
  throw new Error(`cannot read: ${reason(e)}`);
}
