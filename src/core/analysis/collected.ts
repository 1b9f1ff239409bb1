/**
 * What the runs of one analysis add: layer sites, parts, findings, class builds, size hints and attention
 * written by hand; and the recording of what one run adds, which the next version of the document replays
 * when nothing the run read has changed.
 */
import type { BuildOutputs, Construction, PartRecord, SiteRecord } from './cache';
import type { Core } from '../values/value';
import type { Span } from '../ir/expr';
import { sameFigures } from '../attention/builds';
import type { Finding, LayerInstance } from '../values/layer';
import { summarize, type ModuleSummary, type ModuleTree } from '../values/modules';
import { modelOf } from './documented';
import type { SizeHint } from './results';
import type { Poly } from '../values/symbolic';

type Recording = { -readonly [K in keyof BuildOutputs]: BuildOutputs[K] };

/** One thing a run added, as it was given, kept to add again in another context (Collected.capturing). */
export type Added =
  | { readonly k: 'record'; readonly start: number; readonly r: SiteRecord }
  | { readonly k: 'part'; readonly r: PartRecord }
  | { readonly k: 'flow'; readonly f: Finding }
  | { readonly k: 'construction'; readonly key: string; readonly entry: Construction }
  | { readonly k: 'hint'; readonly span: Span; readonly features: Poly }
  | { readonly k: 'attention'; readonly key: string; readonly core: Core | number; readonly layer: LayerInstance };

/** Builds of one class or part kept with their totals; one more leaves the total unknown (a loop of blocks of many sizes). */
const MAX_BUILDS = 64;

/** What a run's start saw added (Collected.runMark). */
export interface RunMark {
  readonly trees: number;
  readonly builds: number;
}

export class Collected {
  readonly records = new Map<number, SiteRecord[]>();
  /** Every record in the order it was made, for the loops whose passes differ. */
  readonly made: SiteRecord[] = [];
  /** The model classes built inside other code, by the offset of the call that builds them. */
  readonly parts = new Map<number, PartRecord[]>();
  readonly flows = new Map<string, Finding>();
  /** Each class of the file as the runs built it: class -> totals with their contexts. */
  readonly constructions = new Map<string, Construction[]>();
  /** How many builds of each class each model made, by class key and model (addConstruction). */
  private readonly buildsByModel = new Map<string, number>();
  private readonly sizes = new Map<number, SizeHint | undefined>();
  /** Attention written by hand, by class: the latest description of each core (its output projection comes later). */
  readonly attentions = new Map<string, Map<Core | number, LayerInstance>>();
  /** Classes built with more different attentions than are kept. */
  readonly crowded = new Set<string>();
  private recording: Recording | undefined;
  /** Set while a run is repeated for its value only: what it adds was added already. */
  private silent = false;
  /** Set while a run that may fail is on: what it adds waits here until it is over (tentative). */
  private holding: (() => void)[] | undefined;
  /** What each build being captured added so far, outermost first (capturing). */
  private readonly captures: Added[][] = [];
  /** The builds and parts added with their trees, in order, for a run that fails to summarise (freezeTrees). */
  private readonly withTrees: { tree?: ModuleTree; summary?: ModuleSummary }[] = [];

  /** The class and model of each build given, in order, for a run that fails (runFailed). */
  private readonly builds: { readonly key: string; readonly model: string; readonly tree?: ModuleTree }[] = [];

  /** A mark for runFailed: the builds and parts added so far. */
  runMark(): RunMark {
    return { trees: this.withTrees.length, builds: this.builds.length };
  }

  /**
   * What the run started at `mark` added, once it is over. A class it built has a total of its own in a model
   * only if the model was followed whole (`whole`, by its context: the run ended, its root has a total): an
   * instance in a part not followed may have another (timm's `caformer_s18()` cut short by the budget after
   * its stages of 320-wide `Scale`s, before the 512-wide ones; a `cpubone` model whose norm layer is not known
   * building one stage's `ConvAttention` where another is not seen). A failed run's trees are summarised now:
   * undoing its writes empties the trees it made (a part complete when the budget ran out showed 0). A class
   * built in the run but left out of its model (`inModel`: timm's EfficientNetBuilder tries its attention
   * layer, `self.se_layer(8, rd_ratio=1.0)`, and drops it) is no part of that model either.
   */
  runEnded(
    mark: RunMark,
    failed: boolean,
    whole: (model: string) => boolean,
    inModel: (model: string, tree: ModuleTree) => boolean,
  ): void {
    if (failed) {
      for (const entry of this.withTrees.slice(mark.trees))
        if (entry.tree) {
          entry.summary = summarize(entry.tree);
          entry.tree = undefined;
        }
      this.withTrees.length = mark.trees;
    }
    const cut = new Map(
      this.builds
        .slice(mark.builds)
        .filter((b) => failed || !whole(b.model) || (b.tree && !inModel(b.model, b.tree)))
        .map((b) => [`${b.key}\u0000${b.model}`, b]),
    );
    for (const { key, model } of cut.values())
      this.construction(key, { context: model, summary: { params: undefined, children: [], tied: [] } });
  }

