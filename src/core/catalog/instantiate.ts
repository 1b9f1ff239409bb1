/**
 * A catalog layer built from the arguments of one call: its tensors, count, formula and the findings the
 * framework would raise, as the catalog entry describes them.
 */
import type { Arg, Expr, Span } from '../ir/expr';
import { totalParams, type Finding, type LayerInstance } from '../values/layer';
import { asPoly, describe, type Shape, type Value } from '../values/value';
import type { Poly } from '../values/symbolic';
import { negativeWeight, sizeFindings } from './sizeChecks';
import { Args, type ApplyLayer, type LayerSpec } from './spec';
import { surfaceInternal } from '../limits/internalErrors';
import type { BoundCall } from '../values/bound';

export interface Instantiated {
  readonly layer: LayerInstance;
  readonly findings: Finding[];
}

/**
 * The constructor's arguments PyTorch 1.13 and 2 keep as attributes unchanged (`self.in_features =
 * in_features`); not those it converts (a kernel size made a tuple, a negative padding index made positive).
 */
const CONV = ['in_channels', 'out_channels', 'groups'];
const STORED_AS_GIVEN: Readonly<Record<string, readonly string[]>> = {
  Linear: ['in_features', 'out_features'],
  Bilinear: ['in1_features', 'in2_features', 'out_features'],
  Conv1d: CONV,
  Conv2d: CONV,
  Conv3d: CONV,
  ConvTranspose1d: CONV,
  ConvTranspose2d: CONV,
  ConvTranspose3d: CONV,
  Embedding: ['num_embeddings', 'embedding_dim'],
  BatchNorm1d: ['num_features', 'eps'],
  BatchNorm2d: ['num_features', 'eps'],
  BatchNorm3d: ['num_features', 'eps'],
  GroupNorm: ['num_groups', 'num_channels', 'eps'],
  LayerNorm: ['eps'],
  MultiheadAttention: ['embed_dim', 'num_heads'],
};

function defaultOf(spec: LayerSpec, name: string): Value | undefined {
  return spec.signature.find((p) => p.name === name)?.default;
}

/** An integer (a polynomial over the user's names) or a known float, as an attribute keeps it. */
function number(v: Value | undefined, name: string): [string, Poly | number][] {
  if (v?.t === 'float') return v.v === undefined ? [] : [[name, v.v]];
  const p = v && v.t !== 'bool' ? asPoly(v) : undefined;
  return p ? [[name, p]] : [];
}

