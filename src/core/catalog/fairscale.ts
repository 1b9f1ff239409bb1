/**
 * fairscale's model-parallel layers (fairscale/nn/model_parallel/layers.py), which Meta's Llama builds, as one
 * process holds them: with a model-parallel world size of 1 each holds the whole matrix, the tensors of the
 * torch.nn layer it splits. Checked against fairscale 0.4.13 by scripts/ground-truth/fairscale_layers.py.
 */
import { int, NONE } from '../values/value';
import { dimText, type LayerSpec, type ParamSpec } from './spec';
import { EMBEDDING_OPTIONS, FALSE, TRUE, embeddingSpec, linearTensors } from './pytorchTensors';

/** The model-parallel world size the counts are for: one process, as `python model.py` runs. */
const ONE_PROCESS =
  'as one process holds it (model-parallel world size 1): the whole matrix, split across processes otherwise.';

const INIT: ParamSpec[] = [
  { name: 'init_method', default: NONE },
  { name: 'stride', default: int(1) },
  { name: 'keep_master_weight_for_test', default: FALSE },
];

function parallelLinear(kind: 'ColumnParallelLinear' | 'RowParallelLinear'): LayerSpec {
  const column = kind === 'ColumnParallelLinear';
  return {
    kind,
    framework: 'pytorch',
    signature: [
      { name: 'in_features', size: 'in' },
      { name: 'out_features', size: 'out' },
      { name: 'bias', default: TRUE },
      column ? { name: 'gather_output', default: TRUE } : { name: 'input_is_parallel', default: FALSE },
      ...INIT,
    ],
    build(a) {
      const inF = a.dim('in_features');
      const outF = a.dim('out_features');
      const bias = a.flag('bias', true);
      return {
        tensors: linearTensors(inF, outF, bias),
        summary: `${dimText(inF)} → ${dimText(outF)}`,
        notes: [
          `fairscale's ${column ? 'column' : 'row'}-parallel nn.Linear: W [out_features, in_features]${bias ? ' and b' : ''}, ${ONE_PROCESS}`,
        ],
        outFeatures: outF,
        inFeatures: inF,
      };
    },
  };
}

function parallelEmbedding(kind: 'ParallelEmbedding' | 'VocabParallelEmbedding'): LayerSpec {
  return embeddingSpec(
    kind,
    [
      ...EMBEDDING_OPTIONS,
      { name: 'init_method', default: NONE },
      ...(kind === 'ParallelEmbedding' ? [{ name: 'keep_master_weight_for_test', default: FALSE }] : []),
    ],
    () => ({
      notes: [
        `fairscale's ${kind === 'ParallelEmbedding' ? 'embedding-dimension' : 'vocabulary'}-parallel nn.Embedding, ${ONE_PROCESS}`,
      ],
    }),
  );
}

const LAYERS = 'fairscale.nn.model_parallel.layers';
const PACKAGE = 'fairscale.nn.model_parallel';

export const FAIRSCALE_LAYERS: ReadonlyMap<string, LayerSpec> = new Map([
  ...(['ColumnParallelLinear', 'RowParallelLinear'] as const).flatMap((k) => [
    [`${LAYERS}.${k}`, parallelLinear(k)] as const,
    [`${PACKAGE}.${k}`, parallelLinear(k)] as const,
  ]),
  [`${LAYERS}.ParallelEmbedding`, parallelEmbedding('ParallelEmbedding')],
  [`${LAYERS}.VocabParallelEmbedding`, parallelEmbedding('VocabParallelEmbedding')],
  [`${PACKAGE}.VocabParallelEmbedding`, parallelEmbedding('VocabParallelEmbedding')],
]);
