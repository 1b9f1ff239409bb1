/**
 * What the interpreter shares with the analysis that drives it: the hooks through which it reports layers,
 * models and shape errors, the state one file's evaluators share, and what an entry point read.
 */
import type { Span } from '../ir/expr';
import type { BoundCall, CallExpr } from '../values/bound';
import type { Finding, LayerInstance } from '../values/layer';
import type { GradState, ModuleTree } from '../values/modules';
import type { ImportResolver, Scope } from '../ir/source';
import type { DefRef, Shape, Value } from '../values/value';
import { Budget } from '../limits/budget';
import { Environments } from './frame';
import { Journal } from './journal';
import type { LayerValue } from './shapeChecks';
import type { Attention } from '../attention/recognise';
import type { TorchTape } from '../activations/torchTape';

/** What the analysis supplies and learns while the interpreter runs. */
export interface Hooks {
  /** Builds a catalog layer; `site` is false for a layer a subclass's constructor builds through super(). */
  layer(path: string, call: CallExpr, args: BoundCall, site: boolean): LayerValue | undefined;
  /**
   * Builds a layer the run built (`layer`'s `build`) again for the inputs it is applied to; `builds` true
   * when the layer itself is built for them (its site then shows its first such build), false for a copy.
   */
  apply?(layer: LayerValue, inputs: readonly Shape[], builds: boolean): LayerInstance | undefined;
  /** A shape error met while following tensors. */
  report(f: Finding): void;
  /** A model class built by a call at module level (`model = GPT(cfg)`). */
  instance?(cls: DefRef, call: CallExpr, value: Value): void;
  /**
   * A `raise` or a failed `assert` reached for certain (no unknown condition or `try` around it) while a
   * model of this file is built: the exception's name and message where they are known.
   */
  raised?(span: Span, exception: string, message: string | undefined): void;
  /** A model class built by a call inside other code (`self.attn = CausalSelfAttention(config)`), at that call. */
  part?(cls: DefRef, call: CallExpr, value: Value): void;
  /**
   * Every model instance the run builds (once its constructor has run), with what built it and, where they
   * could be followed, the arguments it was built with.
   */
  constructed?(
    cls: DefRef,
    value: Value,
    args?: { readonly positional: readonly Value[]; readonly keywords: ReadonlyMap<string, Value> },
  ): void;
  /** A factory returned `tree`, the model of the context it runs in (what else it built is no part of it). */
  returned?(tree: ModuleTree): void;
  /** How many layers were recorded so far. */
  recorded?(): number;
  /**
   * An entry point starts (Evaluator.guard); what it gives is called once the entry is over, with whether it
   * failed; a failed one before its writes are undone: what was recorded of the trees it built is kept as they stood.
   */
  entryStarted?(): (failed: boolean) => void;
  /** The layers recorded since `since` were built in one pass of a loop whose passes differ: no count holds for them. */
  varied?(since: number): void;
  /**
   * A model a library builds at `call` (TF.js's `tf.sequential`, `tf.model`; peft's `get_peft_model`): its module
   * tree, read once the run is over, and the module value to size where it has one.
   */
  model?(call: CallExpr, className: string, tree: () => ModuleTree, value?: Value): void;
  /** A subclass of a catalog layer built at a call site: the layer its constructor made. */
  built?(call: CallExpr, layer: LayerValue): void;
  /** Attention written by hand, met in `module`'s forward(): its core, then again with its output projection. */
  attention?(module: Extract<Value, { t: 'module' }>, found: Attention): void;
  /**
   * Runs `build`, keeping what it reports so that another build it stands for (opaqueBuilds.ts) can report
   * the same in its own context; no reports when they say more than the build itself (the model around it).
   */
  keepingReports?<T>(build: () => T): { readonly result: T; readonly reports?: KeptReports };
  /**
   * Reports `kept` again in the context being built now, for a copy of the build (`trees`: the copy of each
   * module tree the build made); false when the run is not in the state it was kept in.
   */
  reportAgain?(kept: KeptReports, trees: ReadonlyMap<ModuleTree, ModuleTree>): boolean;
}

/** What a build reported, kept by the analysis (Hooks.keepingReports). */
export interface KeptReports {
  /** The context the build was in. */
  readonly context: string;
}

/** What one file's evaluators share along a chain of imports. */
export interface Shared {
  readonly budget: Budget;
  readonly journal: Journal;
  /** What is being built, outermost first, for the "in GPT via Block ×12" of a layer's context. */
  readonly contexts: string[];
  /** Beside each context, it and those enclosing it joined ("GPT via Block ×12"): made once per build, not once per layer. */
  readonly paths: string[];
  /** How many loop counts were entered when each context started. */
  readonly repeatDepths: number[];
  /** Beside each context, the call that started it when it was built by a call at module level. */
  readonly sites: (Span | undefined)[];
  /** Above 0 while a path runs that may not be taken (a branch of an unknown condition, a loop run once, a `try`). */
  unsure: number;
  /** Above 0 while the constructor of a model class runs. */
  building: number;
  /**
   * The functions and constructors being run, innermost last, each with `unsure` as it was when it started
   * and the file defining it (DefRef.file).
   */
  readonly running: { readonly scope: Scope; readonly unsure: number; readonly file: number }[];
  /**
   * The function (or constructor) run alone for its layers' formulas: its number and flag defaults become
   * names, since a caller may pass others (`heads=8` read as `heads`).
   */
  paramsAsNames: Scope | undefined;
  /**
   * Parameters whose `requires_grad` the code set (`requires_grad_(False)`, `p.requires_grad = False`), by
   * parameter id; one not listed trains. Written through the journal, so a branch not known to run leaves it 'unknown'.
   */
  readonly grad: Map<string, GradState>;
  /** Set while one forward() is followed for the tensors autograd keeps: every tensor operation is reported to it. */
  tape?: TorchTape;
  /** How many times a run reported something or changed a dict it did not make: a statement that did neither only bound names. */
  effects: number;
  /** The dicts the run tainted (changes no journal holds), by their fields, in order. */
  readonly tainted: object[];
  /** The frames the run's functions close over, by number. */
  readonly environments: Environments;
  /** Set while a preset function runs to find the names it takes (analysis/presets.ts). */
  probe?: Probe;
  /** Set while a file importing the analysed one runs (analysis/importers.ts): its name, as its models are named. */
  importer?: string;
}

