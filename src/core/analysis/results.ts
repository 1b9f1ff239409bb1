/** What an analysis gives every surface: layers, model classes, models built, findings and hints. Plain data. */
import type { Span } from '../ir/expr';
import type { Finding, LayerInstance } from '../values/layer';
import type { ModuleSummary } from '../values/modules';
import type { Sizing } from '../sizing/sizing';
import type { Language } from '../ir/source';
import type { Poly } from '../values/symbolic';

export interface LayerResult {
  readonly span: Span;
  readonly layer: LayerInstance;
  /** What the framework would reject in this call (also in `Analysis.findings`). */
  readonly findings: readonly Finding[];
  /** Each distinct count the site gets in the models that build it. */
  readonly values: readonly SiteValue[];
  /** Where the count shown comes from, when the code around the site alone does not give it. */
  readonly context?: string;
}

/** An nn.Module subclass of the file, built with its default arguments. */
export interface ModuleResult {
  readonly name: string;
  /** The class name; its line is the `class` keyword's. */
  readonly span: Span;
  /** The whole class. */
  readonly extent: Span;
  readonly summary: ModuleSummary;
  /**
   * When the class needs arguments: the one total every model of the file that builds it agrees on
   * (`Block` inside `GPT (line 202)`), and where it was built.
   */
  readonly built?: { readonly summary: ModuleSummary; readonly context: string };
  /**
   * When the class needs arguments: each model that builds it with one total (a model the file builds, a
   * factory, its configuration's defaults, a name of a preset table), by its context, in the order the runs
   * built them.
   */
  readonly configurations?: readonly {
    readonly context: string;
    readonly params: Poly;
    /** A Python expression over the file's names that builds the class so (buildExpression.ts). */
    readonly expression?: string;
    /** Where the file states it (configurationSource.ts). */
    readonly source?: Span;
    /** Where another file of the workspace states it (importers.ts). */
    readonly elsewhere?: SourceElsewhere;
    /** The entries of registries naming its factory (`sam_model_registry['vit_b']`): `--config vit_b` picks it too. */
    readonly registered?: readonly string[];
    /** The one `built` is: the configuration the class and its layers show. */
    readonly active?: true;
  }[];
  /**
   * When the class needs arguments and the models shown build it with different totals (no `built`): each
   * total, and the model they come from (`SwinTransformer()`), or how many models.
   */
  readonly sizes?: { readonly totals: readonly bigint[]; readonly context: string };
  /** Attention written by hand in its forward(), as one layer with its heads and projections by role. */
  readonly attention?: LayerInstance;
}

/** A model built at module level with explicit arguments: `model = GPT(GPTConfig(n_layer=24))`. */
export interface InstanceResult {
  readonly className: string;
  readonly span: Span;
  readonly summary: ModuleSummary;
  /** Each distinct total, where the call builds models of different sizes (a helper called twice, a loop). */
  readonly totals?: readonly bigint[];
  /** Embedding and non-embedding parameters, and the KV cache per token of its attention. */
  readonly sizing?: Sizing;
  /**
   * The configuration the user chose for the class it stands for: no model of the file's own, placed at the
   * class, for its sizing (passes.ts chosenInstances).
   */
  readonly configuration?: string;
}

/** A model class built by a call inside other code: `self.attn = CausalSelfAttention(config)`. */
export interface PartResult {
  readonly className: string;
  readonly span: Span;
  /** The total the site's models agree on, or the one its class shows alone (with why there is no number). */
  readonly summary: ModuleSummary;
  /** Each distinct total the site gets in the models that build it, with the first model that does. */
  readonly values: readonly SiteValue[];
}

/** The feature size known after an assignment in forward(), shown as an inlay hint. */
export interface SizeHint {
  readonly span: Span;
  readonly features: Poly;
}

export interface Analysis {
  readonly language: Language;
  readonly hints: readonly SizeHint[];
  readonly layers: readonly LayerResult[];
  readonly findings: readonly Finding[];
  readonly modules: readonly ModuleResult[];
  readonly instances: readonly InstanceResult[];
  readonly parts: readonly PartResult[];
  /**
   * Set when the work budget left some of the file's factories out (a first analysis, analyze.ts's `depth`):
   * its classes have at least the configurations listed.
   */
  readonly configurationsCut?: true;
}

/**
 * Every attention layer of the file: catalog attention at its call, and attention written by hand at its
 * class name, in source order. The Explain panel and its quick pick read this list.
 */
export function attentionLayers(a: Analysis): LayerResult[] {
  const own: LayerResult[] = a.modules
    .filter((m) => m.attention)
    .map((m) => ({ span: m.span, layer: m.attention!, findings: [], values: [] }));
  return [...a.layers.filter((l) => l.layer.attention), ...own].sort((x, y) => x.span.start - y.span.start);
}

/** One distinct count a layer site gets, and the first context that built it with that count. */
export interface SiteValue {
  readonly params: Poly;
  /** `GPT (line 200) via Block ×12`: what built it, outermost first. */
  readonly context: string;
  /** How many contexts built it with this count. */
  readonly contexts: number;
  /** What that context built, as the lens says it (`12 heads × 64`, `768 → 3,072`): for a layer site. */
  readonly summary?: string;
}

/**
 * Where another file states a configuration (importers.ts): that file, by its path from the analysed file's
 * folder (`../build_sam.py`), and the place there, 1-based (a notebook's by cell).
 */
export interface SourceElsewhere {
  readonly file: string;
  readonly cell?: number;
  readonly line: number;
  readonly column: number;
}

/** `../build_sam.py:14`, `../demo.ipynb:cell 3:2`: where another file states a configuration. */
export function elsewhereText({ file, cell, line }: SourceElsewhere): string {
  return `${file}:${cell === undefined ? '' : `cell ${cell}:`}${line}`;
}
