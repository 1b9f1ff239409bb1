/**
 * The runs of one analysis that the next version of the document may replay: each run's outputs and what it
 * read are kept; a run whose reads an edit left alone adds its outputs again instead of running. Only
 * Python's: TypeScript's sizes flow between statements, so it runs whole.
 */
import { placesOf, type AnalysisCache, type BuildOutputs, type CachedBuild } from './cache';
import type { Collected } from './collected';
import type { Evaluator } from '../interp/evaluator';
import { newReads, readsHold, type ReadsNow } from '../interp/hooks';
import { valueKey } from '../values/valueKey';
import type { ModuleSummary } from '../values/modules';
import { fragmentIndexAt, type ImportResolver, type SourceModel } from '../ir/source';

export class Replays {
  private readonly keep: AnalysisCache | undefined;
  /** The runs replayed in this version, with what they added. */
  readonly replayed = new Map<string, BuildOutputs>();
  /** The runs this version asked for, replayed or run. */
  private readonly asked = new Set<string>();
  private readonly keys = new Map<string, string | undefined>();
  private readonly origins = new Map<string, number>();
  /** This version's answers, once the module has run: the names a run reads are bound for good. */
  private now: ReadsNow | undefined;

  constructor(
    private readonly model: SourceModel,
    cache: AnalysisCache | undefined,
    private readonly evaluator: Evaluator,
    private readonly out: Collected,
    private readonly resolver: ImportResolver | undefined,
    /** Contexts whose builds are run again rather than replayed (the configurations the user chose). */
    private readonly runAgain: (context: string) => boolean = () => false,
  ) {
    this.keep = model.language === 'python' ? cache : undefined;
    // Module code runs again in every version: a change to it (not only to definitions) replays nothing.
    if (this.keep && !sameModuleCode(model, this.keep.moduleCode)) {
      this.keep.forgetBuilds();
      this.keep.moduleCode = model.fragments.filter((f) => f.code).map((f) => f.id);
    }
  }

  /** What a run added in the last version, added again, when nothing it read has changed since. */
  replay(key: string): BuildOutputs | undefined {
    this.asked.add(key);
    const cached = this.keep?.builds.get(key);
    if (!cached || !this.valid(cached)) return undefined;
    if (cached.outputs.constructions.some(([, c]) => this.runAgain(c.context))) return undefined;
    this.out.replay(cached.outputs, cached.offset ?? 0, (at) => this.evaluator.reach(at));
    this.replayed.set(key, cached.outputs);
    return cached.outputs;
  }

  /** Runs `work`, keeping what it adds and everything it reads for the next version (`always`: even without a total). */
  recorded(key: string, work: () => ModuleSummary | undefined, always: () => boolean): ModuleSummary | undefined {
    const { evaluator } = this;
    this.asked.add(key);
    // Nothing is kept (the CLI, TypeScript): what the run reads is not tracked.
    if (!this.keep) return work();
    const reached = new Set<number>();
    const reads = newReads();
    evaluator.reachedByRun = reached;
    evaluator.reads = reads;
    let outputs: BuildOutputs;
    try {
      outputs = this.out.recorded(work, () => this.sitesAmong(reached));
    } finally {
      evaluator.reads = undefined;
      evaluator.reachedByRun = undefined;
    }
    // Its places are worked out now, while its outputs are fresh in memory, not on the first key typed.
    if (this.keep && !evaluator.shared.budget.exhausted && (outputs.summary || always()))
      this.keep.builds.set(key, { reads, outputs, places: placesOf(outputs) });
    return outputs.summary;
  }

  /** Replays the run, or runs it and keeps it. */
  run(key: string, work: () => void, replayable = true): void {
    if (!replayable || !this.replay(key))
      this.recorded(
        key,
        () => (work(), undefined),
        () => true,
      );
  }

  /** Replays the run and returns what it gave last time, or runs it and keeps both. */
  valued(key: string, work: () => string | undefined): string | undefined {
    if (this.replay(key)) return this.keep?.builds.get(key)?.value;
    let value: string | undefined;
    this.recorded(
      key,
      () => ((value = work()), undefined),
      () => true,
    );
    const kept = this.keep?.builds.get(key);
    if (kept) kept.value = value;
    return value;
  }

  /** Drops the runs this version did not ask for: their statements were edited (a new id) or removed. */
  forgetOthers(): void {
    if (!this.keep) return;
    for (const key of this.keep.builds.keys()) if (!this.asked.has(key)) this.keep.builds.delete(key);
  }

  /** Of the calls a run reached, the ones runUnreached asks about: a run reaches thousands of others, replayed on every key. */
  private sitesAmong(reached: ReadonlySet<number>): number[] {
    const { fragments } = this.model;
    return [...reached].filter((at) =>
      fragments[fragmentIndexAt(fragments, at)]?.calls.some((c) => c.scope >= 0 && c.span.start === at),
    );
  }

  /** The statement binding module name `name` in this version, looked up once per name, not once per run that read it. */
  private originOf(name: string): number {
    let id = this.origins.get(name);
    if (id === undefined) this.origins.set(name, (id = this.evaluator.names.originOf(name)));
    return id;
  }

  /** The key of module variable `name` in this version, worked out once: thousands of runs read the same few. */
  private keyOf(name: string): string | undefined {
    if (this.keys.has(name)) return this.keys.get(name);
    const v = this.evaluator.moduleFrame.vars.get(name);
    const key = v && valueKey(this.evaluator, v);
    this.keys.set(name, key);
    return key;
  }

  private valid(c: CachedBuild): boolean {
    this.now ??= {
      ids: this.evaluator.names.fragmentIdSet,
      originOf: (name) => this.originOf(name),
      keyOf: (name) => this.keyOf(name),
      file: (module) => this.resolver?.resolve(module),
      held: new WeakMap(),
    };
    return readsHold(c.reads, this.now);
  }
}

/** Whether the statements holding module code are `ids`, in order: compared in place on every key. */
function sameModuleCode(model: SourceModel, ids: readonly number[]): boolean {
  let n = 0;
  for (const f of model.fragments) if (f.code && ids[n++] !== f.id) return false;
  return n === ids.length;
}