  /** Whether what is added now is dropped (muted). */
  get isMuted(): boolean {
    return this.silent;
  }

  /** Runs `work`, returning what it added as it was given, each site record as it stood once `work` was over. */
  capturing<T>(work: () => T): { readonly result: T; readonly added: readonly Added[] } {
    const added: Added[] = [];
    this.captures.push(added);
    let result: T;
    try {
      result = work();
    } finally {
      this.captures.pop();
    }
    // A loop around the build may still mark its records as varying: that is the loop's, not the build's.
    return { result, added: added.map((a) => (a.k === 'record' ? { ...a, r: { ...a.r } } : a)) };
  }

  /**
   * Adds again what a build added, for a copy of it in another context: `context` maps each context the build
   * gave, `tree` each module tree it made to the copy's.
   */
  addAgain(added: readonly Added[], context: (c: string) => string, tree: (t: ModuleTree) => ModuleTree): void {
    for (const a of added)
      if (a.k === 'record') this.record(a.start, { ...a.r, context: context(a.r.context) });
      else if (a.k === 'part') this.part({ ...a.r, context: context(a.r.context), tree: a.r.tree && tree(a.r.tree) });
      else if (a.k === 'flow') this.flow(a.f);
      else if (a.k === 'construction')
        this.construction(a.key, {
          ...a.entry,
          context: context(a.entry.context),
          tree: a.entry.tree && tree(a.entry.tree),
        });
      else if (a.k === 'hint') this.hint(a.span, a.features);
      else this.attention(a.key, a.core, a.layer);
  }

  private captured(a: Added): void {
    for (const list of this.captures) list.push(a);
  }

  record(start: number, r: SiteRecord): void {
    if (this.silent) return;
    this.captured({ k: 'record', start, r });
    // Loops ask how many records their passes made, held or not.
    this.made.push(r);
    if (this.holding) this.holding.push(() => this.addRecord(start, r));
    else this.addRecord(start, r);
  }

  private addRecord(start: number, r: SiteRecord): void {
    const list = this.records.get(start) ?? [];
    list.push(r);
    this.records.set(start, list);
    this.recording?.records.push([start, r]);
  }

  part(r: PartRecord): void {
    if (this.silent) return;
    this.captured({ k: 'part', r });
    if (this.holding) this.holding.push(() => this.addPart(r));
    else this.addPart(r);
  }

  private addPart(r: PartRecord): void {
    const list = this.parts.get(r.span.start) ?? [];
    if (list.length < MAX_BUILDS) {
      list.push(r);
      if (r.tree) this.withTrees.push(r);
    } else if (list.length === MAX_BUILDS)
      list.push({
        ...r,
        tree: undefined,
        summary: { params: undefined, reason: 'built more times here than are followed', children: [], tied: [] },
      });
    this.parts.set(r.span.start, list);
    this.recording?.parts.push(r);
  }

  flow(f: Finding): void {
    if (this.silent) return;
    this.captured({ k: 'flow', f });
    if (this.holding) this.holding.push(() => this.addFlow(f));
    else this.addFlow(f);
  }

  private addFlow(f: Finding): void {
    this.flows.set(`${f.span.start}:${f.code}`, f);
    this.recording?.flows.push(f);
  }

  construction(key: string, entry: Construction): void {
    if (this.silent) return;
    this.builds.push({ key, model: modelOf(entry.context), tree: entry.tree });
    this.captured({ k: 'construction', key, entry });
    if (this.holding) this.holding.push(() => this.addConstruction(key, entry));
    else this.addConstruction(key, entry);
  }

  private addConstruction(key: string, entry: Construction): void {
    const list = this.constructions.get(key) ?? [];
    // Each model's builds of a part are kept to the limit, one past it leaving that model's total of the part
    // unknown; a build of the class itself (its context has no ` via `) is kept whole: its context may be the
    // one the class shows (a configuration's), as may another model's after a first model filled the limit.
    const model = modelOf(entry.context);
    const counted = `${key}\u0000${model}`;
    const seen = this.buildsByModel.get(counted) ?? 0;
    if (seen > MAX_BUILDS) return;
    this.buildsByModel.set(counted, seen + 1);
    const kept =
      seen < MAX_BUILDS || !entry.context.includes(' via ')
        ? entry
        : { context: entry.context, summary: { params: undefined, children: [], tied: [] } };
    list.push(kept);
    if (kept.tree) this.withTrees.push(kept);
    this.constructions.set(key, list);
    this.recording?.constructions.push([key, entry]);
  }