/**
 * A parameter's value while its function is run to find which names it accepts: the keys of each dict it
 * indexes with the value or tests it against, the strings of each set it tests it against or it is compared with.
 */
export interface Probe {
  readonly value: Value;
  readonly names: Set<string>;
}

/**
 * What one entry point of the analysis read: the top-level statements (by fragment id) whose code ran,
 * the module-level names it looked up with the statement that bound each, the module variables it read
 * with their values' keys (undefined: a value no key describes), and the other files it imported. While
 * all of them are unchanged after an edit, its results still hold.
 */
export interface Reads {
  readonly fragments: Set<number>;
  readonly names: Map<string, number>;
  readonly values: Map<string, string | undefined>;
  readonly files: Map<string, ReturnType<ImportResolver['resolve']>>;
  /**
   * What the kept results it reused read (a class's method resolution order), linked, not copied: each class
   * of a 1,000-class chain copied the reads of every class above it, 28% of the chain's analysis.
   */
  readonly parts: Set<Reads>;
}

export function newReads(): Reads {
  return { fragments: new Set(), names: new Map(), values: new Map(), files: new Map(), parts: new Set() };
}

/** `r` and every Reads linked below it, each once. */
export function allReads(r: Reads): Reads[] {
  // Asked on every key typed, for every run kept: most have nothing linked.
  if (!r.parts.size) return [r];
  const seen = new Set<Reads>([r]);
  const out = [r];
  for (let i = 0; i < out.length; i++)
    for (const p of out[i].parts)
      if (!seen.has(p)) {
        seen.add(p);
        out.push(p);
      }
  return out;
}

/** What a version of the document answers about the things a run read. */
export interface ReadsNow {
  readonly ids: ReadonlySet<number>;
  originOf(name: string): number;
  keyOf(name: string): string | undefined;
  file(module: string): ReturnType<ImportResolver['resolve']>;
  /** Reads already asked about in this version: many runs link the same kept result's reads (a class's bases). */
  readonly held?: WeakMap<Reads, boolean>;
}

/** Whether what a run read is as it was: each statement still there, each name bound by the same statement, each module variable's value the same, each import the same file. */
export function readsHold(reads: Reads, now: ReadsNow): boolean {
  return now.held ? holdsBelow(reads, now, now.held) : allReads(reads).every((r) => ownReadsHold(r, now));
}

/** Whether `r` and what is linked below it hold, each Reads asked once a version (a kept class's bases are linked by thousands of runs). */
function holdsBelow(r: Reads, now: ReadsNow, held: WeakMap<Reads, boolean>): boolean {
  const known = held.get(r);
  if (known !== undefined) return known;
  // Taken as holding while its parts are asked, should they link back to it.
  held.set(r, true);
  let holds = ownReadsHold(r, now);
  if (holds) for (const p of r.parts) if (!(holds = holdsBelow(p, now, held))) break;
  held.set(r, holds);
  return holds;
}

function ownReadsHold(r: Reads, now: ReadsNow): boolean {
  for (const id of r.fragments) if (!now.ids.has(id)) return false;
  for (const [name, id] of r.names) if (now.originOf(name) !== id) return false;
  for (const [name, key] of r.values) if (key === undefined || now.keyOf(name) !== key) return false;
  for (const [module, file] of r.files) if (now.file(module) !== file) return false;
  return true;
}

/** Adds what one computation read to what the entry point running it reads. */
export function addReads(into: Reads, from: Reads): void {
  if (from !== into) into.parts.add(from);
}

export function newShared(): Shared {
  return {
    budget: new Budget(),
    journal: new Journal(),
    contexts: [],
    paths: [],
    repeatDepths: [],
    sites: [],
    unsure: 0,
    building: 0,
    running: [],
    paramsAsNames: undefined,
    grad: new Map(),
    effects: 0,
    tainted: [],
    environments: new Environments(),
  };
}

/**
 * `hooks`, counting each report into `shared.effects` (how many layers were recorded is a question, and an
 * entry starting is none either).
 */
export function countingHooks(hooks: Hooks, shared: Shared): Hooks {
  const counted: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(hooks) as [string, unknown][]) {
    // A recorder's own fields beside its hooks (what it collects) are no hooks.
    if (typeof hook !== 'function') continue;
    counted[name] =
      name === 'recorded' || name === 'entryStarted'
        ? hook
        : (...args: unknown[]) => {
            shared.effects++;
            return hook.apply(hooks, args);
          };
  }
  return counted as unknown as Hooks;
}
