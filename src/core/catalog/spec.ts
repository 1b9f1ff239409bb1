/** How a catalog entry describes a layer: its signature, and how it builds tensors from arguments. */
import type { FindingCode } from '../findings/codes';
import type { Expr } from '../ir/expr';
import type {
  AttentionShape,
  Fix,
  Framework,
  LayerInstance,
  OutputRule,
  Severity,
  StoredWeight,
  Tensor,
} from '../values/layer';
import { Poly, groupDigits } from '../values/symbolic';
import { asPoly, describe, truthy, type Shape, type Value } from '../values/value';

export interface ParamSpec {
  readonly name: string;
  readonly default?: Value;
  /** Marks a size: checked for sign and type, and named by this symbol in the generic formula. */
  readonly size?: string;
}

export interface Problem {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly message: string;
  /** The argument the problem is about, to place the fix; the diagnostic covers the whole call. */
  readonly arg?: string;
  readonly fixes?: (args: Args) => Fix[];
}

export interface Built {
  readonly tensors: readonly Tensor[];
  readonly summary: string;
  readonly notes?: readonly string[];
  readonly problems?: readonly Problem[];
  /** Set when a size is decided by the framework later (LazyLinear) or comes from what is not known. */
  readonly unknownReason?: string;
  readonly attention?: AttentionShape;
  readonly outFeatures?: Poly;
  readonly outTail?: readonly Poly[];
  /** The feature size it reads from the last axis of its input (PyTorch and js-pytorch layers). */
  readonly inFeatures?: Poly;
  readonly appendsAxis?: boolean;
  readonly inputShape?: readonly (Poly | undefined)[];
  /** The shape it produces from a whole input shape (TF.js layers). */
  readonly output?: OutputRule;
  readonly stored?: StoredWeight;
}

export interface LayerSpec {
  readonly kind: string;
  readonly framework: Framework;
  readonly signature: readonly ParamSpec[];
  /** TF.js layers take one config object instead of positional arguments. */
  readonly configObject?: boolean;
  /** A layer without weights, followed for shapes only: no count is shown for it. */
  readonly weightless?: boolean;
  build(args: Args): Built;
}

/** The arguments of one call, bound to the signature. */
/**
 * Builds a layer value again for the inputs it is applied to; `builds` false only says what a copy built for
 * them would be (TF.js's bidirectional wrapper), true builds the layer itself (its site then shows that build).
 */
export type ApplyLayer = (
  layer: Extract<Value, { t: 'layer' }>,
  inputs: readonly Shape[],
  builds: boolean,
) => LayerInstance | undefined;

export class Args {
  /** Flags given a value whose truth is not known here (`bias=config.bias`): the count depends on them. */
  readonly unsure = new Set<string>();
  /** Sizes given a value that is no integer here: their symbol (`out`) stands in for it, so no count holds. */
  readonly placeholders = new Set<string>();

  constructor(
    readonly spec: LayerSpec,
    private readonly values: ReadonlyMap<string, Value>,
    /** The arguments as written, where the call shows them: quick fixes rewrite them. */
    private readonly exprs: ReadonlyMap<string, Expr>,
    /** Shapes of the inputs the layer is first applied to, where the code shows them (batch first). */
    readonly inputs: readonly Shape[] = [],
    /** Flags taken as set or not, to build each side of an unsure one. */
    private readonly flags: ReadonlyMap<string, boolean> = new Map(),
    /** How a layer given as an argument (what a TF.js wrapper wraps) is built for its input. */
    readonly apply?: ApplyLayer,
  ) {}

  value(name: string): Value {
    return this.values.get(name) ?? this.spec.signature.find((p) => p.name === name)?.default ?? { t: 'unknown' };
  }

  given(name: string): boolean {
    return this.values.has(name);
  }

  /** The argument as the panel shows it: `0.1`, `True`, `d_model`. */
  text(name: string): string {
    return describe(this.value(name));
  }

  expr(name: string): Expr | undefined {
    return this.exprs.get(name);
  }

  /** A size as a polynomial; what is not an integer becomes the parameter's symbol. */
  dim(name: string): Poly {
    const v = this.value(name);
    const p = asPoly(v);
    if (p) return p;
    if (this.given(name) && v.t !== 'none') this.placeholders.add(name);
    return Poly.symbol(this.spec.signature.find((s) => s.name === name)?.size ?? name);
  }

  /** A boolean flag; one given a value that is not known is recorded in `unsure` (and taken as the default). */
  flag(name: string, fallback: boolean): boolean {
    const forced = this.flags.get(name);
    if (forced !== undefined) return forced;
    const t = truthy(this.value(name));
    if (t === undefined && this.given(name)) this.unsure.add(name);
    return t ?? fallback;
  }

  isNone(name: string): boolean {
    const v = this.value(name);
    return v.t === 'none' || (v.t === 'unknown' && !this.given(name));
  }
}

/** `512` or `E`: how a dimension reads in a summary. */
export function dimText(p: Poly): string {
  const c = p.constant;
  return c === undefined ? p.toString() : groupDigits(c);
}
