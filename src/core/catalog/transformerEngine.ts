/**
 * NVIDIA Transformer Engine's PyTorch layers (transformer_engine/pytorch/module/, 2.x) as one process holds
 * them (tp_size 1): `te.Linear`, `te.LayerNormLinear`, `te.LayerNormMLP`, `te.LayerNorm`, `te.RMSNorm`. Their
 * parameters keep TE's names (`layer_norm_weight`, `fc1_weight`, the names of `parameters_split`); a bias
 * turned off is a plain empty tensor, no parameter; `return_bias` returns the bias beside the output, still
 * registered. TE builds nothing without CUDA, so these entries follow its source (linear.py, layernorm_linear.py,
 * layernorm_mlp.py, ops/basic/layer_norm.py and rmsnorm.py), not a run. Their kinds carry the `te.` users write:
 * forward may return a tuple, so shapes are followed through the norms only.
 */
import type { Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { int, NONE, type Value } from '../values/value';
import { dimText, type Args, type Built, type LayerSpec, type ParamSpec } from './spec';
import { FALSE, TRUE, normalizedShape } from './pytorchTensors';

const STR = (v: string): Value => ({ t: 'str', v });
const RAISES = 'TE raises';
const EPS: ParamSpec = { name: 'eps', default: { t: 'float', v: 1e-5 } };
/** The activations whose fc1 produces a gate beside its output (layernorm_mlp.py). */
const GATED = new Set(['geglu', 'glu', 'qgeglu', 'reglu', 'sreglu', 'swiglu', 'clamped_swiglu']);
const NOT_GATED = new Set(['gelu', 'qgelu', 'relu', 'srelu', 'silu']);

/** The weights and biases `parameters_split` cuts the output rows into, or why they are not known. */
function splits(a: Args, out: Poly): { names: string[]; sizes: Poly[] } | string {
  const given = a.value('parameters_split');
  if (given.t === 'none') return { names: [''], sizes: [out] };
  const named = (name: string) => `${name.replace(/_+$/, '')}_`;
  if (given.t === 'dict') {
    const sizes = [...given.fields.values()].map((v) => (v.t === 'int' ? v.p : undefined));
    if (!given.fields.size || sizes.some((s) => s === undefined)) return 'its parameters_split is not known here';
    const total = (sizes as Poly[]).reduce((x, y) => x.add(y), Poly.ZERO);
    if (total.constant !== undefined && out.constant !== undefined && total.constant !== out.constant)
      return `${RAISES}: parameters_split adds up to ${total.constant}, not out_features ${out.constant}`;
    return { names: [...given.fields.keys()].map(named), sizes: sizes as Poly[] };
  }
  if (given.t === 'seq' && given.items.length && given.items.every((v) => v.t === 'str')) {
    const k = BigInt(given.items.length);
    const o = out.constant;
    if (o === undefined) return 'its out_features is not known here';
    if ((o / k) * k !== o) return `${RAISES}: ${o} output rows do not split into ${k} equal parts`;
    return {
      names: given.items.map((v) => named((v as { v: string }).v)),
      sizes: given.items.map(() => Poly.int(o / k)),
    };
  }
  return 'its parameters_split is not known here';
}

/** A TE linear's weights and biases: all weights first, then all biases, as TE registers them. */
function linearParams(a: Args, inF: Poly, outF: Poly): Tensor[] | string {
  const parts = splits(a, outF);
  if (typeof parts === 'string') return parts;
  const bias = a.flag('bias', true);
  return [
    ...parts.names.map((n, i) => ({ name: `${n}weight`, shape: [parts.sizes[i], inF] })),
    ...(bias ? parts.names.map((n, i) => ({ name: `${n}bias`, shape: [parts.sizes[i]] })) : []),
  ];
}

/** layer_norm_weight and, for LayerNorm, layer_norm_bias; an unknown normalization leaves the count unknown. */
function normParams(a: Args, width: Poly): Tensor[] | string {
  const n = a.value('normalization');
  if (n.t !== 'str') return 'its normalization is not known here';
  if (n.v !== 'LayerNorm' && n.v !== 'RMSNorm')
    return `${RAISES}: normalization must be LayerNorm or RMSNorm, not ${n.v}`;
  return [
    { name: 'layer_norm_weight', shape: [width] },
    ...(n.v === 'LayerNorm' ? [{ name: 'layer_norm_bias', shape: [width] }] : []),
  ];
}

/** A layer whose tensors are not known, or that TE refuses to build (the reason then starts `TE raises`). */
function built(tensors: Tensor[] | string, summary: string, notes: string[], inF?: Poly): Built {
  if (typeof tensors !== 'string') return { tensors, summary, notes, inFeatures: inF };
  const raises = tensors.startsWith(RAISES);
  return {
    tensors: [],
    summary,
    notes,
    unknownReason: tensors,
    inFeatures: inF,
    problems: raises
      ? [{ code: 'constructor-raises', severity: 'error', message: `Transformer Engine${tensors.slice(2)}.` }]
      : [],
  };
}

const TP: ParamSpec[] = [
  { name: 'sequence_parallel', default: FALSE },
  { name: 'fuse_wgrad_accumulation', default: FALSE },
  { name: 'tp_group', default: NONE },
  { name: 'tp_size', default: int(1) },
  { name: 'get_rng_state_tracker', default: NONE },
];

const LINEAR: LayerSpec = {
  kind: 'te.Linear',
  framework: 'pytorch',
  signature: [
    { name: 'in_features', size: 'in' },
    { name: 'out_features', size: 'out' },
    ...TP,
    { name: 'rng_tracker_name', default: NONE },
    { name: 'init_method', default: NONE },
    { name: 'bias', default: TRUE },
    { name: 'return_bias', default: FALSE },
    { name: 'params_dtype', default: NONE },
    { name: 'parallel_mode', default: NONE },
    { name: 'parameters_split', default: NONE },
  ],
  build(a) {
    const inF = a.dim('in_features');
    const outF = a.dim('out_features');
    return built(
      linearParams(a, inF, outF),
      `${dimText(inF)} → ${dimText(outF)}`,
      ["Transformer Engine's linear layer: W [out_features, in_features] and b, as one process holds it (tp_size 1)."],
      inF,
    );
  },
};

const LAYER_NORM_LINEAR: LayerSpec = {
  kind: 'te.LayerNormLinear',
  framework: 'pytorch',
  signature: [
    { name: 'in_features', size: 'in' },
    { name: 'out_features', size: 'out' },
    EPS,
    ...TP,
    { name: 'init_method', default: NONE },
    { name: 'bias', default: TRUE },
    { name: 'normalization', default: STR('LayerNorm') },
    { name: 'return_bias', default: FALSE },
    { name: 'params_dtype', default: NONE },
    { name: 'parallel_mode', default: NONE },
    { name: 'return_layernorm_output', default: FALSE },
    { name: 'return_layernorm_output_gathered', default: FALSE },
    { name: 'parameters_split', default: NONE },
  ],
  build(a) {
    const inF = a.dim('in_features');
    const outF = a.dim('out_features');
    const norm = normParams(a, inF);
    const linear = linearParams(a, inF, outF);
    return built(
      typeof norm === 'string' ? norm : typeof linear === 'string' ? linear : [...norm, ...linear],
      `${dimText(inF)} → ${dimText(outF)}`,
      ["Transformer Engine's normalisation fused with the linear layer after it, as one process holds it (tp_size 1)."],
      inF,
    );
  },
};

const LAYER_NORM_MLP: LayerSpec = {
  kind: 'te.LayerNormMLP',
  framework: 'pytorch',
  signature: [
    { name: 'hidden_size', size: 'H' },
    { name: 'ffn_hidden_size', size: 'F' },
    EPS,
    { name: 'sequence_parallel', default: FALSE },
    { name: 'return_bias', default: FALSE },
    { name: 'get_rng_state_tracker', default: NONE },
    { name: 'tp_group', default: NONE },
    { name: 'tp_size', default: int(1) },
    { name: 'init_method', default: NONE },
    { name: 'bias', default: TRUE },
    { name: 'normalization', default: STR('LayerNorm') },
    { name: 'activation', default: STR('gelu') },
  ],
  build(a) {
    const H = a.dim('hidden_size');
    const F = a.dim('ffn_hidden_size');
    const act = a.value('activation');
    const gated = act.t === 'str' && GATED.has(act.v);
    const F1 = gated ? F.mul(Poly.int(2)) : F;
    const bias = a.flag('bias', true);
    const norm = normParams(a, H);
    const tensors: Tensor[] | string =
      typeof norm === 'string'
        ? norm
        : act.t !== 'str' || !(gated || NOT_GATED.has(act.v))
          ? `its activation ${act.t === 'str' ? `'${act.v}' ` : ''}is not one TE knows here`
          : [
              ...norm,
              { name: 'fc1_weight', shape: [F1, H] },
              ...(bias ? [{ name: 'fc1_bias', shape: [F1] }] : []),
              { name: 'fc2_weight', shape: [H, F] },
              ...(bias ? [{ name: 'fc2_bias', shape: [H] }] : []),
            ];
    return built(
      tensors,
      `${dimText(H)} → ${dimText(F)} → ${dimText(H)}`,
      [
        `Transformer Engine's normalisation and two-layer MLP in one module${gated ? `: ${act.t === 'str' ? act.v : ''} makes fc1 produce the gate beside the ${dimText(F)} features` : ''}, as one process holds it (tp_size 1).`,
      ],
      H,
    );
  },
};

function norm(kind: 'te.LayerNorm' | 'te.RMSNorm'): LayerSpec {
  const layerNorm = kind === 'te.LayerNorm';
  return {
    kind,
    framework: 'pytorch',
    signature: [
      { name: 'normalized_shape', size: 'D' },
      EPS,
      { name: 'sequence_parallel', default: NONE },
      { name: 'params_dtype', default: NONE },
      { name: 'zero_centered_gamma', default: FALSE },
      { name: 'hidden_size', default: NONE },
    ],
    build(a) {
      const shape =
        a.isNone('normalized_shape') && !a.isNone('hidden_size') ? [a.dim('hidden_size')] : normalizedShape(a);
      return {
        tensors: [{ name: 'weight', shape }, ...(layerNorm ? [{ name: 'bias', shape }] : [])],
        summary: `over [${shape.map(dimText).join(', ')}]`,
        notes: [
          `Transformer Engine's ${layerNorm ? 'LayerNorm: always a weight and a bias' : 'RMSNorm: a weight and no bias'}.`,
        ],
        outFeatures: shape[shape.length - 1],
        inFeatures: shape[shape.length - 1],
      };
    },
  };
}

const LAYERS: [string, LayerSpec, string][] = [
  ['Linear', LINEAR, 'module.linear'],
  ['LayerNormLinear', LAYER_NORM_LINEAR, 'module.layernorm_linear'],
  ['LayerNormMLP', LAYER_NORM_MLP, 'module.layernorm_mlp'],
  ['LayerNorm', norm('te.LayerNorm'), 'module.layernorm'],
  ['RMSNorm', norm('te.RMSNorm'), 'module.rmsnorm'],
];

const PACKAGE = 'transformer_engine.pytorch';

export const TRANSFORMER_ENGINE_LAYERS: ReadonlyMap<string, LayerSpec> = new Map(
  LAYERS.flatMap(([name, spec, file]) => [
    [`${PACKAGE}.${name}`, spec] as const,
    [`${PACKAGE}.module.${name}`, spec] as const,
    [`${PACKAGE}.${file}.${name}`, spec] as const,
  ]),
);
