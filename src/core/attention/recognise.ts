/**
 * Attention written by hand, as one layer: the module whose forward() holds the core, its projections by
 * role (W_Q, W_K, W_V, W_O, fused or not), heads and head size as the code splits them, grouped-query and
 * cross attention. The result is a LayerInstance with an AttentionShape, so the lens, the hover and the
 * Explain panel treat it as they treat nn.MultiheadAttention.
 */
import { dimText } from '../catalog/spec';
import type { AttentionShape, LayerInstance, Tensor } from '../values/layer';
import { totalOf, unknownIn, type ModuleTree } from '../values/modules';
import { Poly } from '../values/symbolic';
import type { Value } from '../values/value';
import type { Core } from '../values/value';

type LayerValue = Extract<Value, { t: 'layer' }>;

export interface Attention {
  readonly core: Core;
  readonly output?: LayerValue;
}

const LETTERS = { q: 'Q', k: 'K', v: 'V', o: 'O' } as const;

/** Where a module keeps the layers of its attention, and the parameters that come with them. */
export interface Parts {
  /** A layer's place in the module (`c_attn`); undefined when it is not the module's. */
  pathOf(layer: LayerValue): string | undefined;
  /** A layer as it was built where it was applied (TF.js sizes a dense layer by its first input). */
  built?(layer: LayerValue): LayerInstance | undefined;
  /** The parameters, named as the framework lists them, given the paths of the attention's layers. */
  tensors(layers: ReadonlyMap<string, LayerValue>): {
    tensors: Tensor[];
    params: Poly | undefined;
    reason?: string;
    note?: string;
  };
}

/** The module's attention, its projections found through `parts`. */
export function describe(className: string, found: Attention, parts: Parts): LayerInstance | undefined {
  const { q, k, v } = found.core;
  if (!q.layer || !k.layer || !v?.layer) return undefined;
  const paths = {
    q: parts.pathOf(q.layer),
    k: parts.pathOf(k.layer),
    v: parts.pathOf(v.layer),
    o: found.output && parts.pathOf(found.output),
  };
  if (!paths.q || !paths.k || !paths.v) return undefined;
  const roles = new Map<string, string[]>();
  const layers = new Map<string, LayerValue>();
  for (const role of ['q', 'k', 'v', 'o'] as const) {
    const path = paths[role];
    const layer = role === 'o' ? found.output : found.core[role]?.layer;
    if (!path || !layer) continue;
    roles.set(path, [...(roles.get(path) ?? []), LETTERS[role]]);
    layers.set(path, layer);
  }
  const own = parts.tensors(layers);
  const tensors = own.tensors.map((t) => ({ ...t, role: roleOf(t.name, roles) }));
  const reason = own.reason;
  const params = own.params;

  const heads = q.heads;
  // The width of a part of a fused projection taken by index or unbind is the whole projection's: no head
  // size is read from it here, only from the split or the tensors the scores are computed from.
  const headDim = q.headDim;
  const kvHeads = k.heads;
  const grouped = heads && kvHeads && !kvHeads.equals(heads) ? kvHeads : undefined;
  const valueHeadDim = v.headDim && headDim && !v.headDim.equals(headDim) ? v.headDim : undefined;
  const cross = q.input !== undefined && k.input !== undefined && q.input !== k.input;
  const built = (l: LayerValue) => parts.built?.(l) ?? l.layer;
  const embed = built(q.layer).inFeatures ?? Poly.symbol('E');
  const bias = built(q.layer).tensors.some((t) => t.name === 'bias');
  const fused =
    paths.q === paths.k
      ? paths.k === paths.v
        ? 'Q, K and V from one projection'
        : 'Q and K from one projection'
      : paths.k === paths.v
        ? 'K and V from one projection'
        : 'separate projections';
  let settings: readonly (readonly [string, string])[] | undefined;
  let formula: string | undefined;
  let noted: string[] | undefined;
  const attention: AttentionShape = {
    embed,
    heads: heads ?? Poly.symbol('h'),
    headDim,
    kdim: built(k.layer).inFeatures ?? embed,
    vdim: built(v.layer).inFeatures ?? embed,
    layout: 'module',
    kvHeads: grouped,
    cross,
    valueHeadDim,
    output: found.output?.layer.outFeatures ? [found.output.layer.outFeatures] : undefined,
    bias,
    // The texts are made when a hover or the panel reads them: attention is recognised on every forward() followed.
    get settings(): readonly (readonly [string, string])[] {
      return (settings ??= [
        ['query input features', dimText(embed)],
        ['heads', heads ? dimText(heads) : 'not known'],
        ['head size d_k', headDim ? dimText(headDim) : 'not known'],
        ...(grouped ? [['key/value heads', dimText(grouped)] as const] : []),
        ...(cross ? [['keys and values from', `${k.input} (queries from ${q.input})`] as const] : []),
        ['projections', fused],
        ['W_Q · W_K · W_V · W_O', [paths.q, paths.k, paths.v, paths.o ?? '—'].join(' · ')],
      ]);
    },
  };
  const shape = !heads
    ? 'heads not known'
    : heads.isConstant
      ? `${dimText(heads)} heads${headDim ? ` × ${dimText(headDim)}` : ''}${valueHeadDim ? `, values × ${dimText(valueHeadDim)}` : ''}`
      : `h = ${dimText(heads)}${headDim ? `, d_k = ${dimText(headDim)}` : ''}`;
  const variant = grouped
    ? grouped.constant === 1n
      ? ' · MQA, 1 kv head'
      : ` · GQA ${dimText(heads!)} q / ${dimText(grouped)} kv heads`
    : '';
  return {
    kind: className,
    framework: q.layer.layer.framework,
    tensors,
    params,
    get formula() {
      return (formula ??= params && !params.isConstant ? params.toString() : '');
    },
    summary: `${shape}${variant}${cross ? ' · cross' : ''}`,
    get notes() {
      return (noted ??= [...notes(paths, fused, heads, headDim, grouped, cross), ...(own.note ? [own.note] : [])]);
    },
    unknownReason: reason,
    attention,
    inFeatures: embed,
    outFeatures: found.output?.layer.outFeatures,
  };
}

