/**
 * Long runs of comment lines, blanked before a Python parse. At the end of each line of such a run
 * tree-sitter-python's scanner reads ahead over the rest of the run (comments and blank lines) to find the
 * next statement's indentation, so a run of k comment lines costs k² characters read: 4,000 lines of
 * commented-out code took 6 s, and the parse used to be abandoned on the clock. A comment is an extra in
 * the grammar, like the spaces that replace it, so the tree of the blanked text is the tree of the text
 * without those comments; offsets, lines and columns stay as they were.
 */

import { blankRanges, type TextRange } from './blank';

export interface Blanked {
  readonly text: string;
  /** Each blanked run, from its first blanked `#` to the end of its last comment. */
  readonly runs: readonly TextRange[];
}

/**
 * Runs whose comment lines times lines are below this cost too little to blank: the read-ahead over them
 * stays linear in the file. Above it, the odd run a docstring holds is put back by parseText.ts.
 */
const MIN_COST = 4096;

const SPACE = 0x20;
const TAB = 0x09;
const FORM_FEED = 0x0c;
const CR = 0x0d;
const HASH = 0x23;

type LineKind = 'blank' | 'comment' | 'code';

/** `text` with the comments of its long runs made spaces; the runs skipped by `keep` stay as they are. */
export function blankCommentRuns(text: string, keep: ReadonlySet<number> = new Set()): Blanked {
  const runs: TextRange[] = [];
  const blanked: TextRange[] = [];
  /** Comment lines of the current run, from `#` to the line break. */
  let comments: TextRange[] = [];
  let lines = 0;
  const close = () => {
    if (comments.length && comments.length * lines >= MIN_COST && !keep.has(comments[0].start)) {
      blanked.push(...comments);
      runs.push({ start: comments[0].start, end: comments[comments.length - 1].end });
    }
    comments = [];
    lines = 0;
  };
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const { kind, hash, contentEnd } = classify(text, start, end);
    if (kind === 'code') close();
    else {
      lines++;
      if (kind === 'comment') comments.push({ start: hash, end: contentEnd });
    }
    start = end + 1;
  }
  close();
  return { text: blankRanges(text, blanked), runs };
}

function classify(text: string, start: number, end: number): { kind: LineKind; hash: number; contentEnd: number } {
  const contentEnd = end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end;
  let i = start;
  for (; i < contentEnd; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== FORM_FEED) break;
  }
  if (i === contentEnd) return { kind: 'blank', hash: -1, contentEnd };
  return { kind: text.charCodeAt(i) === HASH ? 'comment' : 'code', hash: i, contentEnd };
}
