/** Where something is in the file as the user sees it: 1-based, and in a notebook, per cell. */

export interface Place {
  /** The cell's position in the notebook, counting every cell (markdown too), from 1. */
  readonly cell?: number;
  readonly line: number;
  readonly column: number;
}

/** Maps a 0-based line and character of the analysed text to the file. */
export type Locate = (line: number, char: number) => Place;

export const plainText: Locate = (line, char) => ({ line: line + 1, column: char + 1 });

/** How the analysis names a line in messages and contexts: `line 7`, or in a notebook `cell 3, line 2`. */
export function lineNameOf(locate: Locate): (line: number) => string {
  return (line) => {
    const p = locate(line, 0);
    return p.cell === undefined ? `line ${p.line}` : `cell ${p.cell}, line ${p.line}`;
  };
}

export function placeText(p: Place): string {
  return p.cell === undefined ? `${p.line}:${p.column}` : `cell ${p.cell}:${p.line}:${p.column}`;
}
