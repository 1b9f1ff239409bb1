/** What several PyTorch layers share: flags, device/dtype parameters, and the tensors of Linear and LayerNorm. */
import type { Tensor } from '../values/layer';
import { Poly } from '../values/symbolic';
import { NONE, type Value } from '../values/value';
import { dimText, type Args, type LayerSpec, type ParamSpec } from './spec';

export const TRUE: Value = { t: 'bool', v: true };
export const FALSE: Value = { t: 'bool', v: false };
export const DEVICE_DTYPE: ParamSpec[] = [
  { name: 'device', default: NONE },
  { name: 'dtype', default: NONE },
];

/** nn.Embedding's options after its sizes, which fairscale's parallel embeddings take too. */
export const EMBEDDING_OPTIONS: ParamSpec[] = [
  { name: 'padding_idx', default: NONE },
  { name: 'max_norm', default: NONE },
  { name: 'norm_type', default: { t: 'float', v: 2 } },
  { name: 'scale_grad_by_freq', default: FALSE },
  { name: 'sparse', default: FALSE },
];

export function linearTensors(inF: Poly, outF: Poly, bias: boolean): Tensor[] {
  return bias
    ? [
        { name: 'weight', shape: [outF, inF] },
        { name: 'bias', shape: [outF] },
      ]
    : [{ name: 'weight', shape: [outF, inF] }];
}

export function layerNormTensors(shape: readonly Poly[], affine: boolean, bias: boolean): Tensor[] {
  if (!affine) return [];
  return bias
    ? [
        { name: 'weight', shape },
        { name: 'bias', shape },
      ]
    : [{ name: 'weight', shape }];
}

/** Item i of a size given as a sequence (`normalized_shape=(8, 16)`); one not known is named by its place. */
export function seqDim(a: Args, name: string, i: number): Poly {
  const v = a.value(name);
  const item = v.t === 'seq' ? v.items[i] : undefined;
  return item?.t === 'int' ? item.p : Poly.symbol(`${name}[${i}]`);
}

/** A normalisation's `normalized_shape`: one size or a sequence of them. */
export function normalizedShape(a: Args): Poly[] {
  const v = a.value('normalized_shape');
  return v.t === 'seq' ? v.items.map((_, i) => seqDim(a, 'normalized_shape', i)) : [a.dim('normalized_shape')];
}

/**
 * An embedding table [num_embeddings, embedding_dim], torch's or a library's: the options after its two sizes,
 * and the notes and tensors a library adds (bitsandbytes' StableEmbedding normalises its vectors).
 */
export function embeddingSpec(
  kind: string,
  options: readonly ParamSpec[],
  extra: (D: Poly) => { readonly notes?: string[]; readonly tensors?: Tensor[] } = () => ({}),
): LayerSpec {
  return {
    kind,
    framework: 'pytorch',
    signature: [{ name: 'num_embeddings', size: 'V' }, { name: 'embedding_dim', size: 'D' }, ...options],
    build(a) {
      const V = a.dim('num_embeddings');
      const D = a.dim('embedding_dim');
      const { notes, tensors = [] } = extra(D);
      return {
        tensors: [{ name: 'weight', shape: [V, D] }, ...tensors],
        summary: `${dimText(V)} × ${dimText(D)}`,
        ...(notes ? { notes } : {}),
        outFeatures: D,
      };
    },
  };
}
