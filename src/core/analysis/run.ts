/** One analysis of a file: what its passes share (passes.ts). */
import type { AnalysisCache } from './cache';
import { Evaluator } from '../interp/evaluator';
import { newShared } from '../interp/hooks';
import { keepModuleNames, moduleNames } from '../ir/moduleNames';
import type { Replays } from './replays';
import type { ImportResolver, SourceModel } from '../ir/source';
import type { Value } from '../values/value';
import { Recorder } from './recorder';
import type { SourceElsewhere } from './results';
import type { Registered } from './registries';

export class AnalysisRun {
  readonly shared = newShared();
  readonly recorder: Recorder;
  readonly evaluator: Evaluator;
  /** The runs of the last version that this one may replay; set once the module body has run. */
  replays!: Replays;
  /** Each model class built with its defaults, by class key. */
  readonly defaults = new Map<string, Value>();
  /** Where the files importing this one state the configurations they build (importers.ts), by context. */
  readonly elsewhere = new Map<string, SourceElsewhere>();
  /** The entries of registries naming each factory's context (registries.ts): the file's and its importers'. */
  readonly registered: Registered = new Map();

  constructor(
    readonly model: SourceModel,
    readonly resolver: ImportResolver | undefined,
    readonly cache: AnalysisCache | undefined,
    /** The configurations the user chose (documented.ts): their runs are not replayed, their trees are read. */
    readonly chosen: readonly string[] = [],
  ) {
    this.recorder = new Recorder(model, this.shared);
    this.evaluator = new Evaluator(model, this.recorder, resolver, this.shared);
    this.recorder.evaluator = this.evaluator;
    keepModuleNames(model, this.evaluator.names.fragmentIds, cache?.names);
    if (cache) cache.names = { ids: this.evaluator.names.fragmentIds, names: moduleNames(model) };
  }

  get out() {
    return this.recorder.out;
  }
}
