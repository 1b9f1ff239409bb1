/**
 * analyze(SourceModel) -> Analysis: every layer definition with its count, tensors and findings. Plain
 * data, computed once per document version and read by every surface (hover, CodeLens, diagnostics, CLI).
 */
import { layerSpec } from './catalog';
import { Args, type LayerSpec } from './catalog/spec';
import type { Arg, Expr, Span } from './expr';
import { summarize, type ModuleSummary } from './modules';
import { Evaluator, type BoundCall, type Ctx } from './evaluate';
import { totalParams, type Finding, type LayerInstance } from './layer';
import type { ImportResolver, Language, SourceModel } from './source';
import type { Poly } from './symbolic';
import { describe, type Shape, type Value } from './value';

export interface LayerResult {
  readonly span: Span;
  readonly layer: LayerInstance;
  /** What the framework would reject in this call (also in `Analysis.findings`). */
  readonly findings: readonly Finding[];
}

/** An nn.Module subclass of the file, built with its default arguments. */
export interface ModuleResult {
  readonly name: string;
  /** The class name; its line is the `class` keyword's. */
  readonly span: Span;
  /** The whole class. */
  readonly extent: Span;
  readonly summary: ModuleSummary;
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

/** What one top-level statement contributes, with the module-level names its evaluation read. */
export interface FragmentResult {
  readonly layers: readonly LayerResult[];
  readonly findings: readonly Finding[];
  readonly modules: readonly ModuleResult[];
  readonly instances: readonly InstanceResult[];
  readonly hints: readonly SizeHint[];
  /** Module-level names read: an edit that rebinds none of them leaves this result valid. */
  readonly reads: ReadonlySet<string>;
}

export function analyze(model: SourceModel, resolver?: ImportResolver): Analysis {
  return assemble(model.language, analyzeFragments(model, [], resolver));
}

export function assemble(language: SourceModel['language'], results: readonly FragmentResult[]): Analysis {
  return {
    language,
    layers: results.flatMap((r) => r.layers),
    findings: results.flatMap((r) => r.findings),
    modules: results.flatMap((r) => r.modules),
    instances: results.flatMap((r) => r.instances),
    hints: results.flatMap((r) => r.hints),
  };
}

/**
 * One result per fragment. `previous[i]`, where given, is reused as is: the caller passes only results
 * whose fragment and module-level reads are unchanged. TypeScript is always analysed whole, because
 * TF.js sizes flow from one statement to the next.
 */
export function analyzeFragments(model: SourceModel, previous: readonly (FragmentResult | undefined)[] = [], resolver?: ImportResolver): FragmentResult[] {
  /** Feature sizes each layer (by the offset of its construction) is first applied to. */
  const inputs = new Map<number, readonly (Poly | undefined)[]>();
  let findings: Finding[] = [];
  let current: number | undefined;
  /** Shape errors met while following tensors, for the fragment being analysed. */
  let flowFindings = new Map<string, Finding>();
  let fragmentSpan: Span | undefined;
  const report = (f: Finding) => {
    if (fragmentSpan && f.span.start >= fragmentSpan.start && f.span.end <= fragmentSpan.end) flowFindings.set(`${f.span.start}:${f.code}`, f);
  };
  const evaluator = new Evaluator(model, (path, call, bound, foreign) => {
    const spec = layerSpec(path);
    if (!spec) return undefined;
    const built = instantiate(spec, bound, call.span, foreign ? [] : inputs.get(call.span.start) ?? []);
    if (!foreign && call.span.start === current) findings.push(...built.findings);
    const applied = (shapes: readonly Shape[]) => {
      const features = shapes.map((s) => s[s.length - 1]);
      if (!foreign && !inputs.has(call.span.start)) inputs.set(call.span.start, features);
      return instantiate(spec, bound, call.span, features).layer;
    };
    return { t: 'layer', layer: built.layer, span: call.span, applied };
  }, report, resolver);
  const flows = model.language === 'typescript';
  /** With flows: the sites that construct a layer or a model, the only ones evaluated again (a second `model.add` would extend the chain twice). */
  const constructions = new Set<number>();
  if (flows) {
    // First every call, so applications and chains record what each layer receives; then the layers.
    model.fragments.forEach((fragment, fi) => {
      for (const site of fragment.calls) {
        const expr = safeExpr(model, site.call);
        const value = expr && safeEval(evaluator, expr, { fragment: fi, scope: site.scope, at: site.span.start });
        if ((value?.t === 'layer' && value.span.start === site.span.start) || value?.t === 'module') constructions.add(site.span.start);
      }
    });
  }
  return model.fragments.map((fragment, fi) => {
    const reused = flows ? undefined : previous[fi];
    if (reused) return reused;
    const layers: LayerResult[] = [];
    const instances: InstanceResult[] = [];
    const hints: SizeHint[] = [];
    findings = [];
    flowFindings = new Map();
    fragmentSpan = fragment.span;
    evaluator.reads.clear();
    for (const site of fragment.calls) {
      if (flows && !constructions.has(site.span.start)) continue;
      current = site.span.start;
      const expr = safeExpr(model, site.call);
      const value = expr && safeEval(evaluator, expr, { fragment: fi, scope: site.scope, at: site.span.start });
      if (value?.t === 'layer' && value.span.start === site.span.start) {
        layers.push({ span: site.span, layer: value.layer, findings: findings.filter((f) => f.span.start === site.span.start) });
      } else if (value?.t === 'module' && site.scope === -1 && expr?.k === 'call' && expr.callee.k === 'name') {
        instances.push({ className: expr.callee.id, span: site.span, summary: summarize(value.tree) });
      }
    }
    current = undefined;
    const modules: ModuleResult[] = [];
    fragment.scopes.forEach((scope, si) => {
      if (scope.parent !== -1 || scope.kind !== 'class') return;
      const cls = { name: scope.name, fragment: fi, scope: si };
      const value = guarded(() => (evaluator.isModuleClass(cls) ? evaluator.instantiateModule(cls, [], new Map()) : undefined));
      if (value?.t !== 'module') return;
      modules.push({ name: scope.name, span: scope.nameSpan, extent: scope.extent, summary: summarize(value.tree) });
      for (const size of guarded(() => evaluator.followForward(cls, value)) ?? []) hints.push({ span: size.at.span, features: size.features });
    });
    fragmentSpan = undefined;
    const flow = [...flowFindings.values()].filter((f) => !findings.some((g) => g.span.start === f.span.start && g.code === f.code));
    return { layers, findings: [...findings, ...flow].sort((a, b) => a.span.start - b.span.start), modules, instances, hints, reads: new Set(evaluator.reads) };
  });
}

/** Half-typed code can reach shapes no rule foresaw: that part is skipped, the rest of the file is not. */
function guarded<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}

