/**
 * The language-neutral description of a source file that the syntax layer produces and the core reads.
 * It is plain data except for `expr`, which turns a recorded range into an expression on demand: most
 * right-hand sides are never needed, and converting only the ones a layer argument refers to keeps a
 * cold analysis close to the bare parse time.
 */
import type { CellLines } from './cellLines';
import type { Expr, Span } from './expr';

export type Language = 'python' | 'typescript';

/** A range of source text holding one expression, converted only when asked. */
export interface ExprRef {
  readonly start: number;
  readonly end: number;
}

export interface Param {
  readonly name: string;
  readonly default?: ExprRef;
  readonly annotation?: string;
  /** `*args` (and TypeScript rest parameters) collect the extra positional arguments, `**kwargs` the keywords. */
  readonly variadic?: 'list' | 'dict';
  /** A bare `*` before it: the parameter is keyword-only. */
  readonly keywordOnly?: boolean;
  /**
   * TypeScript's destructured parameter (`{ units = 4, dim }: Config = {}`): the names it binds, each from its
   * argument's property `key` (or its default when that is undefined); without `key`, not followed.
   */
  readonly fields?: readonly { readonly name: string; readonly key?: string; readonly default?: ExprRef }[];
}

export interface ImportBinding {
  /** The name bound; `*` for TypeScript's `export * from './blocks'` (every name that module exports). */
  readonly local: string;
  /** The module as written (`torch.nn`, `@tensorflow/tfjs`). */
  readonly module: string;
  /** The imported member (`Linear` in `from torch.nn import Linear`); absent when the module itself is bound. */
  readonly member?: string;
}

/**
 * The statements of a body, in order, with their control flow: what the interpreter runs. Expressions stay
 * ranges, converted when a path reaches them. Targets are expressions too (`self.x`, `a, b`, `d[k]`).
 */
export type Stmt =
  | {
      readonly k: 'assign';
      readonly targets: readonly ExprRef[];
      readonly value?: ExprRef;
      readonly annotation?: string;
      readonly at: number;
    }
  /** `x += v`; without `value`, TypeScript's `x++` / `x--`. */
  | { readonly k: 'aug'; readonly target: ExprRef; readonly op: string; readonly value?: ExprRef; readonly at: number }
  /** `superCall`: a TypeScript `super(...)` statement, after which field initialisers run. */
  | { readonly k: 'expr'; readonly value: ExprRef; readonly superCall?: boolean; readonly at: number }
  /** With `equals`, the condition is `equals === test` (a TypeScript `switch` case). */
  | {
      readonly k: 'if';
      readonly test: ExprRef;
      readonly equals?: ExprRef;
      readonly then: readonly Stmt[];
      readonly otherwise: readonly Stmt[];
      readonly at: number;
    }
  | {
      readonly k: 'for';
      readonly target?: ExprRef;
      readonly iterable: ExprRef;
      readonly body: readonly Stmt[];
      readonly orelse: readonly Stmt[];
      readonly at: number;
    }
  | {
      readonly k: 'while';
      readonly test: ExprRef;
      readonly body: readonly Stmt[];
      readonly orelse: readonly Stmt[];
      readonly at: number;
    }
  | { readonly k: 'return'; readonly value?: ExprRef; readonly at: number }
  | { readonly k: 'raise'; readonly value?: ExprRef; readonly at: number; readonly span: Span }
  | {
      readonly k: 'assert';
      readonly test: ExprRef;
      readonly message?: ExprRef;
      readonly at: number;
      readonly span: Span;
    }
  | { readonly k: 'break' | 'continue'; readonly at: number }
  | {
      readonly k: 'try';
      readonly body: readonly Stmt[];
      readonly handlers: readonly (readonly Stmt[])[];
      readonly orelse: readonly Stmt[];
      readonly final: readonly Stmt[];
      readonly at: number;
    }
  | {
      readonly k: 'with';
      readonly items: readonly { readonly value: ExprRef; readonly target?: ExprRef }[];
      readonly body: readonly Stmt[];
      readonly at: number;
    }
  /** A nested `def` or `class`: binds its name in the running body. */
  | { readonly k: 'def'; readonly scope: number; readonly at: number }
  /** An import inside a function (`from omegaconf.listconfig import ListConfig`): binds its names in the running body. */
  | { readonly k: 'import'; readonly bindings: readonly ImportBinding[]; readonly at: number };

