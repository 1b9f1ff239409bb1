/**
 * The interpreter: runs the file's module body, its classes' constructors and its functions over values,
 * without running anything real. Literals, constants, defaults, config objects, arithmetic, branches,
 * loops, calls, classes with their bases and `super()`, partials and lambdas are followed; what cannot be
 * known becomes a symbol (a parameter without a value) or `unknown`, never a guess.
 */
import type { Expr, Span } from '../ir/expr';
import {
  ANALYSED,
  LINE_NUMBER,
  type ExprRef,
  type Importer,
  type ImportBinding,
  type DataFormat,
  type ImportResolver,
  type LineName,
  type Scope,
  type SourceModel,
} from '../ir/source';
import { memberOf } from './members';
import { cellLineName } from '../ir/cellLines';
import type { DefRef, Value } from '../values/value';
import { Poly } from '../values/symbolic';
import { dataValue } from '../values/dataValue';
import { layerSpec } from '../catalog';
import { normalizePath } from '../ir/imports';
import { moduleNames, type Definition } from '../ir/moduleNames';
import { AnalysisInterrupted, BudgetExceeded, type Budget } from '../limits/budget';
import { surfaceInternal } from '../limits/internalErrors';
import { evalExpr } from './expressions';
import { Frame } from './frame';
import { Journal } from './journal';
import { Runner, type StatementContext } from './statements';
import type { Interp } from './interp';
import { Calls } from './calls';
import { Functions } from './functions';
import { Flows } from './flows';
import { Names } from './names';
import { Assignments } from './assign';
import { Dicts } from './dicts';
import { arithmetic } from './arith';
import { ShapeChecks } from './shapeChecks';
import { ClassModel } from './classes';
import { TorchApi } from './torchApi';
import { TfjsLayerClasses } from './tfjsLayerClasses';
import { RequiresGrad } from './requiresGrad';
import { iterationOf, type Iteration } from './iteration';
import { reportRaise, type RaiseSite } from './raises';
import { countingHooks, newShared, type Hooks, type Reads, type Shared } from './hooks';
import type { StatementReplays } from './statementReplays';
import type { TorchTape } from '../activations/torchTape';

/** The files of one run: each file's evaluator by number (DefRef.file), and each imported file's by its model. */
class Program {
  readonly evaluators: Evaluator[] = [];
  readonly imported = new Map<SourceModel, Evaluator>();
}

export class Evaluator implements Interp, StatementContext {
  readonly moduleFrame: Frame;
  readonly runner: Runner;
  readonly classes: ClassModel;
  readonly torch: TorchApi;
  readonly tfjsLayers: TfjsLayerClasses;
  readonly checks: ShapeChecks;
  readonly calls: Calls;
  readonly functions: Functions;
  readonly flows: Flows;
  readonly names: Names;
  readonly assignments: Assignments;
  readonly dicts: Dicts;
  readonly grads: RequiresGrad;
  readonly repeats: Poly[] = [];
  /** The offsets of the calls some run evaluated. */
  readonly reached = new Set<number>();
  /**
   * The calls the run being recorded evaluated, those other runs reached first included: replayed in a later
   * version, the run reaches them whichever runs before it are no longer there.
   */
  reachedByRun: Set<number> | undefined;

  /** The last call evaluated: where a run that ran out of budget stopped. */
  lastCall: Span | undefined;
  /** Where runs ran out of their work budget, and which allowance: the analysis says so there. */
  readonly stops: { readonly span: Span; readonly what: string }[] = [];

  reach(at: number): void {
    // A probe's run is no run: its calls are still to be reached by the runs that follow it.
    if (this.shared.probe) return;
    this.reached.add(at);
    this.reachedByRun?.add(at);
  }
  /** Called after each assignment while forward() is followed, for inlay hints. */
  assigned?: (value: Value, expr: Expr) => void;
  private ran = false;
  /** Set while an entry point whose reads are recorded runs. */
  reads: Reads | undefined;
  /** Above 0 while what is met proves no error (a Sequential's inner layers, runs with names for sizes). */
  quiet = 0;
  /** This file's number among the files of the run (DefRef.file). */
  readonly file: number;
  /** Set while one forward() is followed for the tensors autograd keeps (activations/follow.ts), in every file's evaluator. */
  get tape(): TorchTape | undefined {
    return this.shared.tape;
  }

