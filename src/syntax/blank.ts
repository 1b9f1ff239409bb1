/** Text made spaces in place: offsets, lines and columns of everything else stay as they were. */

export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** `text` with every character of `ranges` (in order, apart) but line breaks made a space. */
export function blankRanges(text: string, ranges: readonly TextRange[]): string {
  if (!ranges.length) return text;
  const parts: string[] = [];
  let copied = 0;
  for (const { start, end } of ranges) {
    parts.push(text.slice(copied, start), text.slice(start, end).replace(/[^\r\n]/g, ' '));
    copied = end;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}