function safeExpr(model: SourceModel, ref: { start: number; end: number }): Expr | undefined {
  return guarded(() => model.expr(ref));
}

function safeEval(evaluator: Evaluator, expr: Expr, ctx: Ctx): Value | undefined {
  return guarded(() => evaluator.eval(expr, ctx));
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
  const known = !built.unknownReason && params.isConstant;
  let formula: string | undefined;
  const layer: LayerInstance = {
    kind: spec.kind,
    framework: spec.framework,
    tensors: built.tensors,
    params: built.unknownReason ? undefined : params,
    // Built on first read: most layers are never hovered, and the symbolic build costs as much as the real one.
    get formula() {
      formula ??= known ? genericFormula(spec, values, inputs) : params.toString();
      return formula;
    },
    summary: built.summary,
    notes: built.notes ?? [],
    rejected: findings.find((f) => f.severity === 'error')?.message,
    unknownReason: built.unknownReason ?? (params.isConstant ? undefined : `Not every size is known here: the count is ${params} over ${params.symbols.join(', ')}.`),
    attention: built.attention,
    outFeatures: built.outFeatures,
    outTail: built.outTail,
    inFeatures: built.inFeatures,
    appendsAxis: built.appendsAxis,
    inputShape: built.inputShape,
  };
  return { layer, findings };
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
