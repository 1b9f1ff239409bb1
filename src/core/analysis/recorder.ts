/**
 * What the interpreter reports while an analysis runs, kept: every layer built with the context that built
 * it, the models built at module level and inside other code, shape errors, raises, attention written by
 * hand. Which run is on (a class built with its defaults, a run with names for sizes) is its `mode`, set by
 * the passes around each run.
 */
import { describe, moduleParts } from '../attention/recognise';
import { fieldParts } from '../attention/fieldParts';
import { buildExpression } from './buildExpression';
import { layerSpec } from '../catalog';
import { instantiate } from '../catalog/instantiate';
import type { LayerSpec } from '../catalog/spec';
import type { Span } from '../ir/expr';
import type { BoundCall } from '../values/bound';
import type { SiteRecord } from './cache';
import type { Interp } from '../interp/interp';
import type { Hooks, KeptReports, Shared } from '../interp/hooks';
import { InstanceBuilds } from './instanceResults';
import type { Finding, LayerInstance } from '../values/layer';
import type { ModuleTree } from '../values/modules';
import { LINE_NUMBER, type SourceModel } from '../ir/source';
import type { Shape, Value } from '../values/value';
import { Collected, type Added } from './collected';
import { classKey } from './runs';
import { modelOf } from './documented';
import { originalOf, summarize } from '../values/modules';
import { constructorRaises } from '../findings/messages';

export interface RunMode {
  /** A class is being built with its defaults. */
  buildingDefaults: boolean;
  /** The run has parameters without values (a class that needs arguments built alone, a function run with unknowns). */
  symbolic: boolean;
  /** The module body runs: what it builds, the file itself builds. */
  moduleBody: boolean;
}

/** A catalog layer built by a call, kept to build it again for the inputs it is applied to. */
interface LayerBuild {
  readonly spec: LayerSpec;
  readonly bound: BoundCall;
  readonly span: Span;
  /** What its site shows, when it has one. */
  readonly entry?: SiteRecord;
  /** The inputs it was first built for (TF.js builds a layer's weights on its first call). */
  builtFor?: readonly Shape[];
}

/** What a build reported, with the state of the run it was kept in. */
interface KeptBuild extends KeptReports {
  readonly state: string;
  readonly added: readonly Added[];
}

export class Recorder implements Hooks {
  readonly out = new Collected();
  readonly instances = new InstanceBuilds();
  /** The models built at module level, whose forward() is followed too. */
  readonly moduleModels: Value[] = [];
  /** The attention each module of a run computes, by its tree, for the KV cache of the model holding it. */
  readonly attentionByTree = new WeakMap<ModuleTree, LayerInstance>();
  /**
   * Every catalog layer the run built, by its value's `build`: what builds it again for its inputs. Each call
   * builds its own (a helper run twice builds two layers at one site, each for its own input).
   */
  private readonly builds: LayerBuild[] = [];
  /** Subclasses of catalog layers whose sites show the layer they are. */
  private readonly shownAsLayer = new WeakSet<object>();
  readonly mode: RunMode = { buildingDefaults: false, symbolic: false, moduleBody: false };
  /** The classes of the file its module body builds, by class key: the models the file itself builds, and their parts. */
  readonly builtByBody = new Set<string>();
  /** Set while a file importing this one runs: the models it builds the file's classes in, by their outermost context. */
  builtElsewhere: Set<string> | undefined;
  /** The evaluator of the file, once made (it is made with this recorder). */
  evaluator: Interp | undefined;
  /** The tree of the last class built in each model, by the model's context: its root, once its run is over. */
  private readonly roots = new Map<string, ModuleTree>();
  /** The model a factory returned, by its context: a class built in that run outside it is no part of it. */
  private readonly returnedRoots = new Map<string, ModuleTree>();

  constructor(
    private readonly source: SourceModel,
    private readonly shared: Shared,
  ) {}

  /** The context the interpreter is building in ("GPT via Block ×12"). */
  /** Whether the run is building one of the user's own configurations (SourceModel.named). */
  private ownConfiguration(): boolean {
    const outer = this.shared.contexts[0];
    return outer !== undefined && [...(this.source.named?.values() ?? [])].includes(outer);
  }

  private context(): string {
    return this.shared.paths[this.shared.paths.length - 1] ?? '';
  }

