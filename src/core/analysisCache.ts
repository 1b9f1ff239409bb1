/**
 * What the analysis keeps between two versions of a document: each model class's build with its default
 * arguments, with everything that build read. After an edit that leaves all of it alone (the usual case:
 * typing inside another class), the build is replayed, its places moved by the edit, instead of run again.
 */
import type { Reads } from './interp/hooks';
import type { Finding, LayerInstance } from './layer';
import type { ModuleSummary, ModuleTree } from './modules';
import type { Span } from './expr';
import type { LayerResult } from './results';
import type { Poly } from './symbolic';

export interface SiteRecord {
  layer: LayerInstance;
  findings: Finding[];
  readonly context: string;
  /** Built by a run whose own parameters were not given (a class that needs arguments, built alone). */
  readonly symbolic: boolean;
  /** Built in one pass of a loop that could not be unrolled and whose passes differ: its sizes are one pass's. */
  varies?: boolean;
}

/** Everything one class's default build added to the analysis. */
/** A class as one run built it: its tree (summarised once every run is over, as the model may add to it), or its total. */
export interface Construction {
  readonly context: string;
  readonly tree?: ModuleTree;
  readonly summary?: ModuleSummary;
}

/** A model class built by a call inside other code, as one run built it: its tree until every run is over, then its total. */
export interface PartRecord {
  readonly className: string;
  readonly span: Span;
  readonly context: string;
  /** Built by a run whose own parameters were not given: its total is in names, no model's. */
  readonly symbolic: boolean;
  readonly tree?: ModuleTree;
  readonly summary?: ModuleSummary;
}

export interface BuildOutputs {
  readonly records: [number, SiteRecord][];
  readonly parts: PartRecord[];
  readonly flows: Finding[];
  readonly constructions: [string, Construction][];
  readonly hints: { span: Span; features: Poly }[];
  /** The calls it evaluated (by offset), so that no other run takes their functions for unreached. */
  readonly reached: number[];
  /** The class's own total; undefined when the build did not end. */
  readonly summary: ModuleSummary | undefined;
  /** Attention written by hand that its forward() showed, by class. */
  readonly attentions: [string, LayerInstance][];
}

export interface CachedBuild {
  readonly reads: Reads;
  outputs: BuildOutputs;
  /** What the run gave its caller (the context a configured build names). */
  value?: string;
}

export class AnalysisCache {
  /** By class: the id of its statement and its scope index. */
  readonly builds = new Map<string, CachedBuild>();
  /** The statements holding module-level code (not only definitions) when the builds were made. */
  moduleCode = '';
  /**
   * What each call site showed, with the records it was made of: a site whose statement an edit left in
   * place and whose records are the same objects (replayed, above the edit) shows the same.
   */
  readonly sites = new WeakMap<object, { readonly records: readonly SiteRecord[]; readonly result: LayerResult }>();

  clear(): void {
    this.builds.clear();
    this.moduleCode = '';
  }

  /** An edit replaced text ending at `oldEnd`: places after it move by `delta` characters and `lineDelta` lines. */
  moved(oldEnd: number, delta: number, lineDelta: number): void {
    if (delta === 0 && lineDelta === 0) return;
    const span = (s: Span): Span => (s.start >= oldEnd ? { ...s, start: s.start + delta, end: s.end + delta, startLine: s.startLine + lineDelta, endLine: s.endLine + lineDelta } : s);
    const finding = (f: Finding): Finding => ({
      ...f,
      span: span(f.span),
      related: f.related?.map((r) => ({ ...r, span: span(r.span) })),
      fixes: f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, span: span(e.span) })) })),
    });
    // Messages and contexts name lines ("nn.Linear (line 113) expects …", "GPT (line 202) via Block"): a
    // build that reported anything or was built from a place named by its line runs again.
    const named = (context: string) => context.includes('(line ');
    for (const [key, build] of this.builds) {
      const o = build.outputs;
      const namesLines =
        o.flows.length > 0 ||
        o.records.some(([, r]) => r.findings.length > 0 || named(r.context)) ||
        o.parts.some((p) => named(p.context)) ||
        o.constructions.some(([, c]) => named(c.context));
      if (lineDelta !== 0 && namesLines) {
        this.builds.delete(key);
        continue;
      }
      // A build whose every place lies above the edit stays as it is.
      const below = (at: number) => at >= oldEnd;
      if (!o.reached.some(below) && !o.records.some(([at, r]) => below(at) || r.findings.length > 0) && !o.parts.some((p) => below(p.span.start)) && !o.flows.length && !o.hints.some((h) => below(h.span.start))) continue;
      build.outputs = {
        records: o.records.map((entry) => {
          const [at, r] = entry;
          return below(at) || r.findings.length > 0 ? [below(at) ? at + delta : at, { ...r, findings: r.findings.map(finding) }] : entry;
        }),
        parts: o.parts.map((p) => ({ ...p, span: span(p.span) })),
        flows: o.flows.map(finding),
        constructions: o.constructions,
        hints: o.hints.map((h) => ({ ...h, span: span(h.span) })),
        reached: o.reached.map((at) => (at >= oldEnd ? at + delta : at)),
        summary: o.summary,
        attentions: o.attentions,
      };
    }
  }
}
