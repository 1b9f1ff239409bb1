/**
 * What the interpreter's topic modules (calls, classes, functions, flows, assignments, the torch, TF.js and
 * Hugging Face APIs) use of each other, through the file's evaluator. They receive this, not the Evaluator
 * class, which is the one place that builds them: a topic module depends on what the others offer, never on
 * how the evaluator wires them, and no file of the interpreter imports evaluator.ts.
 */
import type { TorchTape } from '../activations/torchTape';
import type { Arg, Expr, Span } from '../ir/expr';
import type { Finding } from '../values/layer';
import type { ModuleTree } from '../values/modules';
import type { DataFormat, ExprRef, LineName, Scope, SourceModel } from '../ir/source';
import type { Poly } from '../values/symbolic';
import type { DefRef, Shape, Value } from '../values/value';
import type { Budget } from '../limits/budget';
import type { Dicts } from './dicts';
import type { Frame } from './frame';
import type { Hooks, Reads, Shared } from './hooks';
import type { Iteration } from './iteration';
import type { Journal, Owner } from './journal';
import type { Names } from './names';
import type { RequiresGrad } from './requiresGrad';
import type { AttentionEvents, LayerValue, ShapeChecks } from './shapeChecks';
import type { Exit, Runner } from './statements';
import type { TfjsModels } from './tfjsModels';
import type { BoundCall, CallExpr } from '../values/bound';

type ModuleValue = Extract<Value, { t: 'module' }>;
/** A function or method with the frame it closes over, by number (Environments). */
export type FunctionRef = DefRef & { closure?: number };
/** A class of the file's, or one a library defines (`nn.Module`), by its path. */
export type Base = DefRef | { readonly path: string };

/** Classes: their bases, attributes and methods, and building an instance. */
export interface ClassesPort {
  attribute(c: DefRef, name: string, instance: Value | undefined, after?: DefRef): Value | undefined;
  constructorScope(c: DefRef): Scope | undefined;
  dataclassFields(c: DefRef): Set<string>;
  initLayerBase(self: ModuleValue, path: string, bound: BoundCall, call: CallExpr): Value;
  instantiate(c: DefRef, bound: BoundCall, call: CallExpr | undefined, named?: string): Value;
  isModuleClass(c: DefRef): boolean;
  method(c: DefRef, name: string): FunctionRef | undefined;
  mro(c: DefRef): readonly Base[] | undefined;
  needsArguments(c: DefRef): boolean;
  ownAttributes(c: DefRef): ReadonlyMap<string, Value>;
  superAttribute(s: Extract<Value, { t: 'super' }>, name: string): Value | undefined;
  superInit(s: Extract<Value, { t: 'super' }>, bound: BoundCall, call: CallExpr): Value | undefined;
}

