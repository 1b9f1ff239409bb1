/**
 * Megatron-core's tensor-parallel layers (megatron/core/tensor_parallel/layers.py, 0.16) as one process holds
 * them: with a tensor-parallel world size of 1 each holds the whole matrix. Their kinds carry the module name
 * users write (`tensor_parallel.ColumnParallelLinear`): unlike fairscale's layers of the same names their
 * forward returns the output and the bias apart, so shapes are not followed through them. Checked against
 * megatron-core 0.16.1 by scripts/ground-truth/library_layers_torch2.py.
 */
import { int, NONE } from '../values/value';
import { dimText, type LayerSpec, type ParamSpec } from './spec';
import { FALSE, TRUE, embeddingSpec, linearTensors } from './pytorchTensors';

const ONE_PROCESS =
  'as one process holds it (tensor-parallel world size 1): the whole matrix, split across processes otherwise.';

const COMMON: ParamSpec[] = [
  { name: 'config', default: NONE },
  { name: 'init_method', default: NONE },
];

function parallelLinear(column: boolean): LayerSpec {
  return {
    kind: `tensor_parallel.${column ? 'Column' : 'Row'}ParallelLinear`,
    framework: 'pytorch',
    signature: [
      { name: 'input_size', size: 'in' },
      { name: 'output_size', size: 'out' },
      ...COMMON,
      // RowParallelLinear takes `bias` with no default: a call without it raises before any count matters.
      { name: 'bias', default: TRUE },
      column ? { name: 'gather_output', default: FALSE } : { name: 'input_is_parallel', default: FALSE },
      { name: 'stride', default: int(1) },
      { name: 'keep_master_weight_for_test', default: FALSE },
      { name: 'skip_bias_add', default: FALSE },
      ...(column ? [{ name: 'skip_weight_param_allocation', default: FALSE }] : []),
    ],
    build(a) {
      const inF = a.dim('input_size');
      const outF = a.dim('output_size');
      const bias = a.flag('bias', true);
      const allocated = !column || !a.flag('skip_weight_param_allocation', false);
      const tensors = linearTensors(inF, outF, bias).filter((t) => allocated || t.name !== 'weight');
      const skip = a.flag('skip_bias_add', false);
      return {
        tensors,
        summary: `${dimText(inF)} → ${dimText(outF)}`,
        notes: [
          `Megatron's ${column ? 'column' : 'row'}-parallel linear layer: W [output_size, input_size]${bias ? ' and b' : ''}, ${ONE_PROCESS}`,
          ...(allocated ? [] : ['skip_weight_param_allocation: forward() is given the weight; the layer holds none.']),
          ...(bias && skip
            ? ['skip_bias_add: forward() returns the bias beside the output for a fused add later.']
            : []),
        ],
        inFeatures: inF,
      };
    },
  };
}

const VOCAB_PARALLEL_EMBEDDING = embeddingSpec(
  'tensor_parallel.VocabParallelEmbedding',
  [...COMMON, { name: 'reduce_scatter_embeddings', default: FALSE }],
  () => ({ notes: [`Megatron's vocabulary-parallel embedding, ${ONE_PROCESS}`] }),
);

const PACKAGE = 'megatron.core.tensor_parallel';

export const MEGATRON_LAYERS: ReadonlyMap<string, LayerSpec> = new Map(
  (
    [
      ['ColumnParallelLinear', parallelLinear(true)],
      ['RowParallelLinear', parallelLinear(false)],
      ['VocabParallelEmbedding', VOCAB_PARALLEL_EMBEDDING],
    ] as const
  ).flatMap(([name, spec]) => [[`${PACKAGE}.${name}`, spec] as const, [`${PACKAGE}.layers.${name}`, spec] as const]),
);
