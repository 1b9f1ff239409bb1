/** What several PyTorch layers share: flags, device/dtype parameters, and the tensors of Linear and LayerNorm. */
import type { Tensor } from '../values/layer';
import type { Poly } from '../values/symbolic';
import { NONE, type Value } from '../values/value';
import type { ParamSpec } from './spec';

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