function notes(
  paths: Record<'q' | 'k' | 'v' | 'o', string | undefined>,
  fused: string,
  heads: Poly | undefined,
  headDim: Poly | undefined,
  grouped: Poly | undefined,
  cross: boolean,
): string[] {
  const out = [
    `Attention written by hand: ${fused} (W_Q in \`${paths.q}\`, W_K in \`${paths.k}\`, W_V in \`${paths.v}\`)${paths.o ? `, output projection \`${paths.o}\`` : ', no output projection in this class'}.`,
  ];
  if (heads && headDim)
    out.push(
      `The heads split the projections into ${dimText(heads)} slices of d_k = ${dimText(headDim)}; softmax(QKᵀ/√d_k)V itself has no parameters.`,
    );
  if (grouped && heads) {
    const times = heads.constant && grouped.constant ? `${heads.constant / grouped.constant} times ` : '';
    out.push(
      `Grouped-query attention: ${dimText(grouped)} key/value heads serve ${dimText(heads)} query heads, so W_K, W_V and the KV cache are ${times}smaller than W_Q.`,
    );
  }
  if (cross) out.push('Cross attention: the keys and values come from another input than the queries.');
  return out;
}

function roleOf(name: string, roles: ReadonlyMap<string, readonly string[]>): string {
  const dot = name.lastIndexOf('.');
  const letters = roles.get(name.slice(0, dot));
  if (!letters) return '';
  const leaf = name.slice(dot + 1);
  // torch.nn names them weight and bias; js-pytorch, W and b; TF.js, kernel and bias.
  const kind =
    leaf === 'weight' || leaf === 'W' || leaf === 'kernel' ? 'W' : leaf === 'bias' || leaf === 'b' ? 'b' : undefined;
  if (!kind) return '';
  const names = letters.map((l) => `${kind}_${l}`);
  return names.length > 1 ? `${names.join(', ')} stacked` : names[0];
}

/** A torch (or js-pytorch) module: its layers are its children, its parameters what `named_parameters()` lists. */
export function moduleParts(tree: ModuleTree, pathOf: (layer: LayerValue) => string | undefined): Parts {
  return {
    pathOf,
    tensors: () => {
      const reason = unknownIn(tree);
      return { tensors: namedTensors(tree), params: reason === undefined ? totalOf(tree) : undefined, reason };
    },
  };
}

/** The module's parameters as `named_parameters()` lists them. */
/** The module's parameters as `named_parameters()` lists them. */
function namedTensors(tree: ModuleTree): Tensor[] {
  const out: Tensor[] = [];
  const seen = new Set<number>();
  const visited = new Set<ModuleTree>();
  const visit = (n: ModuleTree, prefix: string, repeat: Poly | undefined) => {
    if (visited.has(n)) return;
    visited.add(n);
    const times = n.repeat ? (repeat ? repeat.mul(n.repeat) : n.repeat) : repeat;
    for (const [name, p] of n.params) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.push({ name: prefix + name, shape: p.shape, repeat: times });
    }
    for (const [name, c] of n.children) visit(c, `${prefix}${name}.`, times);
  };
  visit(tree, '', undefined);
  return out;
}
