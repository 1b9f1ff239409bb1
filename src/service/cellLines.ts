/** How a notebook's joined program names its lines: `cell 3, line 2`. */
import type { LineName } from '../core/ir/source';

/** Each code cell's first line in the joined text, and its number among all the notebook's cells. */
export interface CellLines {
  readonly firstLines: readonly number[];
  readonly numbers: readonly number[];
}

export function cellLineName({ firstLines, numbers }: CellLines): LineName {
  return (l) => {
    let i = firstLines.length - 1;
    while (i > 0 && firstLines[i] > l) i--;
    return `cell ${numbers[i]}, line ${l - firstLines[i] + 1}`;
  };
}
