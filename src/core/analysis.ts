/**
 * analyze(SourceModel) -> Analysis: every layer definition with its count, tensors and findings. Plain
 * data, computed once per document version and read by every surface (hover, CodeLens, diagnostics, CLI).
 */
import { layerSpec } from './catalog';
import { Args, type LayerSpec } from './catalog/spec';
import type { Arg, Span } from './expr';
import { emptyModule, summarize, type ModuleSummary } from './modules';
import { Evaluator, newShared, type BoundCall, type Hooks, type Reads } from './evaluate';
import type { AnalysisCache, BuildOutputs, CachedBuild, SiteRecord } from './analysisCache';
import { totalParams, type Finding, type LayerInstance } from './layer';
import type { ImportResolver, Language, SourceModel } from './source';
import { groupDigits, type Poly } from './symbolic';
import { describe, type Shape, type Value } from './value';

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
}

/** A model built at module level with explicit arguments: `model = GPT(GPTConfig(n_layer=24))`. */
export interface InstanceResult {
  readonly className: string;
  readonly span: Span;
  readonly summary: ModuleSummary;
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
}

/** One distinct count a layer site gets, and the first context that built it with that count. */
export interface SiteValue {
  readonly params: Poly;
  /** `GPT (line 200) via Block ×12`: what built it, outermost first. */
  readonly context: string;
  /** How many contexts built it with this count. */
  readonly contexts: number;
}

/**
 * Runs the interpreter over the file: its module body (instances built there, `if __name__ == "__main__"`),
 * then each model class built with its defaults, then every function holding a layer no run reached, with
 * its parameters unknown. Every layer construction is recorded with the context that built it.
 */