  hint(span: Span, features: Poly): void {
    if (this.silent) return;
    this.captured({ k: 'hint', span, features });
    if (this.holding) this.holding.push(() => this.addHint(span, features));
    else this.addHint(span, features);
  }

  private addHint(span: Span, features: Poly): void {
    const known = this.sizes.get(span.start);
    // A step that gets different sizes in different models shows none.
    this.sizes.set(
      span.start,
      this.sizes.has(span.start) && !known?.features.equals(features) ? undefined : { span, features },
    );
    this.recording?.hints.push({ span, features });
  }

  hints(): SizeHint[] {
    return [...this.sizes.values()]
      .filter((h): h is SizeHint => h !== undefined)
      .sort((a, b) => a.span.start - b.span.start);
  }

  attention(key: string, core: Core | number, layer: LayerInstance): void {
    if (this.silent) return;
    this.captured({ k: 'attention', key, core, layer });
    if (this.holding) this.holding.push(() => this.addAttention(key, core, layer));
    else this.addAttention(key, core, layer);
  }

  private addAttention(key: string, core: Core | number, layer: LayerInstance): void {
    const list = this.attentions.get(key) ?? new Map<Core | number, LayerInstance>();
    // A build like one kept adds nothing to what the class shows but the output projection it may have
    // reached; past sixteen that differ (a Swin's stages, some runs losing the head size), the class shows none.
    const like = [...list].find(([c, l]) => c !== core && sameFigures(l, layer));
    if (like && (like[1].attention?.output || !layer.attention?.output)) list.delete(core);
    else if (like) list.delete(like[0]);
    if (!like || !list.has(like[0])) {
      if (list.size < 16 || list.has(core)) list.set(core, layer);
      else this.crowded.add(key);
    }
    this.attentions.set(key, list);
    if (typeof core !== 'number') this.recording?.attentions.push([key, layer]);
  }

  /**
   * Runs `work` (a build that may fail: a model built with its configuration's defaults), keeping what it
   * adds only when `keep` says so of its result once it is over.
   */
  tentative<T>(work: () => T, keep: (result: T) => boolean): T {
    const outer = this.holding;
    const held: (() => void)[] = (this.holding = []);
    let result: T;
    try {
      result = work();
    } finally {
      this.holding = outer;
    }
    if (keep(result))
      for (const change of held) {
        if (this.holding) this.holding.push(change);
        else change();
      }
    return result;
  }

  /** Runs `work` adding nothing. */
  muted<T>(work: () => T): T {
    const was = this.silent;
    this.silent = true;
    try {
      return work();
    } finally {
      this.silent = was;
    }
  }

  /**
   * Adds again what a run added in the last version, its records and calls moved by `offset` (set only
   * for outputs that name no span); `reach` marks the calls it evaluated.
   */
  replay(o: BuildOutputs, offset: number, reach: (at: number) => void): void {
    for (const [start, r] of o.records) this.record(start + offset, r);
    for (const p of o.parts) this.part(p);
    for (const f of o.flows) this.flow(f);
    for (const [k, c] of o.constructions) this.construction(k, c);
    for (const h of o.hints) this.hint(h.span, h.features);
    for (const at of o.reached) reach(at + offset);
    o.attentions.forEach(([k, layer], i) => this.attention(k, -1 - i, layer));
  }

  /** Keeps what `work` adds, with the calls it evaluated (`reached` gives them once it is over). */
  recorded(work: () => BuildOutputs['summary'], reached: () => number[]): BuildOutputs {
    const recording: Recording = (this.recording = {
      records: [],
      parts: [],
      flows: [],
      constructions: [],
      hints: [],
      reached: [],
      summary: undefined,
      attentions: [],
    });
    try {
      recording.summary = work();
    } finally {
      this.recording = undefined;
    }
    // Once the run is over, what it built inside is complete: the next version replays their totals.
    return {
      ...recording,
      reached: reached(),
      constructions: recording.constructions.map(([k, c]): [string, Construction] => [
        k,
        { context: c.context, summary: c.summary ?? summarize(c.tree!), expression: c.expression },
      ]),
      parts: recording.parts.map((p): PartRecord => ({
        ...p,
        tree: undefined,
        summary: p.summary ?? summarize(p.tree!),
      })),
    };
  }
}