  layer: Hooks['layer'] = (path, call, bound, site) => {
    const spec = layerSpec(path);
    // Following forward() for its activations builds nothing the file shows.
    if (!spec || this.shared.tape) return undefined;
    const built = instantiate(spec, bound, call.span, [], this.apply);
    const entry: SiteRecord = {
      layer: built.layer,
      findings: built.findings,
      context: this.context(),
      symbolic: this.mode.symbolic,
    };
    if (site && !spec.weightless) this.out.record(call.span.start, entry);
    const build = this.builds.push({ spec, bound, span: call.span, entry: site ? entry : undefined }) - 1;
    return { t: 'layer', layer: built.layer, span: call.span, build };
  };

  apply: NonNullable<Hooks['apply']> = (value, shapes, builds) => {
    const b = value.build === undefined ? undefined : this.builds[value.build];
    if (!b) return undefined;
    const again = instantiate(b.spec, b.bound, b.span, shapes, this.apply);
    // TF.js builds a layer's weights on its first call; the site shows that build.
    if (builds && !b.builtFor) {
      b.builtFor = shapes;
      if (b.entry) {
        b.entry.layer = again.layer;
        b.entry.findings = again.findings;
      }
    }
    return again.layer;
  };

  report: Hooks['report'] = (f) => this.out.flow(f);

  recorded: NonNullable<Hooks['recorded']> = () => this.out.made.length;

  entryStarted: NonNullable<Hooks['entryStarted']> = () => {
    const mark = this.out.runMark();
    const parts = new Map<string, Set<ModuleTree>>();
    return (failed) =>
      this.out.runEnded(
        mark,
        failed,
        (model) => {
          const root = this.roots.get(model);
          return !root || summarize(root).params?.isConstant === true;
        },
        (model, tree) => {
          const root = this.returnedRoots.get(model);
          if (!root) return true;
          let found = parts.get(model);
          if (!found) parts.set(model, (found = treesOf(root)));
          return found.has(tree);
        },
      );
  };

  varied: NonNullable<Hooks['varied']> = (since) => {
    if (this.shared.tape) return;
    for (const r of this.out.made.slice(since)) r.varies = true;
  };

  instance: NonNullable<Hooks['instance']> = (cls, call, value) => {
    if (value.t !== 'module') return;
    if (!this.instances.has(call.span)) this.moduleModels.push(value);
    this.instances.add({
      className: cls.name,
      span: call.span,
      tree: () => value.tree,
      value,
      symbolic: this.mode.symbolic,
    });
  };

  part: NonNullable<Hooks['part']> = (cls, call, value) => {
    // A subclass of a catalog layer that holds only the layer is a layer site of its own.
    if (value.t === 'module' && !(value.layer && this.shownAsLayer.has(value.layer)) && !this.shared.tape)
      this.out.part({
        className: cls.name,
        span: call.span,
        context: this.context(),
        symbolic: this.mode.symbolic,
        tree: value.tree,
      });
  };

  model: NonNullable<Hooks['model']> = (call, className, tree, value) => {
    this.instances.add({ className, span: call.span, tree, value, symbolic: this.mode.symbolic });
  };

  built: NonNullable<Hooks['built']> = (call, layer) => {
    if (this.shared.tape) return;
    this.shownAsLayer.add(layer);
    this.out.record(call.span.start, {
      layer: layer.layer,
      findings: [],
      context: this.context(),
      symbolic: this.mode.symbolic,
    });
  };

  raised: NonNullable<Hooks['raised']> = (span, exception, message) => {
    // A class built alone (with its defaults, or names for its arguments) is no model the file builds:
    // its total says it raises, but no diagnostic is raised for a model nobody builds that way.
    if (this.mode.symbolic || this.mode.buildingDefaults) return;
    const { shared, source: model } = this;
    const lineName = model.lineName ?? LINE_NUMBER;
    // Reported where the model is built (a module-level call) when there is such a place, else at the raise.
    const site = shared.sites[0];
    const where = shared.contexts.slice(1).join(' via ');
    const key = `${(site ?? span).start}:constructor-raises`;
    const found: Finding = {
      code: 'constructor-raises',
      severity: 'error',
      span: site ?? span,
      fixes: [],
      message: constructorRaises({
        language: model.language,
        model: shared.contexts[0],
        exception,
        message,
        line: lineName(span.startLine),
        where,
      }),
      related: site ? [{ span, message: `${exception} raised here` }] : undefined,
    };
    if (!this.out.flows.has(key)) this.out.flow(found);
  };