export function analyze(model: SourceModel, resolver?: ImportResolver, cache?: AnalysisCache): Analysis {
  const records = new Map<number, SiteRecord[]>();
  /** Feature sizes each layer (by the offset of its construction) is first applied to. */
  const inputs = new Map<number, readonly (Poly | undefined)[]>();
  const flowFindings = new Map<string, Finding>();
  const instances = new Map<number, InstanceResult>();
  /** Each class of the file as the runs built it: class -> totals with their contexts. */
  const constructions = new Map<string, { summary: ModuleSummary; context: string }[]>();
  const sizes = new Map<number, SizeHint | undefined>();
  /** The outputs of the class build running now, kept for the next version of the document. */
  let capture: { -readonly [K in keyof BuildOutputs]: BuildOutputs[K] } | undefined;
  const shared = newShared();
  const record = (start: number, r: SiteRecord) => {
    const list = records.get(start) ?? [];
    list.push(r);
    records.set(start, list);
    capture?.records.push([start, r]);
  };
  const flow = (f: Finding) => {
    flowFindings.set(`${f.span.start}:${f.code}`, f);
    capture?.flows.push(f);
  };
  const construction = (key: string, entry: { summary: ModuleSummary; context: string }) => {
    const list = constructions.get(key) ?? [];
    if (list.length < 8) list.push(entry);
    constructions.set(key, list);
    capture?.constructions.push([key, entry]);
  };
  const hint = (span: Span, features: Poly) => {
    const known = sizes.get(span.start);
    // A step that gets different sizes in different models shows none.
    sizes.set(span.start, sizes.has(span.start) && !known?.features.equals(features) ? undefined : { span, features });
    capture?.hints.push({ span, features });
  };
  const context = () => shared.contexts.join(' via ');
  /** Set while a class is built with its defaults. */
  let buildingDefaults = false;
  const hooks: Hooks = {
    layer(path, call, bound, site) {
      const spec = layerSpec(path);
      if (!spec) return undefined;
      const built = instantiate(spec, bound, call.span, inputs.get(call.span.start) ?? []);
      const entry: SiteRecord = { layer: built.layer, findings: built.findings, context: context() };
      if (site) record(call.span.start, entry);
      const applied = (shapes: readonly Shape[]) => {
        const features = shapes.map((s) => s[s.length - 1]);
        if (!inputs.has(call.span.start)) inputs.set(call.span.start, features);
        const again = instantiate(spec, bound, call.span, features);
        if (site) {
          entry.layer = again.layer;
          entry.findings = again.findings;
        }
        return again.layer;
      };
      return { t: 'layer', layer: built.layer, span: call.span, applied };
    },
    report: flow,
    instance(cls, call, value) {
      if (value.t !== 'module' || instances.has(call.span.start)) return;
      instances.set(call.span.start, { className: cls.name, span: call.span, summary: summarize(value.tree) });
      built.push(value);
    },
    built(call, layer) {
      record(call.span.start, { layer: layer.layer, findings: [], context: context() });
    },
    constructed(cls, value) {
      // The class built with its own defaults is the module result itself, not a context of it.
      if (value.t !== 'module' || cls.owner !== evaluator || (buildingDefaults && shared.contexts.length === 1)) return;
      construction(classKey(model, cls.fragment, cls.scope), { summary: summarize(value.tree), context: context() });
    },
  };
  /** The models built at module level, whose forward() is followed too. */
  const built: Value[] = [];
  const evaluator = new Evaluator(model, hooks, resolver, shared);
  evaluator.runModule();
  // Python class builds are kept between versions; TypeScript's sizes flow between statements, so it runs whole.
  const keep = model.language === 'python' ? cache : undefined;
  const moduleCode = model.fragments.filter((f) => f.imports.length || f.body.some((s) => s.k !== 'def')).map((f) => f.id).join(',');
  if (keep && keep.moduleCode !== moduleCode) {
    keep.clear();
    keep.moduleCode = moduleCode;
  }
  const ids = new Set(model.fragments.map((f) => f.id));
  const valid = (c: CachedBuild) =>
    [...c.reads.fragments].every((id) => ids.has(id)) &&
    [...c.reads.names].every(([name, id]) => evaluator.originOf(name) === id) &&
    [...c.reads.files].every(([module, file]) => resolver?.resolve(module) === file);
  const defaults = new Map<string, Value>();
  const classes: { key: string; result: ModuleResult }[] = [];
  model.fragments.forEach((fragment, fi) => {
    fragment.scopes.forEach((scope, si) => {
      if (scope.parent !== -1 || scope.kind !== 'class') return;
      const key = classKey(model, fi, si);
      const result = (summary: ModuleSummary) => ({ key, result: { name: scope.name, span: scope.nameSpan, extent: scope.extent, summary } });
      const cached = keep?.builds.get(key);
      if (cached && valid(cached)) {
        const o = cached.outputs;
        for (const [start, r] of o.records) record(start, r);
        for (const f of o.flows) flow(f);
        for (const [k, c] of o.constructions) construction(k, c);
        for (const h of o.hints) hint(h.span, h.features);
        for (const at of o.reached) evaluator.reached.add(at);
        if (o.summary) classes.push(result(o.summary));
        return;
      }
      const cls = evaluator.definition(fi, si, undefined);
      if (cls.t !== 'class' || !evaluator.guard(() => evaluator.classes.isModuleClass(cls))) return;
      capture = { records: [], flows: [], constructions: [], hints: [], reached: [], summary: undefined };
      const reachedBefore = new Set(evaluator.reached);
      const reads: Reads = { fragments: new Set(), names: new Map(), files: new Map() };
      evaluator.reads = reads;
      buildingDefaults = true;
      const value = shared.budget.exhausted ? undefined : evaluator.guard(() => evaluator.classes.instantiate(cls, { positional: [], keywords: new Map() }, undefined));
      buildingDefaults = false;
      if (value?.t === 'module') {
        defaults.set(key, value);
        capture.summary = summarize(value.tree);
        for (const size of evaluator.followForward(value)) hint(size.at.span, size.features);
      }
      classes.push(result(capture.summary ?? unknownSummary(scope.name)));
      evaluator.reads = undefined;
      capture.reached = [...evaluator.reached].filter((at) => !reachedBefore.has(at));
      if (keep && !shared.budget.exhausted && capture.summary) keep.builds.set(key, { reads, outputs: capture });
      capture = undefined;
    });
  });
  const modules: ModuleResult[] = classes.map(({ key, result }) => (result.summary.params?.isConstant ? result : { ...result, built: agreed(constructions.get(key)) }));
  for (const value of built) for (const size of evaluator.followForward(value)) hint(size.at.span, size.features);
  const hints = [...sizes.values()].filter((h): h is SizeHint => h !== undefined).sort((a, b) => a.span.start - b.span.start);
  runUnreached(evaluator, model, defaults);
  const layers: LayerResult[] = [];
  const findings: Finding[] = [];
  model.fragments.forEach((fragment) => {
    for (const site of fragment.calls) {
      const list = records.get(site.span.start);
      if (!list?.length) continue;
      const result = siteResult(site.span, list);
      layers.push(result);
      findings.push(...result.findings);
    }
  });
  const flows = [...flowFindings.values()].filter((f) => !findings.some((g) => g.span.start === f.span.start && g.code === f.code));
  return {
    language: model.language,
    layers,
    findings: [...findings, ...flows].sort((a, b) => a.span.start - b.span.start),
    modules,
    instances: [...instances.values()],
    hints,
  };
}