/** What a statement holds: its own expressions, in order, and the bodies of statements inside it. */
export function partsOf(s: Stmt): { exprs: ExprRef[]; bodies: (readonly Stmt[])[] } {
  const exprs = (...refs: (ExprRef | undefined)[]) => refs.filter((r): r is ExprRef => r !== undefined);
  switch (s.k) {
    case 'assign':
      return { exprs: exprs(...s.targets, s.value), bodies: [] };
    case 'aug':
      return { exprs: exprs(s.target, s.value), bodies: [] };
    case 'expr':
    case 'return':
    case 'raise':
      return { exprs: exprs(s.value), bodies: [] };
    case 'assert':
      return { exprs: exprs(s.test, s.message), bodies: [] };
    case 'if':
      return { exprs: exprs(s.test, s.equals), bodies: [s.then, s.otherwise] };
    case 'for':
      return { exprs: exprs(s.target, s.iterable), bodies: [s.body, s.orelse] };
    case 'while':
      return { exprs: exprs(s.test), bodies: [s.body, s.orelse] };
    case 'try':
      return { exprs: [], bodies: [s.body, ...s.handlers, s.orelse, s.final] };
    case 'with':
      return { exprs: exprs(...s.items.flatMap((i) => [i.value, i.target])), bodies: [s.body] };
    default:
      return { exprs: [], bodies: [] };
  }
}

/** Whether statements do more than define functions and classes. */
export function runsCode(body: readonly Stmt[]): boolean {
  return body.some((s) => s.k !== 'def');
}

export interface Scope {
  readonly kind: 'class' | 'function';
  readonly name: string;
  /** Index of the enclosing scope in the same fragment, or -1 for module level. */
  readonly parent: number;
  /** The name's span (its line is the `class` / `def` keyword's). */
  readonly nameSpan: Span;
  /** The whole definition, body included. */
  readonly extent: Span;
  readonly params: readonly Param[];
  /**
   * TypeScript: the names a function declares (parameters, `let`/`const`/`var`, nested functions and classes).
   * Assigning any other name writes the variable of the enclosing function or module, as JavaScript does.
   */
  readonly locals?: readonly string[];
  /** A class's annotated attributes (`n_embd: int = 768`) in order: a dataclass's fields. */
  readonly fields: readonly string[];
  readonly bases: readonly ExprRef[];
  readonly decorators: readonly string[];
  /** The body's statements (a function's; a class body's own statements too). */
  readonly body: readonly Stmt[];
  /** The body does more than define functions and classes (a class body that runs where it is defined). */
  readonly code: boolean;
}

/** A call that may construct a layer, found where its callee's name matched a candidate. */
export interface CallSite {
  /** Index of the innermost scope in the fragment, or -1 for module level. */
  readonly scope: number;
  readonly call: ExprRef;
  readonly span: Span;
}

/** Everything one top-level statement contributes; unchanged fragments are reused after an edit. */
export interface Fragment {
  /** Stays the same while an edit leaves the statement alone (it is shifted, not extracted again). */
  readonly id: number;
  readonly span: Span;
  readonly imports: readonly ImportBinding[];
  readonly scopes: readonly Scope[];
  readonly calls: readonly CallSite[];
  /** The statement itself, as the interpreter runs it at module level. */
  readonly body: readonly Stmt[];
  /** It imports, or does more than define functions and classes: code that runs at module level. */
  readonly code: boolean;
  /** The indices of its module-level scopes (the classes and functions it defines), in order. */
  readonly defs: readonly number[];
}

/** How messages and contexts name a 0-based line: `line 7`, or in a notebook `cell 3, line 2`. */
export type LineName = (line: number) => string;

export const LINE_NUMBER: LineName = (line) => `line ${line + 1}`;