/** torch.nn's modules: what registers a parameter or a submodule, and the layers of the catalog. */
export interface TorchPort {
  adoptTree(layer: LayerValue, tree: ModuleTree): void;
  asValue(tree: ModuleTree): Value;
  construct(path: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value | undefined;
  deepCopied(module: ModuleValue): { readonly value: ModuleValue; readonly trees: ReadonlyMap<ModuleTree, ModuleTree> };
  grown(list: Extract<Value, { t: 'seq' }>, method: string, args: readonly Value[]): Value;
  handles(method: string): boolean;
  holdsUnregistered(tree: ModuleTree, name: string, finding: Finding): void;
  moduleMethod(obj: ModuleValue | LayerValue, method: string, positional: readonly Value[]): Value | undefined;
  moduleOf(v: Value): ModuleTree | undefined;
  owner(tree: ModuleTree): Owner;
  pathIn(root: ModuleTree, v: Value): string | undefined;
  register(tree: ModuleTree, value: Value): void;
  setMember(obj: ModuleValue, name: string, value: Value): void;
  unregisteredAfterBuild(tree: ModuleTree): Finding[];
}

export interface CallsPort {
  bind(args: readonly Arg[], frame: Frame): BoundCall | undefined;
  call(e: CallExpr, frame: Frame): Value;
  /** A lambda called with no arguments (a dataclass field's `default_factory`). */
  invoke(fn: Extract<Value, { t: 'lambda' }>): Value;
}

export interface FunctionsPort {
  nested(work: () => Value): Value;
  running<T>(scope: Scope, work: () => T, refused: () => T): T;
  callFunction(
    fn: FunctionRef,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    self?: Value,
  ): Value;
  runConstructor(
    init: FunctionRef,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    self: Value,
    missing: string[],
    opaque?: boolean,
  ): Exit;
}

/** Tensors through layers, models and forward(). */
export interface FlowsPort {
  readonly attention: AttentionEvents;
  readonly tfjs: TfjsModels;
  applyCallable(
    callee: Extract<Value, { t: 'layer' } | { t: 'module' }>,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    span: Span,
  ): Value;
  flowCall(target: Value, method: string, args: readonly Arg[], frame: Frame, span: Span): Value | undefined;
  followForward(instance: Value): { at: Expr; features: Poly }[];
  functional(config: Value | undefined, call: CallExpr): Value;
  sequential(config: Value | undefined, call: CallExpr): Value;
  within(module: Value, run: () => Value): Value;
}

export interface AssignmentsPort {
  readonly fieldsOwner: Owner;
  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void;
  run(e: Expr, frame: Frame): void;
  setAttribute(target: Value, name: string, value: Value, mayBeModule?: boolean): void;
  listMethod(
    holder: Expr,
    list: Extract<Value, { t: 'seq' }>,
    method: string,
    args: readonly Value[],
    frame: Frame,
  ): Value;
}

/** TF.js layer classes a file writes (`class Attn extends tf.layers.Layer`). */
export interface TfjsLayersPort {
  added(layer: Value, input: Shape | undefined): { tree: ModuleTree; shape: Shape | undefined } | undefined;
  is(cls: DefRef | undefined): boolean;
  method(obj: Value, method: string, e: CallExpr, frame: Frame): Value | undefined;
}

/** One file's evaluator, as the topic modules see it. */
export interface Interp {
  readonly model: SourceModel;
  /** This file's number among the files of the run (DefRef.file). */
  readonly file: number;
  /** Whether this is the analysed file's evaluator (the others are files it imports, or that import it). */
  readonly analysed: boolean;
  readonly language: SourceModel['language'];
  /** `__name__`: `__main__` for the file analysed and its importers, else the module's dotted name. */
  readonly moduleName: string;
  readonly selfName: string;
  readonly lineName: LineName;
  readonly hooks: Hooks;
  readonly shared: Shared;
  readonly budget: Budget;
  readonly journal: Journal;
  readonly moduleFrame: Frame;
  readonly repeats: Poly[];
  readonly tape: TorchTape | undefined;
  /** The last call evaluated: where a run that ran out of budget stopped. */
  lastCall: Span | undefined;
  /** Above 0 while what is met proves no error. */
  quiet: number;
  /** Set while an entry point whose reads are recorded runs. */
  reads: Reads | undefined;

  readonly runner: Runner;
  readonly classes: ClassesPort;
  readonly torch: TorchPort;
  readonly tfjsLayers: TfjsLayersPort;
  readonly checks: ShapeChecks;
  readonly calls: CallsPort;
  readonly functions: FunctionsPort;
  readonly flows: FlowsPort;
  readonly names: Names;
  readonly assignments: AssignmentsPort;
  readonly dicts: Dicts;
  readonly grads: RequiresGrad;

  /** The evaluator of the file that defines `def` (or of the file numbered so). */
  of(def: Pick<DefRef, 'file'>): Interp;
  expr(ref: ExprRef): Expr;
  scopeAt(fragment: number, scope: number): Scope;
  eval(e: Expr, frame: Frame): Value;
  member(obj: Value, id: string): Value;
  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void;
  iteration(v: Value): Iteration;
  binary(op: string, l: Value, r: Value, span?: Span, inPlace?: boolean): Value;
  reach(at: number): void;
  quietly<T>(work: () => T): T;
  inContext<T>(label: string, site: Span | undefined, work: () => T): T;
  guard<T>(work: () => T): T | undefined;
  isCatalogLayer(path: string): boolean;
  /** What the loader of `format` gives for the file the running file opens by the path `name`; undefined if not read. */
  dataFile(name: string, format: DataFormat): Value | undefined;
  /** Called after each assignment while forward() is followed, for inlay hints. */
  assigned?: (value: Value, expr: Expr) => void;
}