/** `apply`: how a layer given as an argument is built for its input (a TF.js wrapper's). */
export function instantiate(
  spec: LayerSpec,
  bound: BoundCall,
  callSpan: Span,
  inputs: readonly Shape[],
  apply?: ApplyLayer,
): Instantiated {
  const values = new Map<string, Value>();
  const exprs = new Map<string, Expr>();
  const record = (name: string, value: Value, arg?: Arg) => {
    values.set(name, value);
    // An item of `*dims` is no expression of its own to rewrite.
    if (arg && !arg.spread) exprs.set(name, arg.value);
  };
  if (spec.configObject) {
    const config = bound.positional[0]?.value;
    if (config?.t === 'dict') for (const [k, v] of config.fields) values.set(k, v);
    // `{ units: 7.5 }` written in the call: its values can be rewritten by a quick fix.
    const written = bound.positional[0]?.arg?.value;
    if (written?.k === 'dict') for (const e of written.entries) if (e.key?.k === 'str') exprs.set(e.key.value, e.value);
  } else {
    bound.positional.forEach((p, i) => {
      const param = spec.signature[i];
      if (param) record(param.name, p.value, p.arg);
    });
    for (const [name, kw] of bound.keywords) record(name, kw.value, kw.arg);
  }
  const args = new Args(spec, values, exprs, inputs, new Map(), apply);
  const built = spec.build(args);
  const unsure = unsureFlags(spec, args, values, inputs, apply);
  const findings: Finding[] = [];
  const covered = new Set((built.problems ?? []).map((p) => p.arg));
  findings.push(...sizeFindings(spec, args, covered, callSpan));
  for (const p of built.problems ?? []) {
    findings.push({
      code: p.code,
      severity: p.severity,
      message: p.message,
      span: callSpan,
      fixes: p.fixes ? p.fixes(args) : [],
    });
  }
  const negative = findings.some((f) => f.severity === 'error')
    ? undefined
    : negativeWeight(spec.framework, built.tensors, callSpan);
  if (negative) findings.push(negative);
  const params = totalParams(built.tensors);
  // A size not known here stands as the layer's own symbol (`out`): a count over it would mix unknowns.
  const placeholders = args.placeholders.size ? `${[...args.placeholders].join(', ')} not known here.` : undefined;
  const known = !built.unknownReason && !unsure && !placeholders && params.isConstant;
  let formula: string | undefined;
  const kept = spec.framework === 'pytorch' ? STORED_AS_GIVEN[spec.kind] : undefined;
  const attributes = kept && new Map(kept.flatMap((n) => number(values.get(n) ?? defaultOf(spec, n), n)));
  const layer: LayerInstance = {
    kind: spec.kind,
    framework: spec.framework,
    tensors: built.tensors,
    ...(attributes?.size ? { attributes } : {}),
    // TF.js and js-pytorch throw in the constructor for every error found here: no layer, so no count.
    params:
      built.unknownReason ||
      unsure ||
      placeholders ||
      (spec.framework !== 'pytorch' && findings.some((f) => f.severity === 'error'))
        ? undefined
        : params,
    // Built on first read: most layers are never hovered, and the symbolic build costs as much as the real one.
    get formula() {
      formula ??= placeholders
        ? ''
        : unsure
          ? unsure.formula
          : known
            ? genericFormula(spec, values, inputs, apply)
            : built.unknownReason && !built.tensors.length
              ? ''
              : params.toString();
      return formula;
    },
    // `d_model → ?`: the summary names no size that is not the user's.
    summary: placeholders
      ? spec.build(
          new Args(
            spec,
            new Map([...values, ...[...args.placeholders].map((n): [string, Value] => [n, { t: 'sym', name: '?' }])]),
            new Map(),
            inputs,
          ),
        ).summary
      : built.summary,
    notes: built.notes ?? [],
    rejected: findings.find((f) => f.severity === 'error')?.message,
    unknownReason:
      built.unknownReason ??
      placeholders ??
      unsure?.reason ??
      (params.isConstant
        ? undefined
        : `Not every size is known here: the count is ${params} over ${params.symbols.join(', ')}.`),
    attention: built.attention,
    outFeatures: built.outFeatures,
    outTail: built.outTail,
    inFeatures: built.inFeatures,
    appendsAxis: built.appendsAxis,
    inputShape: built.inputShape,
    output: built.output,
    ...(built.stored ? { stored: built.stored } : {}),
  };
  return { layer, findings };
}

/**
 * A flag given a value that is not known here (`bias=config.bias`): the count is one of two, so no number
 * is shown; the formula marks the part that depends on it (`d² + [config.bias]·d`).
 */
function unsureFlags(
  spec: LayerSpec,
  args: Args,
  values: ReadonlyMap<string, Value>,
  inputs: readonly Shape[],
  apply: ApplyLayer | undefined,
): { formula: string; reason: string } | undefined {
  if (!args.unsure.size) return undefined;
  const names = [...args.unsure];
  const total = (on: boolean) =>
    totalParams(
      spec.build(new Args(spec, values, new Map(), inputs, new Map(names.map((n) => [n, on])), apply)).tensors,
    );
  const without = total(false);
  const withIt = total(true);
  const extra = withIt.sub(without);
  const flags = names.map((n) => describe(args.value(n))).join(', ');
  const part = extra.size > 1 ? `(${extra})` : extra.toString();
  return {
    formula: extra.constant === 0n ? without.toString() : `${without} + [${flags}]·${part}`,
    reason: `Depends on ${flags}, not known here: ${withIt} with it, ${without} without.`,
  };
}

/** The layer's formula over its own symbols (`4·E² + 4·E`), keeping the flags as written. */
function genericFormula(
  spec: LayerSpec,
  values: ReadonlyMap<string, Value>,
  inputs: readonly Shape[],
  apply: ApplyLayer | undefined,
): string {
  const symbolic = new Map(values);
  for (const p of spec.signature) {
    if (!p.size) continue;
    if (values.has(p.name) || (p.default && p.default.t !== 'none')) symbolic.set(p.name, { t: 'sym', name: p.size });
  }
  try {
    const built = spec.build(new Args(spec, symbolic, new Map(), inputs, new Map(), apply));
    return totalParams(built.tensors).toString();
  } catch (e) {
    surfaceInternal(e);
    return '';
  }
}