export interface SourceModel {
  readonly language: Language;
  /** How a line of this text is named to the user; `line N` unless the host says otherwise (a notebook's cells). */
  readonly lineName?: LineName;
  readonly fragments: readonly Fragment[];
  /** Converts a recorded range into an expression (memoised by the syntax layer). */
  expr(ref: ExprRef): Expr;
  /** The text of a range, for prefilters that spare work (never to decide what the code means). */
  text(ref: ExprRef): string;
  /** Lines whose findings a comment silences (`# attention-lens: ignore[code]`): the codes, or undefined for all. */
  readonly ignores?: ReadonlyMap<number, ReadonlySet<string> | undefined>;
  /**
   * The user's own configurations, each a statement the host appended to the text (`Transformer(ModelArgs(
   * vocab_size=32000))`), by its line: what such a statement builds is that configuration, named so.
   */
  readonly named?: ReadonlyMap<number, string>;
}

/** Finds the source model of a module another file imports (`from .blocks import Block`), when it is in the workspace. */
export interface ImportResolver {
  /** The module's source; `'analysed'` when it is the file being analysed (imported by one of its importers). */
  resolve(module: string): SourceModel | typeof ANALYSED | undefined;
  /** The resolver of the imports of `model`, a file this one resolved: relative imports start from its folder. */
  resolverOf?(model: SourceModel): ImportResolver | undefined;
  /**
   * The name Python gives `model`, a file this one resolved, as its `__name__`: its packages' dotted path
   * (`timm.models._builder`), whichever import reached it (`from ._builder import ...`).
   */
  nameOf?(model: SourceModel): string | undefined;
  /** The configuration files beside the analysed file (`config.json`, `params.json`), read once an analysis. */
  configurationFiles?(): readonly ConfigurationFile[];
  /** The configuration files of the `configs/` folders at and above the analysed file's, read once an analysis. */
  targetFiles?(): readonly TargetFile[];
  /**
   * A file the code opens by a path it writes out (`open('settings/net.json')`), from the folder of the file
   * running (where its script runs from), read as `format`'s loader reads it; undefined where it is not there.
   */
  dataFile?(name: string, format: DataFormat): ConfigurationFile | undefined;
  /** The workspace's files that import the analysed file (a train script, a builder), read once an analysis. */
  importers?(): readonly Importer[];
}

/** What an importer's resolver gives for the analysed file: the module the run already has. */
export const ANALYSED = 'analysed';

/**
 * A file of the workspace that imports the analysed one, whose models are configurations of its classes
 * (`build_sam.py`'s `build_sam_vit_b()`, a train script's `model = GPT(GPTConfig(**model_args))`).
 */
export interface Importer {
  /** Its path from the analysed file's folder, with `/` (`../build_sam.py`): how configurations name it. */
  readonly name: string;
  readonly model: SourceModel;
  readonly resolver: ImportResolver;
  /** A notebook's: where its code cells lie in the model's text, which names its lines. */
  readonly cells?: CellLines;
  /** The configuration files naming its classes by import path (ImportResolver.targetFiles), named from its folder. */
  targetFiles?(): readonly TargetFile[];
  /** The configuration files beside it (ImportResolver.configurationFiles), named from its folder. */
  configurationFiles?(): readonly ConfigurationFile[];
}

/**
 * A configuration file: its name, as a context names it (`config.json`), its data as the syntax layer read it
 * (JSON, an int as a bigint and a float as a number; undefined when it is none), and a number that differs for
 * each text the file has had (a run from the last version is replayed only for the same text).
 */
/** The loaders a file read by a literal path may be given to: `json.load`, `yaml.safe_load`, `tomllib.load`. */
export type DataFormat = 'json' | 'yaml' | 'toml';

export interface ConfigurationFile {
  readonly name: string;
  readonly data: unknown;
  readonly version: number;
}

/**
 * A configuration file of a folder above the analysed file (`configs/stable-diffusion/v1-inference.yaml`), with
 * the analysed file's module as that folder imports it (`ldm.modules.diffusionmodules.openaimodel`): its
 * `target`s name classes by that path.
 */
export interface TargetFile extends ConfigurationFile {
  readonly module: string;
}

/** The index of the top-level statement holding `offset` (statements are in source order), or -1. */
export function fragmentIndexAt(fragments: readonly Fragment[], offset: number): number {
  let lo = 0;
  let hi = fragments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = fragments[mid];
    if (offset < f.span.start) hi = mid - 1;
    else if (offset >= f.span.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
