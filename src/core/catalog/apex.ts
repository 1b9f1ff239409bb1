/**
 * apex's fused normalisations (apex/normalization/fused_layer_norm.py), which Megatron-LM and older NVIDIA
 * recipes build: the tensors of nn.LayerNorm (weight and bias) and of an RMSNorm (weight) over
 * `normalized_shape`. The Mixed variants are always affine and raise for `elementwise_affine=False`. Checked
 * against apex's source, run on the CPU, by scripts/ground-truth/library_layers_torch2.py.
 */
import { dimText, type LayerSpec } from './spec';
import { FALSE, TRUE, layerNormTensors, normalizedShape } from './pytorchTensors';

type Kind = 'FusedLayerNorm' | 'MixedFusedLayerNorm' | 'FusedRMSNorm' | 'MixedFusedRMSNorm';

function fusedNorm(kind: Kind): LayerSpec {
  const mixed = kind.startsWith('Mixed');
  const rms = kind.endsWith('RMSNorm');
  return {
    kind,
    framework: 'pytorch',
    signature: [
      { name: 'normalized_shape', size: 'D' },
      { name: 'eps', default: { t: 'float', v: 1e-5 } },
      ...(mixed ? [] : [{ name: 'elementwise_affine', default: TRUE }]),
      { name: 'memory_efficient', default: FALSE },
    ],
    build(a) {
      const shape = normalizedShape(a);
      const refused = mixed && a.given('elementwise_affine') && !a.flag('elementwise_affine', true);
      const affine = mixed || a.flag('elementwise_affine', true);
      return {
        tensors: rms ? (affine ? [{ name: 'weight', shape }] : []) : layerNormTensors(shape, affine, true),
        summary: `over [${shape.map(dimText).join(', ')}]`,
        notes: [`apex's fused ${rms ? 'RMSNorm: a weight and no bias' : 'nn.LayerNorm: a weight and a bias'}.`],
        ...(refused
          ? {
              unknownReason: `apex's ${kind} raises for elementwise_affine=False`,
              problems: [
                {
                  code: 'constructor-raises',
                  severity: 'error',
                  message: `apex's ${kind} does not support \`elementwise_affine = False\` and raises.`,
                  arg: 'elementwise_affine',
                },
              ],
            }
          : {}),
        outFeatures: shape[shape.length - 1],
        inFeatures: shape[shape.length - 1],
      };
    },
  };
}

const KINDS: readonly Kind[] = ['FusedLayerNorm', 'MixedFusedLayerNorm', 'FusedRMSNorm', 'MixedFusedRMSNorm'];

export const APEX_LAYERS: ReadonlyMap<string, LayerSpec> = new Map(
  KINDS.flatMap((kind) => [
    [`apex.normalization.${kind}`, fusedNorm(kind)] as const,
    [`apex.normalization.fused_layer_norm.${kind}`, fusedNorm(kind)] as const,
  ]),
);
