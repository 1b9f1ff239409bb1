/**
 * Builds of a model class with arguments that cannot be followed, the first standing for the next at the same
 * call. timm builds each model class at one call (`model_cls(**kwargs)` in build_model_with_cfg) for every
 * @register_model function of a file; with nothing of the arguments known, each of those builds ran the same
 * constructor over the same unknowns: a quarter of the CPU time of timm's models. A later build is a deep copy
 * of the first as its constructor left it, and reports what the first reported, in its own context.
 */
import type { CallExpr } from '../values/bound';
import type { ModuleTree } from '../values/modules';
import type { DefRef, Value } from '../values/value';
import { watchingBirths } from '../values/births';
import type { KeptReports } from './hooks';
import type { Interp } from './interp';
import { ReadsMemo } from './readsMemo';

type ModuleValue = Extract<Value, { t: 'module' }>;

interface Kept {
  /** A copy of the first build as its constructor left it: what its caller does to it next is the caller's. */
  readonly built: ModuleValue;
  /** The copy of each module tree of the first build. */
  readonly trees: ReadonlyMap<ModuleTree, ModuleTree>;
  readonly reports: KeptReports;
}

export class OpaqueBuilds {
  private readonly kept: ReadsMemo<Kept | undefined>;

  constructor(private readonly ev: Interp) {
    this.kept = new ReadsMemo(ev);
  }

  /** `build()` builds `c` at `call` with arguments that cannot be followed. */
  build(c: DefRef, call: CallExpr | undefined, build: () => Value): Value {
    const { ev } = this;
    const { hooks, shared } = ev;
    // A build on a path that may not run is undone and joined with the other path: its instance is not the
    // next build's; a quiet or symbolic run, or one following tensors, reports less than another would.
    if (
      ev.language !== 'python' ||
      !hooks.keepingReports ||
      !hooks.reportAgain ||
      shared.unsure > 0 ||
      ev.quiet > 0 ||
      shared.tape ||
      shared.probe ||
      shared.paramsAsNames
    )
      return build();
    let fresh: Value | undefined;
    const kept = this.kept.get(
      `${c.fragment}:${c.scope}@${call?.span.start}:${ev.budget.depth}`,
      () => {
        const journal = shared.journal.position;
        const taints = shared.tainted.length;
        const { result, made } = watchingBirths(() => hooks.keepingReports!(build));
        const built = (fresh = result.result);
        const changed = [...shared.journal.writtenSince(journal), ...shared.tainted.slice(taints)];
        if (!result.reports || built.t !== 'module' || !changedOnlyItself(built, changed, made)) return undefined;
        const { value, trees } = ev.torch.deepCopied(built);
        return { built: value, trees, reports: result.reports };
      },
      () => undefined,
      (k) => k !== undefined,
    );
    if (fresh) return fresh;
    if (!kept) return build();
    const copy = ev.torch.deepCopied(kept.built);
    const trees = new Map([...kept.trees].map(([first, kept]) => [first, copy.trees.get(kept)!]));
    return hooks.reportAgain(kept.reports, trees) ? copy.value : build();
  }
}

/**
 * Whether a build changed nothing but what it made (no dict or module from outside it, whose change a copy
 * would not make), holding no layers outside its tree (which a copy of the tree leaves behind).
 */
function changedOnlyItself(built: ModuleValue, changed: readonly object[], made: (map: object) => boolean): boolean {
  const own = ownMaps(built);
  return own !== undefined && changed.every((m) => own.has(m) || made(m));
}

/** The maps an instance holds: its tree's and its fields', and those of the modules and dicts it holds. */
function ownMaps(value: Value): Set<object> | undefined {
  const maps = new Set<object>();
  const seen = new Set<object>();
  const values: Value[] = [value];
  const trees: ModuleTree[] = [];
  for (let v = values.pop(); v; v = values.pop()) {
    if (seen.has(v)) continue;
    seen.add(v);
    if (v.t === 'module') {
      maps.add(v.fields);
      trees.push(v.tree);
      values.push(...v.fields.values(), ...(v.items ?? []));
    } else if (v.t === 'dict') {
      maps.add(v.fields);
      values.push(...v.fields.values());
    } else if (v.t === 'seq') values.push(...v.items);
  }
  for (let t = trees.pop(); t; t = trees.pop()) {
    if (maps.has(t.children)) continue;
    if (t.arrays || t.untracked) return undefined;
    maps.add(t.params).add(t.children);
    trees.push(...t.children.values());
  }
  return maps;
}
