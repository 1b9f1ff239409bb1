/**
 * One document's syntax tree and analysis, kept across edits: the tree is re-parsed incrementally and the
 * top-level statements an edit did not touch are reused (shifted) instead of re-extracted. The analysis
 * itself always runs on the whole new text, so every output equals a fresh analysis of it.
 */
import { analyze, type Analysis } from '../core/analysis';
import type { Fragment, ImportResolver, Language } from '../core/source';
import type { Edit, Grammars, Tree } from './parser';
import { candidateNames, extractFragment, sourceModel, topLevelNodes } from './model';
import { shiftFragment } from './shift';

/** A change as VS Code reports it: the replaced range in the old text and the new text. */
export interface TextChange {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

export class DocumentAnalyzer {
  private tree: Tree | undefined;
  private text = '';
  private fragments: Fragment[] = [];
  private candidates: string[] = [];

  constructor(
    private readonly grammars: Grammars,
    readonly language: Language,
  ) {}

  /** Analyses `text`; with `changes` (from the previous text to this one) the work is limited to them. */
  update(text: string, changes?: readonly TextChange[], resolver?: ImportResolver): Analysis | undefined {
    const old = this.tree;
    // VS Code reports several changes of one event against the text before all of them: only a single
    // change maps onto one tree edit without replaying them in order.
    const change = old && changes?.length === 1 ? changes[0] : undefined;
    if (old && change) old.edit(toEdit(this.text, change));
    const tree = this.grammars.parse(this.language, text, change ? old : undefined);
    if (!tree) {
      this.dispose();
      return undefined;
    }
    const candidates = candidateNames(this.language, tree, text);
    const sameNames = candidates.length === this.candidates.length && candidates.every((c, i) => c === this.candidates[i]);
    if (change && sameNames) {
      this.fragments = this.reextract(tree, text, change, candidates);
    } else {
      this.fragments = topLevelNodes(tree).map((n) => extractFragment(this.language, n, text, candidates));
    }
    this.candidates = candidates;
    old?.delete();
    this.tree = tree;
    this.text = text;
    return analyze(sourceModel(this.language, tree, text, this.fragments), resolver);
  }

  /** Keeps the fragments outside the edited range (shifted), extracts only the statements inside it. */
  private reextract(tree: Tree, text: string, c: TextChange, candidates: readonly string[]): Fragment[] {
    const start = c.rangeOffset;
    const oldEnd = c.rangeOffset + c.rangeLength;
    const delta = c.text.length - c.rangeLength;
    const lineDelta = countLines(text, start, oldEnd + delta) - countLines(this.text, start, oldEnd);
    const first = this.fragments.findIndex((f) => f.span.end >= start);
    const firstAfter = this.fragments.findIndex((f) => f.span.start > oldEnd);
    const keepBefore = first < 0 ? this.fragments.length : first;
    const keepAfter = firstAfter < 0 ? this.fragments.length : firstAfter;
    const from = keepBefore > 0 ? this.fragments[keepBefore - 1].span.end : 0;
    const to = keepAfter < this.fragments.length ? this.fragments[keepAfter].span.start + delta : text.length;
    const middle = topLevelNodes(tree)
      .filter((n) => n.startIndex >= from && n.endIndex <= to)
      .map((n) => extractFragment(this.language, n, text, candidates));
    return [
      ...this.fragments.slice(0, keepBefore),
      ...middle,
      ...this.fragments.slice(keepAfter).map((f) => shiftFragment(f, delta, lineDelta)),
    ];
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = undefined;
    this.fragments = [];
  }
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function pointAt(text: string, offset: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

export function toEdit(oldText: string, c: TextChange): Edit {
  const newText = oldText.slice(0, c.rangeOffset) + c.text;
  return {
    startIndex: c.rangeOffset,
    oldEndIndex: c.rangeOffset + c.rangeLength,
    newEndIndex: c.rangeOffset + c.text.length,
    startPosition: pointAt(oldText, c.rangeOffset),
    oldEndPosition: pointAt(oldText, c.rangeOffset + c.rangeLength),
    newEndPosition: pointAt(newText, c.rangeOffset + c.text.length),
  };
}
