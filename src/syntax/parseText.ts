/**
 * A document's text as it is given to the parser, re-parsed from the previous tree when there is one. A
 * Python text has its long comment runs blanked (commentRuns.ts); a run that the tree shows inside a string
 * (a docstring full of `#` lines) was no comment: it is put back and the text parsed again. The brackets
 * it never closes are blanked too (unclosedBrackets.ts). Then the top-level statements an unclosed bracket
 * broke are blanked (swallowed.ts), so that what follows them is read as the statements it is, and last
 * every top-level statement still holding an error, which gives no figure.
 */
import type { Language } from '../core/ir/source';
import { blankRanges } from './blank';
import { blankCommentRuns } from './commentRuns';
import type { LineIndex } from './lineIndex';
import { insideString } from './nodes';
import type { Grammars, Tree } from './parser';
import { broken, brokenBefore, firstSwallowed } from './swallowed';
import { changeBetween, toEdit, type TextChange } from './textChange';
import { blankUnclosedBrackets } from './unclosedBrackets';

export interface ParsedText {
  readonly tree: Tree;
  /** The text parsed: the document's, with long comment runs and broken statements blanked. */
  readonly text: string;
  /** Whether anything was blanked, so that `text` is not the document's. */
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
/** Rounds of blanking broken statements, one statement a round. */
const MAX_RECOVERIES = 8;

const NO_CHANGE: TextChange = { rangeOffset: 0, rangeLength: 0, text: '' };

/**
 * Undefined when a parse ran over its budget. `edit`, the user's change from the previous document text,
 * is used as it is where neither text has anything blanked; otherwise the change is found by comparing them.
 * Every parse starts from a copy of the previous tree, whose statements outside the change it reuses; the
 * previous tree itself is edited to the text finally parsed, so that the caller can ask what changed.
 */
export function parseText(
  grammars: Grammars,
  language: Language,
  text: string,
  previous?: PreviousParse,
  edit?: TextChange,
): ParsedText | undefined {
  const changeTo = (parsed: string): TextChange =>
    edit && !previous!.blanked && parsed === text ? edit : (changeBetween(previous!.text, parsed) ?? NO_CHANGE);
  /** Parses `parsed`: from the previous tree where there is one, else from `last`, the tree of `lastText`. */
  const parse = (parsed: string, last?: Tree, lastText?: string): Tree | undefined => {
    const base = previous ? previous.tree.copy() : last?.copy();
    if (previous) base!.edit(toEdit(previous.text, changeTo(parsed), previous.lines));
    else base?.edit(toEdit(lastText!, changeBetween(lastText!, parsed) ?? NO_CHANGE));
    const tree = grammars.parse(language, parsed, base);
    base?.delete();
    return tree;
  };
  const first = parseComments(language, text, parse);
  if (!first) return undefined;
  const final = language === 'python' ? recover(first.tree, first.text, parse) : first;
  if (!final) return undefined;
  const blanked = first.blanked || final.text !== first.text;
  if (!previous) return { tree: final.tree, text: final.text, blanked };
  const change = changeTo(final.text);
  previous.tree.edit(toEdit(previous.text, change, previous.lines));
  return { tree: final.tree, text: final.text, blanked, change };
}

type Parse = (parsed: string, last?: Tree, lastText?: string) => Tree | undefined;

/** The text with its comment runs blanked, and its tree. */
function parseComments(
  language: Language,
  text: string,
  parse: Parse,
): { tree: Tree; text: string; blanked: boolean } | undefined {
  const kept = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    const { text: commented, runs } =
      language === 'python' && attempt <= MAX_RETRIES ? blankCommentRuns(text, kept) : { text, runs: [] };
    const parsed = language === 'python' ? blankUnclosedBrackets(commented) : commented;
    const tree = parse(parsed);
    if (!tree) return undefined;
    const inStrings = runs.filter((r) => insideString(tree.rootNode, r.start));
    if (!inStrings.length) return { tree, text: parsed, blanked: parsed !== text };
    tree.delete();
    for (const r of inStrings) kept.add(r.start);
  }
}

/**
 * `text` with the statements an unclosed bracket swallowed blanked, one a round, and its tree. A blanking
 * that breaks a statement above the one blanked (the line it stopped at was inside brackets) is undone.
 * Then the statements still holding an error are blanked whole.
 */
function recover(tree: Tree, text: string, parse: Parse): { tree: Tree; text: string } | undefined {
  let from = 0;
  for (let round = 0; round < MAX_RECOVERIES; round++) {
    const swallowed = firstSwallowed(tree, text, from);
    if (!swallowed) break;
    from = swallowed.end;
    const next = blankRanges(text, [swallowed]);
    if (next === text) continue;
    const again = parse(next, tree, text);
    if (!again) {
      tree.delete();
      return undefined;
    }
    const before = brokenBefore(tree, swallowed.start);
    const after = brokenBefore(again, swallowed.start);
    if (after.some((at) => !before.includes(at))) {
      again.delete();
      break;
    }
    tree.delete();
    tree = again;
    text = next;
  }
  // A statement blanked whole leaves the others as they parsed.
  const rest = broken(tree);
  if (!rest.length) return { tree, text };
  const next = blankRanges(text, rest);
  const again = parse(next, tree, text);
  tree.delete();
  return again && { tree: again, text: next };
}