/** A class by the id of its statement, which an edit elsewhere leaves alone. */
function classKey(model: SourceModel, fragment: number, scope: number): string {
  return `${model.fragments[fragment].id}:${scope}`;
}

/** The build every context agrees on (the same total), if there is one. */
function agreed(list: readonly { summary: ModuleSummary; context: string }[] | undefined): ModuleResult['built'] {
  const known = list?.filter((b) => b.summary.params?.isConstant);
  if (!known?.length || !known.every((b) => b.summary.params!.equals(known[0].summary.params!))) return undefined;
  return known[0];
}

/** Functions (and methods) holding a layer no run reached: run once with their parameters unknown. */
function runUnreached(evaluator: Evaluator, model: SourceModel, defaults: ReadonlyMap<string, Value>): void {
  model.fragments.forEach((fragment, fi) => {
    const pending = new Set(fragment.calls.filter((c) => !evaluator.reached.has(c.span.start) && c.scope >= 0).map((c) => c.scope));
    const done = new Set<number>();
    for (const si of pending) {
      if (evaluator.budget.exhausted) return;
      // The outermost function holding the site: nested functions run when it defines and calls them.
      let top = si;
      while (fragment.scopes[top].parent >= 0 && fragment.scopes[fragment.scopes[top].parent].kind === 'function') top = fragment.scopes[top].parent;
      const scope = fragment.scopes[top];
      if (scope.kind !== 'function' || done.has(top)) continue;
      done.add(top);
      const owner = scope.parent >= 0 && fragment.scopes[scope.parent].kind === 'class' ? scope.parent : undefined;
      const self: Value | undefined = owner === undefined ? undefined : defaults.get(classKey(model, fi, owner)) ?? { t: 'module', tree: emptyModule(fragment.scopes[owner].name), fields: new Map() };
      const fn = evaluator.definition(fi, top, undefined);
      if (fn.t !== 'function') continue;
      evaluator.guard(() => evaluator.callFunction(fn, [], new Map(), self));
    }
  });
}

