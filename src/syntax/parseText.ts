/**
 * A document's text as it is given to the parser: a Python text with its long comment runs blanked
 * (commentRuns.ts), re-parsed from the previous tree when there is one. A run that the tree shows inside a
 * string (a docstring full of `#` lines) was no comment: it is put back and the text parsed again.
 */
import type { Language } from '../core/source';
import { blankCommentRuns } from './commentRuns';
import type { LineIndex } from './lineIndex';
import type { Grammars, Tree } from './parser';
import { changeBetween, toEdit, type TextChange } from './textChange';

export interface ParsedText {
  readonly tree: Tree;
  /** The text parsed: the document's, with its long comment runs blanked. */
  readonly text: string;
  /** Whether a run was blanked, so that `text` is not the document's. */
  readonly blanked: boolean;
  /** From the previous text parsed to this one, when the tree was re-parsed from the previous tree. */
  readonly change?: TextChange;
}

/** The last parse of the same document, whose tree the next parse starts from (and edits). */
export interface PreviousParse {
  readonly tree: Tree;
  readonly text: string;
  readonly blanked: boolean;
  readonly lines: LineIndex;
}

/** Parses with runs put back before the text is parsed as it stands, comments and all. */
const MAX_RETRIES = 2;

const NO_CHANGE: TextChange = { rangeOffset: 0, rangeLength: 0, text: '' };

/**
 * Undefined when the parse ran over its budget. `edit`, the user's change from the previous document text,
 * is used as it is where neither text has a blanked run; otherwise the change is found by comparing them.
 */
export function parseText(grammars: Grammars, language: Language, text: string, previous?: PreviousParse, edit?: TextChange): ParsedText | undefined {
  const kept = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    const { text: parsed, runs } = language === 'python' && attempt <= MAX_RETRIES ? blankCommentRuns(text, kept) : { text, runs: [] };
    const base = attempt === 0 ? previous : undefined;
    const change = base && (edit && !base.blanked && !runs.length ? edit : (changeBetween(base.text, parsed) ?? NO_CHANGE));
    if (base && change) base.tree.edit(toEdit(base.text, change, base.lines));
    const tree = grammars.parse(language, parsed, base?.tree);
    if (!tree) return undefined;
    const inStrings = runs.filter((r) => insideString(tree, r.start));
    if (!inStrings.length) return { tree, text: parsed, blanked: runs.length > 0, change };
    tree.delete();
    for (const r of inStrings) kept.add(r.start);
  }
}

function insideString(tree: Tree, at: number): boolean {
  for (let node = tree.rootNode.descendantForIndex(at); node; node = node.parent) if (node.type === 'string') return true;
  return false;
}
