/** Where something is in the file as the user sees it: 1-based, and in a notebook, per cell. */
import { posix, sep } from 'path';
import { elsewhereText, type SourceElsewhere } from '../core/analysis/results';

export interface Place {
  /** The cell's position in the notebook, counting every cell (markdown too), from 1. */
  readonly cell?: number;
  readonly line: number;
  readonly column: number;
}

/** Maps a 0-based line and character of the analysed text to the file. */
export type Locate = (line: number, char: number) => Place;

export const plainText: Locate = (line, char) => ({ line: line + 1, column: char + 1 });

export function placeText(p: Place): string {
  return p.cell === undefined ? `${p.line}:${p.column}` : `cell ${p.cell}:${p.line}:${p.column}`;
}

/**
 * The path of a file named from the folder of another (`../build_sam.py` beside `modeling/sam.py`), written
 * as that one is shown (from the working folder, with `/`): where a configuration another file states is.
 */
export function pathBeside(shown: string, file: string): string {
  return posix.normalize(posix.join(posix.dirname(shown.split(sep).join('/')), file));
}

/** `segment_anything/build_sam.py:14`, `demo.ipynb:cell 3:2`: where another file states a configuration. */
export function placeElsewhere(shown: string, at: SourceElsewhere): string {
  return elsewhereText({ ...at, file: pathBeside(shown, at.file) });
}