  /** Runs `work` reporting no shape error. */
  quietly<T>(work: () => T): T {
    this.quiet++;
    try {
      return work();
    } finally {
      this.quiet--;
    }
  }

  readonly hooks: Hooks;
  /** How messages and contexts name a line of this text. */
  readonly lineName: LineName;

  constructor(
    readonly model: SourceModel,
    hooks: Hooks,
    private readonly resolver?: ImportResolver,
    readonly shared: Shared = newShared(),
    /** `__name__`: the file analysed runs as `__main__` (its `if __name__ == "__main__":` models are built); a file it imports, by its module name. */
    readonly moduleName = '__main__',
    private readonly program = new Program(),
    lineName?: LineName,
  ) {
    this.file = this.program.evaluators.push(this) - 1;
    this.hooks = countingHooks(hooks, this.shared);
    this.lineName = lineName ?? model.lineName ?? LINE_NUMBER;
    this.moduleFrame = new Frame(0, -1, undefined);
    this.runner = new Runner(this);
    this.classes = new ClassModel(this);
    this.torch = new TorchApi(this);
    this.tfjsLayers = new TfjsLayerClasses(this);
    this.calls = new Calls(this);
    this.functions = new Functions(this);
    this.flows = new Flows(this);
    this.names = new Names(this);
    this.assignments = new Assignments(this);
    this.dicts = new Dicts(this.shared.journal, this.assignments.fieldsOwner, (fields) => {
      this.shared.effects++;
      this.shared.tainted.push(fields);
    });
    this.grads = new RequiresGrad(this.shared);
    this.checks = new ShapeChecks(
      (f) => {
        if (this.quiet === 0) this.hooks.report(f);
      },
      this.flows.attention,
      this.lineName,
    );
  }

  get budget(): Budget {
    return this.shared.budget;
  }

  get journal(): Journal {
    return this.shared.journal;
  }

  get language(): SourceModel['language'] {
    return this.model.language;
  }

  get selfName(): string {
    return this.model.language === 'python' ? 'self' : 'this';
  }

  expr(ref: ExprRef): Expr {
    return this.model.expr(ref);
  }

  scopeAt(fragment: number, scope: number): Scope {
    this.reads?.fragments.add(this.model.fragments[fragment].id);
    return this.model.fragments[fragment].scopes[scope];
  }

  /**
   * Runs the module body once, statement by statement; a budget overrun leaves the rest unknown. With
   * `replays`, a statement that only bound plain values in the last version binds them again.
   */
  runModule(replays?: StatementReplays): void {
    if (this.ran) return;
    this.ran = true;
    const names = moduleNames(this.model);
    let next = 0;
    for (const [fi, fragment] of this.model.fragments.entries()) {
      this.moduleFrame.fragment = fi;
      // This statement's imports and definitions are names[first] to names[next - 1].
      const first = next;
      while (next < names.length && names[next].fragment === fi) next++;
      // The user's own configurations run once the module has (runOwnConfigurations).
      if (this.model.named?.has(fragment.span.startLine)) continue;
      // An importer's statement names what the analysed file's code builds for it (`Transformer (train.py, line 9)`).
      if (this.importing) this.shared.importer = this.lineName(fragment.span.startLine);
      if (fragment.code) {
        const work = () => {
          // A script stops where it throws: a TF.js model it was still adding layers to is never complete.
          if (this.runner.body(fragment.body, this.moduleFrame) === 'raise')
            this.flows.tfjs.stopped(`the file throws at ${this.lineName(fragment.span.startLine)}`);
        };
        if (replays) replays.run(fi, fragment, work);
        else this.guard(work);
      } else {
        // A statement that only defines binds its definitions' names, in order, where a lookup would not
        // find the same among the file's definitions: its body, which a statement moved by an edit shifts
        // when first read, is not needed for that.
        for (let k = first; k < next; k++) {
          const { name, scope } = names[k] as Definition;
          if (this.names.mustBind(name)) this.define(scope, this.moduleFrame);
        }
      }
      // Python runs a class body where the class is defined: what a body that does more than define methods
      // builds belongs to the module's run, not to whichever run first asks for an attribute (which a later
      // version may replay instead of running). A body of definitions alone adds nothing: it runs when asked.
      if (this.language !== 'python') continue;
      for (let k = first; k < next; k++) {
        const n = names[k];
        if (!('kind' in n) || n.kind !== 'class' || !n.code) continue;
        const work = () => this.classBody(fi, n.scope);
        if (replays) replays.classBody(fragment, n.scope, work);
        else this.guard(work);
      }
    }
  }