/** The layer a site shows: the one count every context agrees on, else the formula and the counts seen. */
function siteResult(span: Span, list: readonly SiteRecord[]): LayerResult {
  const values: SiteValue[] = [];
  for (const r of list) {
    const p = r.layer.params;
    if (!p?.isConstant || r.layer.rejected) continue;
    const same = values.findIndex((v) => v.params.equals(p));
    if (same >= 0) values[same] = { ...values[same], contexts: values[same].contexts + 1 };
    else values.push({ params: p, context: r.context, contexts: 1 });
  }
  const generic = list.find((r) => r.layer.params !== undefined && !r.layer.params.isConstant);
  const rejected = list.find((r) => r.layer.rejected);
  let layer: LayerInstance;
  if (rejected) layer = rejected.layer;
  else if (values.length === 1) layer = list.find((r) => r.layer.params?.equals(values[0].params))!.layer;
  else if (values.length > 1) {
    const base = (generic ?? list[0]).layer;
    layer = withoutCount(base, `Built with ${values.length} different sizes here: ${values.map((v) => `${groupDigits(v.params.constant!)}${v.context ? ` in ${v.context}` : ''}`).join('; ')}.`);
  } else layer = (generic ?? list[0]).layer;
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const r of list) {
    for (const f of r.findings) {
      const key = `${f.code}:${f.span.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(list.length > 1 && r.context ? { ...f, message: `${f.message} (in ${r.context})` } : f);
    }
  }
  const context = values.length === 1 && generic ? values[0].context : undefined;
  return { span, layer, findings, values, context };
}

/** The same layer with no single count: several contexts build it with different sizes. */
function withoutCount(layer: LayerInstance, reason: string): LayerInstance {
  return { ...layer, params: undefined, unknownReason: reason, formula: layer.formula };
}

function unknownSummary(name: string): ModuleSummary {
  return { params: undefined, reason: `${name} could not be built within Attention Lens's work budget`, children: [], tied: [] };
}

interface Instantiated {
  readonly layer: LayerInstance;
  readonly findings: Finding[];
}

function instantiate(spec: LayerSpec, bound: BoundCall, callSpan: Span, inputs: readonly (Poly | undefined)[]): Instantiated {
  const values = new Map<string, Value>();
  const spans = new Map<string, Span>();
  const literals = new Set<string>();
  const record = (name: string, value: Value, arg?: Arg) => {
    values.set(name, value);
    if (arg) spans.set(name, arg.value.span);
    if (arg?.value.k === 'int') literals.add(name);
  };
  if (spec.configObject) {
    const config = bound.positional[0]?.value;
    if (config?.t === 'dict') for (const [k, v] of config.fields) values.set(k, v);
  } else {
    bound.positional.forEach((p, i) => {
      const param = spec.signature[i];
      if (param) record(param.name, p.value, p.arg);
    });
    for (const [name, kw] of bound.keywords) record(name, kw.value, kw.arg);
  }
  const args = new Args(spec, values, spans, literals, inputs);
  const built = spec.build(args);
  const unsure = unsureFlags(spec, args, values, inputs);
  const findings: Finding[] = [];
  const covered = new Set((built.problems ?? []).map((p) => p.arg));
  for (const param of spec.signature) {
    if (!param.size || !values.has(param.name) || covered.has(param.name)) continue;
    const v = values.get(param.name)!;
    if (v.t === 'float') {
      findings.push({
        code: 'non-integer-size', severity: 'error', span: callSpan, fixes: [],
        message: `${param.name} is ${describe(v)}, a float: PyTorch raises TypeError (sizes must be ints). Use // for integer division.`,
      });
    } else if (v.t === 'int' && v.p.constant !== undefined && v.p.constant < 0n) {
      findings.push({
        code: 'negative-size', severity: 'error', span: callSpan, fixes: [],
        message: `${param.name} is ${v.p.constant}: PyTorch raises "Trying to create tensor with negative dimension ${v.p.constant}".`,
      });
    }
  }
  for (const p of built.problems ?? []) {
    findings.push({ code: p.code, severity: p.severity, message: p.message, span: callSpan, fixes: p.fixes ? p.fixes(args) : [] });
  }
  const params = totalParams(built.tensors);
  const known = !built.unknownReason && !unsure && params.isConstant;
  let formula: string | undefined;
  const layer: LayerInstance = {
    kind: spec.kind,
    framework: spec.framework,
    tensors: built.tensors,
    params: built.unknownReason || unsure ? undefined : params,
    // Built on first read: most layers are never hovered, and the symbolic build costs as much as the real one.
    get formula() {
      formula ??= unsure ? unsure.formula : known ? genericFormula(spec, values, inputs) : params.toString();
      return formula;
    },
    summary: built.summary,
    notes: built.notes ?? [],
    rejected: findings.find((f) => f.severity === 'error')?.message,
    unknownReason: built.unknownReason ?? unsure?.reason ?? (params.isConstant ? undefined : `Not every size is known here: the count is ${params} over ${params.symbols.join(', ')}.`),
    attention: built.attention,
    outFeatures: built.outFeatures,
    outTail: built.outTail,
    inFeatures: built.inFeatures,
    appendsAxis: built.appendsAxis,
    inputShape: built.inputShape,
  };
  return { layer, findings };
}

/**
 * A flag given a value that is not known here (`bias=config.bias`): the count is one of two, so no number
 * is shown; the formula marks the part that depends on it (`d² + [config.bias]·d`).
 */
function unsureFlags(spec: LayerSpec, args: Args, values: ReadonlyMap<string, Value>, inputs: readonly (Poly | undefined)[]): { formula: string; reason: string } | undefined {
  if (!args.unsure.size) return undefined;
  const names = [...args.unsure];
  const total = (on: boolean) => totalParams(spec.build(new Args(spec, values, new Map(), new Set(), inputs, new Map(names.map((n) => [n, on])))).tensors);
  const without = total(false);
  const extra = total(true).sub(without);
  const flags = names.map((n) => describe(args.value(n))).join(', ');
  const part = extra.size > 1 ? `(${extra})` : extra.toString();
  return {
    formula: extra.constant === 0n ? without.toString() : `${without} + [${flags}]·${part}`,
    reason: `Depends on ${flags}, not known here: ${total(true)} with it, ${without} without.`,
  };
}

/** The layer's formula over its own symbols (`4·E² + 4·E`), keeping the flags as written. */
function genericFormula(spec: LayerSpec, values: ReadonlyMap<string, Value>, inputs: readonly (Poly | undefined)[]): string {
  const symbolic = new Map(values);
  for (const p of spec.signature) {
    if (!p.size) continue;
    if (values.has(p.name) || (p.default && p.default.t !== 'none')) symbolic.set(p.name, { t: 'sym', name: p.size });
  }
  try {
    const built = spec.build(new Args(spec, symbolic, new Map(), new Set(), inputs));
    return totalParams(built.tensors).toString();
  } catch {
    return '';
  }
}
