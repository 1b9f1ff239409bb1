/**
 * Layers of the Hugging Face transformers library that model files build like torch.nn layers: GPT-2's
 * Conv1D, a linear layer whose weight is stored transposed ([in, out]). Checked against the library's own
 * definition by scripts/ground-truth (pytorch_common.py builds it as transformers does).
 */
import type { Tensor } from '../values/layer';
import { dimText, type LayerSpec } from './spec';

const CONV1D: LayerSpec = {
  kind: 'Conv1D',
  framework: 'pytorch',
  signature: [
    { name: 'nf', size: 'nf' },
    { name: 'nx', size: 'nx' },
  ],
  build(a) {
    const nf = a.dim('nf');
    const nx = a.dim('nx');
    const tensors: Tensor[] = [
      { name: 'weight', shape: [nx, nf] },
      { name: 'bias', shape: [nf] },
    ];
    return {
      tensors,
      summary: `${dimText(nx)} → ${dimText(nf)}`,
      notes: [
        'transformers.Conv1D is a linear layer with its weight stored as [in, out] (nx, nf): the transpose of nn.Linear.',
      ],
      outFeatures: nf,
      inFeatures: nx,
    };
  },
};

export const TRANSFORMERS_LAYERS: ReadonlyMap<string, LayerSpec> = new Map([
  ['transformers.pytorch_utils.Conv1D', CONV1D],
  ['transformers.modeling_utils.Conv1D', CONV1D],
]);