  private classBody(fragment: number, scope: number): void {
    const cls = this.names.definition(fragment, scope, undefined);
    if (cls.t === 'class') this.classes.ownAttributes(cls);
  }

  /** Runs `work` as part of building `label` (a model, or a factory run), which layers built in it name. */
  inContext<T>(label: string, site: Span | undefined, work: () => T): T {
    const shared = this.shared;
    shared.repeatDepths.push(this.repeats.length);
    shared.sites.push(site);
    shared.paths.push(shared.contexts.length ? `${shared.paths[shared.paths.length - 1]} via ${label}` : label);
    shared.contexts.push(label);
    try {
      return work();
    } finally {
      shared.contexts.pop();
      shared.paths.pop();
      shared.repeatDepths.pop();
      shared.sites.pop();
    }
  }

  /**
   * Runs `work` as one entry point: a budget overrun or an unforeseen shape ends it as unknown. Inside an
   * entry point it runs as it is, so that an overrun ends the whole entry, never leaves it half built.
   */
  guard<T>(work: () => T): T | undefined {
    if (this.budget.inEntry) return work();
    const depth = this.budget.depth;
    const position = this.journal.position;
    const ended = this.hooks.entryStarted?.();
    this.budget.startEntry();
    try {
      const result = work();
      ended?.(false);
      return result;
    } catch (e) {
      if (e instanceof AnalysisInterrupted) throw e;
      // The budget ran out, or half-typed code reached a shape no rule foresaw: this part is unknown,
      // the rest of the file is not.
      surfaceInternal(e);
      if (
        e instanceof BudgetExceeded &&
        this.lastCall &&
        !this.stops.some((s) => s.span.start === this.lastCall!.start) &&
        this.stops.length < 10
      )
        this.stops.push({ span: this.lastCall, what: e.what });
      this.budget.depth = depth;
      ended?.(true);
      this.journal.rewind(position);
      return undefined;
    } finally {
      this.budget.endEntry();
    }
  }

  eval(e: Expr, frame: Frame): Value {
    return evalExpr(this, e, frame);
  }

  iteration(v: Value): Iteration {
    return iterationOf(this, v);
  }

  // ---- attributes and items -----------------------------------------------------------------------

  member(obj: Value, id: string): Value {
    const v = memberOf(this, obj, id);
    return this.tape && obj.t === 'tensor' ? this.tape.member(obj, id, v) : v;
  }

  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void {
    this.assignments.assign(target, value, frame, source);
  }

  run(e: Expr, frame: Frame): void {
    this.assignments.run(e, frame);
  }

  recorded(): number {
    return (this.hooks.recorded?.() ?? 0) + (this.tape?.tape.size ?? 0);
  }

  varied(since: number): void {
    this.hooks.varied?.(since);
  }

  define(scope: number, frame: Frame): void {
    this.names.define(scope, frame);
  }

  importBinding(binding: ImportBinding): Value {
    return this.names.binding(binding);
  }

