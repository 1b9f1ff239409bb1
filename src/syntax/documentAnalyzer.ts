/**
 * One document's syntax tree and analysis, kept across edits: the tree is re-parsed incrementally and the
 * top-level statements an edit did not touch are reused (shifted) instead of re-extracted. The analysis runs
 * on the whole new text, replaying only the class builds whose every read (statements, module names, other
 * files) the edit left alone, so every output equals a fresh analysis of it.
 */
import { analyze, type Analysis, type Depth } from '../core/analysis/analyze';
import { AnalysisCache } from '../core/analysis/cache';
import type { Fragment, ImportResolver, Language, LineName } from '../core/ir/source';
import type { Grammars, Tree } from './parser';
import { parseText } from './parseText';
import type { TextChange } from './textChange';
import { LineIndex } from './lineIndex';
import { declaredBy, declaredNames, extractFragment, sourceModel } from './model';
import { Candidates } from './candidates';
import { TopLevel } from './topLevel';
import { shiftFragment } from './shift';
import { ownStatements, withinDocument, type NamedConfiguration } from './ownConfigurations';

export type { TextChange };

export class DocumentAnalyzer {
  private tree: Tree | undefined;
  /** The text parsed last: the document's, with long comment runs blanked when `blanked`. */
  private text = '';
  /** The user's own configurations' statements after the document's text in the last parse (ownConfigurations.ts). */
  private appended = '';
  private blanked = false;
  private lines = new LineIndex('');
  private fragments: Fragment[] = [];
  /** The class builds of the previous version, replayed where the edit left everything they read alone. */
  private readonly cache = new AnalysisCache();
  private readonly candidates = new Candidates();

  constructor(
    private readonly grammars: Grammars,
    readonly language: Language,
  ) {}

  /**
   * Analyses `documentText`; with `changes` (from the previous text to this one) the work is limited to
   * what they touch. `lineName` names lines in messages and contexts (a notebook's cells); the same one is
   * to be given with `changes`, since results kept from the last version keep the names they had.
   * `chosen`: the configurations the user picked (core/analysis/documented.ts); `own`: the user's own, as
   * expressions that build a model (ownConfigurations.ts), which are shown.
   */
  update(
    documentText: string,
    changes?: readonly TextChange[],
    resolver?: ImportResolver,
    lineName?: LineName,
    chosen: readonly string[] = [],
    own: readonly string[] = [],
    listed: readonly NamedConfiguration[] = [],
    depth: Depth = 'full',
    interrupted?: () => boolean,
  ): Analysis | undefined {
    const python = this.language === 'python';
    const appended = ownStatements(documentText, python ? own : [], python ? listed : []);
    // The last tree was parsed with other statements after the document: it is parsed again in full.
    if (appended.text !== this.appended) changes = undefined;
    this.appended = appended.text;
    const analysed = this.analyse(
      documentText + appended.text,
      changes,
      resolver,
      lineName,
      [...chosen, ...appended.shown],
      appended.named,
      depth,
      interrupted,
    );
    return analysed && appended.text ? withinDocument(analysed, documentText.length) : analysed;
  }

  private analyse(
    documentText: string,
    changes: readonly TextChange[] | undefined,
    resolver: ImportResolver | undefined,
    lineName: LineName | undefined,
    chosen: readonly string[],
    named: ReadonlyMap<number, string>,
    depth: Depth,
    interrupted: (() => boolean) | undefined,
  ): Analysis | undefined {
    const old = this.tree;
    // VS Code reports several changes of one event against the text before all of them: they are then
    // found again by comparing the texts.
    const previous =
      old && changes ? { tree: old, text: this.text, blanked: this.blanked, lines: this.lines } : undefined;
    const parsed = parseText(
      this.grammars,
      this.language,
      documentText,
      previous,
      changes?.length === 1 ? changes[0] : undefined,
    );
    if (!parsed) {
      this.dispose();
      return undefined;
    }
    const { tree, text, change } = parsed;
    const top = new TopLevel(tree);
    const move = change && movement(this.text, text, change);
    const found = old && move ? this.kept(old, tree, text, move, top) : undefined;
    const kept = found?.fragments;
    const declared = top.starts.map((_, i) => {
      const f = kept?.[i];
      return f ? declaredBy(f) : declaredNames(this.language, top.node(i), text);
    });
    // A name that starts or stops being a class or an import changes which calls are layer sites anywhere.
    const reuse =
      found !== undefined &&
      this.candidates.replace(
        found.removed.map(declaredBy),
        declared.filter((_, i) => !found.fragments[i]),
      );
    if (!found) this.candidates.reset(declared);
    const candidates = this.candidates.set;
    const lines = (this.lines = new LineIndex(text, old && change ? { lines: this.lines, change } : undefined));
    this.fragments = top.starts.map(
      (_, i) =>
        (reuse && kept?.[i]) || extractFragment(this.language, top.node(i), text, candidates, lines, declared[i]),
    );
    if (reuse && move) {
      this.cache.moved(move.oldEnd, move.delta, move.lineDelta);
    } else {
      this.cache.clear();
    }
    old?.delete();
    this.tree = tree;
    this.text = text;
    this.blanked = parsed.blanked;
    const model = sourceModel(this.language, tree, text, this.fragments, lines);
    return analyze(
      { ...model, ...(lineName ? { lineName } : {}), ...(named.size ? { named } : {}) },
      resolver,
      this.cache,
      chosen,
      depth,
      interrupted,
    );
  }

