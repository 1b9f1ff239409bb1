/**
 * Text from the user's file inside hover markdown. Names, keys, strings and formulas are shown as written,
 * never rendered: a string subscript such as `a["![](https://host/?k="]` must not become a remote image,
 * nor `[x](command:...)` a link, nor `<img>` HTML.
 */

import { visibleControls } from './controls';

/**
 * `text` as literal markdown: ASCII punctuation that can start markdown or HTML escaped with a backslash
 * (CommonMark then shows it as is), line breaks as spaces. `, = / ; ? % ' "` start nothing and stay as
 * they are, and so does `_` between letters or digits (never emphasis there), so `d_k = 512 / 8` reads
 * as written in the markdown source too.
 */
export function escapeMarkdown(text: string): string {
  return visibleControls(text.replace(/\r\n?|\n/g, ' ')).replace(
    /[!#$&()*+\-.:<>@[\\\]^_`{|}~]/g,
    (c, at: number, all: string) =>
      c === '_' && /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? c : `\\${c}`,
  );
}

/**
 * `text` as a code span. Backslashes do not escape inside code, so the fence is one backtick longer than
 * the longest run of backticks in the text. In a table cell a `|` would end the cell even inside code
 * (GitHub-flavoured tables split rows first), so there it is escaped too.
 */
export function codeSpan(text: string, inTable = false): string {
  const flat = visibleControls(text.replace(/\r\n?|\n/g, ' '));
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A space on each side keeps a backtick at either end apart from the fence; the renderer strips it.
  const padded = flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat;
  return `${fence}${inTable ? padded.replace(/\|/g, '\\|') : padded}${fence}`;
}