  dataFile(name: string, format: DataFormat): Value | undefined {
    const file = this.resolver?.dataFile?.(name, format);
    return file && dataValue(file.data);
  }

  /** The evaluator of the file that defines `def`. */
  of(def: Pick<DefRef, 'file'>): Evaluator {
    return def.file === this.file ? this : this.program.evaluators[def.file];
  }

  /**
   * The evaluator of another file of the workspace this one imports, its module body run once; the analysed
   * file's own when an importer of it imports it (its module has run).
   */
  imported(module: string): Evaluator | undefined {
    const model = this.resolver?.resolve(module);
    this.reads?.files.set(module, model);
    if (!model) return undefined;
    if (model === ANALYSED) return this.program.evaluators[0];
    let other = this.program.imported.get(model);
    if (!other) {
      other = this.otherFile(
        model,
        this.resolver?.resolverOf?.(model) ?? this.resolver,
        this.resolver?.nameOf?.(model) ?? module,
      );
      this.program.imported.set(model, other);
      other.runModule();
    }
    return other;
  }

  /**
   * The evaluator of a file importing the analysed one, run as `__main__` (a train script is), its lines
   * named `../train.py, line 40`; none when the analysed file imports it too (it is that module already).
   */
  importer(importer: Importer): Evaluator | undefined {
    if (this.program.imported.has(importer.model)) return undefined;
    const other = this.otherFile(importer.model, importer.resolver, '__main__', importerLineName(importer));
    other.importing = true;
    return other;
  }

  /** Whether this file imports the analysed one and runs for the models it builds with it (analysis/importers.ts). */
  private importing = false;

  /** Another file of the run: what it builds is reported as layers of the files it calls, none of its own. */
  private otherFile(model: SourceModel, resolver: ImportResolver | undefined, name: string, lineName?: LineName) {
    return new Evaluator(
      model,
      {
        layer: (p, c, a) => this.hooks.layer(p, c, a, false),
        report: () => undefined,
        // Its runs build the analysed file's classes too (an importer's): a failed one is summarised as they are,
        // and what its factories return is the model they build them in.
        entryStarted: this.hooks.entryStarted,
        returned: this.hooks.returned,
      },
      resolver,
      this.shared,
      name,
      this.program,
      lineName,
    );
  }

  /** Whether this is the analysed file's evaluator. */
  get analysed(): boolean {
    return this.file === 0;
  }

  raised(span: Span, what: RaiseSite, frame: Frame): void {
    reportRaise(this, span, what, frame);
  }

  binary(op: string, l: Value, r: Value, span?: Span, inPlace = false): Value {
    const result = this.arithmetic(op, l, r, span);
    return this.tape && [l, r].some((v) => v.t === 'tensor' || v.t === 'param')
      ? this.tape.binary(op, l, r, inPlace, result)
      : result;
  }

  private arithmetic(op: string, l: Value, r: Value, span?: Span): Value {
    // In TypeScript `+` on tensors is no tensor operation (js-pytorch and TF.js use add()): nothing to check.
    if (l.t === 'tensor' && r.t === 'tensor')
      return this.checks.broadcast(op, l, r, this.language === 'python' ? span : undefined);
    if (this.language === 'python' && op !== '@') this.checks.withParameter(op, l, r, span);
    // `torch.randn(n, d) * 0.02` is still a tensor of that shape.
    if (l.t === 'tensor') return l;
    if (r.t === 'tensor') return r;
    return arithmetic(op, l, r, this.language);
  }

  // ---- tensors through forward() ------------------------------------------------------------------

  /** A catalog layer's spec is known for `path`. */
  isCatalogLayer(path: string): boolean {
    return layerSpec(normalizePath(path)) !== undefined;
  }
}

/** How an importer's lines are named: `../train.py, line 40`, `../demo.ipynb, cell 3, line 2`. */
export function importerLineName(importer: Importer): LineName {
  const inCells = importer.cells && cellLineName(importer.cells);
  return (line) => `${importer.name}, ${inCells ? inCells(line) : `line ${line + 1}`}`;
}
