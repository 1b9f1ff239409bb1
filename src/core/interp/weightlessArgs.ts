/**
 * The arguments of torch.nn's weightless layers that change what they compute (dropout's `p`, `inplace`,
 * softmax's `dim`), kept as the module's attributes as PyTorch keeps them (`self.drop.p`).
 */
import type { Value } from '../values/value';

const SIGNATURES: Readonly<Record<string, readonly string[]>> = {
  Dropout: ['p', 'inplace'],
  Dropout1d: ['p', 'inplace'],
  Dropout2d: ['p', 'inplace'],
  Dropout3d: ['p', 'inplace'],
  AlphaDropout: ['p', 'inplace'],
  ReLU: ['inplace'],
  ReLU6: ['inplace'],
  SiLU: ['inplace'],
  Mish: ['inplace'],
  Hardswish: ['inplace'],
  GELU: ['approximate'],
  ELU: ['alpha', 'inplace'],
  LeakyReLU: ['negative_slope', 'inplace'],
  Softmax: ['dim'],
  LogSoftmax: ['dim'],
};

export function weightlessFields(
  name: string,
  positional: readonly Value[],
  keywords: ReadonlyMap<string, Value>,
): Map<string, Value> {
  const fields = new Map<string, Value>();
  (SIGNATURES[name] ?? []).forEach((arg, i) => {
    const v = keywords.get(arg) ?? positional[i];
    if (v) fields.set(arg, v);
  });
  return fields;
}