  attention: NonNullable<Hooks['attention']> = (module, found) => {
    const cls = module.cls;
    const evaluator = this.evaluator!;
    if (!cls || cls.file !== evaluator.file) return;
    const parts = evaluator.tfjsLayers.is(cls)
      ? fieldParts(module.fields, (l) => evaluator.flows.tfjs.built(l))
      : moduleParts(module.tree, (l) => evaluator.torch.pathIn(module.tree, l));
    const layer = describe(cls.name, found, parts);
    if (!layer) return;
    this.out.attention(classKey(this.source, cls.fragment, cls.scope), found.core, layer);
    if (!this.attentionByTree.get(module.tree)?.attention?.output || found.output)
      this.attentionByTree.set(module.tree, layer);
  };

  keepingReports: NonNullable<Hooks['keepingReports']> = (build) => {
    const context = this.context();
    const state = this.reportState();
    const { result, added } = this.out.capturing(build);
    const movable =
      !this.shared.tape &&
      !this.mode.moduleBody &&
      added.every(
        (a) =>
          (a.k !== 'flow' || a.f.code !== 'constructor-raises') &&
          ((a.k !== 'record' && a.k !== 'part') || a.r.context.startsWith(context)) &&
          (a.k !== 'construction' || a.entry.context.startsWith(context)),
      );
    const reports: KeptBuild | undefined = movable ? { context, state, added } : undefined;
    return { result, reports };
  };

  reportAgain: NonNullable<Hooks['reportAgain']> = (kept, trees) => {
    const { context: from, state, added } = kept as KeptBuild;
    if (state !== this.reportState() || this.shared.tape) return false;
    const to = this.context();
    this.out.addAgain(
      added,
      (c) => to + c.slice(from.length),
      (t) => trees.get(t) ?? t,
    );
    for (const [first, copy] of trees) {
      const attention = this.attentionByTree.get(first);
      if (attention) this.attentionByTree.set(copy, attention);
    }
    return true;
  };

  /** What decides what the run reports, beside the context: two builds in the same state report alike. */
  private reportState(): string {
    const { buildingDefaults, symbolic, moduleBody } = this.mode;
    return `${buildingDefaults}:${symbolic}:${moduleBody}:${this.out.isMuted}`;
  }

  returned: NonNullable<Hooks['returned']> = (tree) => {
    this.returnedRoots.set(modelOf(this.context()), tree);
  };

  constructed: NonNullable<Hooks['constructed']> = (cls, value, args) => {
    // Constructors end inside out: the last class built in a model is its root, whichever file defines it. A
    // TF.js layer class makes its weights when first applied, after the run that builds it: it has no root here.
    if (
      value.t === 'module' &&
      this.source.language === 'python' &&
      !this.mode.symbolic &&
      !this.shared.tape &&
      this.shared.contexts.length
    )
      this.roots.set(modelOf(this.context()), value.tree);
    // The class built with its own defaults is the module result itself, not a context of it; a class
    // built with names for its arguments gives no total a part of it could take.
    if (
      value.t !== 'module' ||
      cls.file !== this.evaluator!.file ||
      this.mode.symbolic ||
      this.shared.tape ||
      (this.mode.buildingDefaults && this.shared.contexts.length === 1)
    )
      return;
    // Its tree, not its total yet: the model building it may still add to it (a projector made on the
    // first call of forward() inside the model's own constructor).
    const key = classKey(this.source, cls.fragment, cls.scope);
    // The user's own configuration is one among the others, not the file's model that hides them.
    if (this.mode.moduleBody && !this.ownConfiguration()) this.builtByBody.add(key);
    this.builtElsewhere?.add(this.shared.contexts[0]);
    const scope = this.evaluator!.of(cls).scopeAt(cls.fragment, cls.scope);
    const expression = args && buildExpression(this.evaluator!, { ...cls, name: scope.name }, args);
    this.out.construction(key, { tree: value.tree, context: this.context(), expression });
  };
}

/** The parts of a model, itself included, each as it was built: a repeated part (`12 × Block`) holds copies of it. */
function treesOf(root: ModuleTree): Set<ModuleTree> {
  const seen = new Set<ModuleTree>();
  const stack = [root];
  while (stack.length) {
    const t = stack.pop()!;
    if (seen.has(t)) continue;
    seen.add(t);
    seen.add(originalOf(t));
    stack.push(...t.children.values());
  }
  return seen;
}
