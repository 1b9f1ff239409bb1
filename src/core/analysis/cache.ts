/**
 * What the analysis keeps between two versions of a document: each model class's build with its default
 * arguments, with everything that build read. After an edit that leaves all of it alone (the usual case:
 * typing inside another class), the build is replayed, its places moved by the edit, instead of run again.
 */
import type { Reads } from '../interp/hooks';
import type { KeptStatement } from '../interp/statementReplays';
import type { KeptNames } from '../ir/moduleNames';
import type { Finding, LayerInstance } from '../values/layer';
import type { ModuleSummary, ModuleTree } from '../values/modules';
import type { Span } from '../ir/expr';
import type { LayerResult } from './results';
import type { Poly } from '../values/symbolic';

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
  /** A Python expression building the class with the arguments this run gave it (buildExpression.ts). */
  readonly expression?: string;
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

export interface SiteShown {
  readonly records: readonly SiteRecord[];
  readonly result: LayerResult;
}

export interface BuildPlaces {
  readonly first: number;
  /** Exact for outputs that name offsets only, else at least the last place. */
  readonly last: number;
  readonly namesLines: boolean;
  /** Its outputs name places by offset only (records without findings, calls reached): no span, no line. */
  readonly offsetsOnly: boolean;
}

export interface CachedBuild {
  readonly reads: Reads;
  outputs: BuildOutputs;
  places: BuildPlaces;
  /** Characters its outputs' places have moved since they were made (outputs that name offsets only). */
  offset?: number;
  /** What the run gave its caller (the context a configured build names). */
  value?: string;
}

export class AnalysisCache {
  /** By class: the id of its statement and its scope index. */
  readonly builds = new Map<string, CachedBuild>();
  /** The ids of the statements holding module-level code (not only definitions) when the builds were made. */
  moduleCode: readonly number[] = [];
  /**
   * What each call site showed, by its statement's id, then its index there: a site whose records are the
   * same objects (replayed, findings unmoved) shows the same, at its place in this version.
   */
  sites = new Map<number, readonly SiteShown[]>();
  /** Module-level statements (by id) and class bodies (by `id:scope`): what each bound, when that was all it did; undefined before the document's first analysis. */
  statements: ReadonlyMap<number | string, KeptStatement> | undefined;

  /** The module's imports and definitions in the last version, kept by the next while they stay the same. */
  names: KeptNames | undefined;
  /** Whether each statement (by id) names a configuration class, as read in the last version. */
  configNames: ReadonlyMap<number, boolean> = new Map();

  clear(): void {
    this.forgetBuilds();
    this.statements = undefined;
    this.names = undefined;
    this.configNames = new Map();
  }

  /** Drops the builds, which depend on every statement of module code: module code changed. */
  forgetBuilds(): void {
    this.builds.clear();
    this.sites.clear();
    this.moduleCode = [];
  }

  /** An edit replaced text ending at `oldEnd`: places after it move by `delta` characters and `lineDelta` lines. */
  moved(oldEnd: number, delta: number, lineDelta: number): void {
    if (delta === 0 && lineDelta === 0) return;
    for (const [key, build] of this.builds) {
      const { places } = build;
      // Messages and contexts name lines ("nn.Linear (line 113) expects …", "GPT (line 202) via Block"): a
      // build that reported anything or was built from a place named by its line runs again.
      if (lineDelta !== 0 && places.namesLines) {
        this.builds.delete(key);
        continue;
      }
      const offset = build.offset ?? 0;
      // A build whose every place lies above the edit stays as it is; one wholly below it that names only
      // offsets (most builds, on every key typed above them) is moved by adding to its offset.
      if (places.last + offset < oldEnd) continue;
      if (places.offsetsOnly && places.first + offset >= oldEnd) {
        build.offset = offset + delta;
        continue;
      }
      build.outputs = shifted(offset ? shifted(build.outputs, 0, offset, 0) : build.outputs, oldEnd, delta, lineDelta);
      build.offset = undefined;
      // Moved as the outputs were; a span across the edit keeps its end, so `last` is a bound beyond offsets.
      const move = (at: number, by: number) => (at + offset >= oldEnd ? at + offset + by : at + offset);
      build.places = {
        ...places,
        first: move(places.first, delta),
        last: move(places.last, places.offsetsOnly ? delta : Math.max(delta, 0)),
      };
    }
  }
}

/** `o` with its places from `oldEnd` on moved by `delta` characters and `lineDelta` lines. */
function shifted(o: BuildOutputs, oldEnd: number, delta: number, lineDelta: number): BuildOutputs {
  const span = (s: Span): Span =>
    s.start >= oldEnd
      ? {
          ...s,
          start: s.start + delta,
          end: s.end + delta,
          startLine: s.startLine + lineDelta,
          endLine: s.endLine + lineDelta,
        }
      : s;
  const finding = (f: Finding): Finding => ({
    ...f,
    span: span(f.span),
    related: f.related?.map((r) => ({ ...r, span: span(r.span) })),
    fixes: f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, span: span(e.span) })) })),
  });
  const each = <T>(xs: readonly T[], move: (x: T) => T): T[] => (xs.length ? xs.map(move) : (xs as T[]));
  return {
    records: each(o.records, (entry) => {
      const [at, r] = entry;
      // A record keeps its object unless its findings move: the site it builds then shows what it showed.
      const moved = r.findings.length ? { ...r, findings: r.findings.map(finding) } : r;
      return at >= oldEnd || moved !== r ? [at >= oldEnd ? at + delta : at, moved] : entry;
    }),
    parts: each(o.parts, (p) => ({ ...p, span: span(p.span) })),
    flows: each(o.flows, finding),
    constructions: o.constructions,
    hints: each(o.hints, (h) => ({ ...h, span: span(h.span) })),
    reached: each(o.reached, (at) => (at >= oldEnd ? at + delta : at)),
    summary: o.summary,
    attentions: o.attentions,
  };
}

/** The first and last places a build's outputs name, and what kinds of places they are. */
export function placesOf(o: BuildOutputs): BuildPlaces {
  let first = Infinity;
  let last = -1;
  const at = (n: number) => {
    if (n < first) first = n;
    if (n > last) last = n;
  };
  const span = (s: Span) => {
    at(s.start);
    at(s.end);
  };
  const spans = (f: Finding) => {
    span(f.span);
    f.related?.forEach((r) => span(r.span));
    for (const x of f.fixes) for (const e of x.edits) span(e.span);
  };
  const named = (context: string) => context.includes('(line ');
  let findings = false;
  let namesLines = o.flows.length > 0;
  for (const [start, r] of o.records) {
    at(start);
    r.findings.forEach(spans);
    findings ||= r.findings.length > 0;
    namesLines ||= r.findings.length > 0 || named(r.context);
  }
  for (const p of o.parts) {
    span(p.span);
    namesLines ||= named(p.context);
  }
  for (const [, c] of o.constructions) namesLines ||= named(c.context);
  o.flows.forEach(spans);
  o.hints.forEach((h) => span(h.span));
  o.reached.forEach(at);
  return { first, last, namesLines, offsetsOnly: !findings && !o.flows.length && !o.parts.length && !o.hints.length };
}
