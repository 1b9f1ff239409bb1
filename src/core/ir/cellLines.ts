/** How a notebook's joined program names its lines: `cell 3, line 2`. */

/** Each code cell's first line in the joined text, and its number among all the notebook's cells. */
export interface CellLines {
  readonly firstLines: readonly number[];
  readonly numbers: readonly number[];
}

export function cellLineName(cells: CellLines): (line: number) => string {
  return (l) => {
    const { cell, line } = cellPlace(cells, l);
    return `cell ${cell}, line ${line}`;
  };
}

/** The cell a line of the joined text lies in (its number among all cells) and its 1-based line there. */
export function cellPlace({ firstLines, numbers }: CellLines, l: number): { cell: number; line: number } {
  let i = firstLines.length - 1;
  while (i > 0 && firstLines[i] > l) i--;
  return { cell: numbers[i], line: l - firstLines[i] + 1 };
}