  /**
   * Drops the runs kept for the next version: an analysis stopped half way (AnalysisInterrupted) may have
   * kept some of its runs and not others, which the next one must not replay as a whole.
   */
  forgetRuns(): void {
    this.cache.clear();
  }

  /**
   * For each of the new tree's top-level statements, the old fragment (shifted) when the statement is
   * provably the same one: the same span (shifted when after the edit), away from the edit and from every
   * range whose structure the re-parse changed. Deciding from the old
   * fragments instead loses statements the edit extends: while `ff = nn.Linear(` is typed, each key lands
   * after the end of the statement it grows (in whitespace, or past an error node), so that statement was
   * kept as it stood a key earlier and the finished layer never appeared until the file was reopened.
   */
  private kept(
    old: Tree,
    tree: Tree,
    text: string,
    move: Movement,
    top: TopLevel,
  ): { fragments: (Fragment | undefined)[]; removed: Fragment[] } {
    const { start, oldEnd, newEnd, delta, lineDelta } = move;
    const changed = tree.getChangedRanges(old);
    const olds = this.fragments;
    /** An old fragment clear of the edit: its start in the new text (increasing with its index); else -1. */
    const startOf = (f: Fragment) =>
      f.span.end < start ? f.span.start : f.span.start > oldEnd ? f.span.start + delta : -1;
    // Both lists are in document order: one pass pairs them, without an index of a thousand statements per key.
    let i = 0;
    const matched: boolean[] = [];
    const fragments = top.starts.map((startIndex, n) => {
      const endIndex = top.ends[n];
      while (i < olds.length && startOf(olds[i]) < startIndex) i++;
      const f = i < olds.length && startOf(olds[i]) === startIndex ? olds[i] : undefined;
      const after = startIndex > newEnd;
      const same =
        f !== undefined &&
        f.span.end + (after ? delta : 0) === endIndex &&
        // A statement sharing the edit's last line moves sideways, which a shift does not express.
        (!after || text.lastIndexOf('\n', startIndex - 1) >= newEnd) &&
        // Outside every changed range the subtree is the old one, error nodes included.
        !changed.some((r) => r.startIndex < endIndex && r.endIndex > startIndex);
      if (!same) return undefined;
      matched[i] = true;
      return after ? shiftFragment(f, delta, lineDelta) : f;
    });
    return { fragments, removed: olds.filter((_, k) => !matched[k]) };
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = undefined;
    this.blanked = false;
    this.fragments = [];
    this.cache.clear();
  }
}

/** Where a change sits, and how far it moves what follows it, in characters and in lines. */
interface Movement {
  readonly start: number;
  readonly oldEnd: number;
  readonly newEnd: number;
  readonly delta: number;
  readonly lineDelta: number;
}

function movement(oldText: string, text: string, c: TextChange): Movement {
  const start = c.rangeOffset;
  const oldEnd = start + c.rangeLength;
  const newEnd = start + c.text.length;
  return {
    start,
    oldEnd,
    newEnd,
    delta: newEnd - oldEnd,
    lineDelta: countLines(text, start, newEnd) - countLines(oldText, start, oldEnd),
  };
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
