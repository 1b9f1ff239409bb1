/**
 * bitsandbytes' layers (bitsandbytes/nn/modules.py, 0.50): the 8-bit and 4-bit linear layers QLoRA and
 * LLM.int8() build, and the embeddings its 8-bit optimizers pair with. Built, each holds the floating-point
 * tensors of the torch.nn layer it subclasses; moved to a device (`.cuda()`, `.to(device)`) the quantised ones
 * store their weight in 8 or 4 bits, which their notes size. Checked against bitsandbytes 0.50.2 by
 * scripts/ground-truth/library_layers_torch2.py.
 */
import { NONE, type Value } from '../values/value';
import type { StoredWeight } from '../values/layer';
import { groupDigits } from '../values/symbolic';
import { dimText, type Args, type LayerSpec } from './spec';
import { EMBEDDING_OPTIONS, TRUE, embeddingSpec, linearTensors } from './pytorchTensors';

const FLOAT_ZERO: Value = { t: 'float', v: 0 };
/** The weights one absmax scale of a 4-bit weight covers (Params4bit's blocksize on CUDA). */
const BLOCK = 64n;
/** The 4-bit blocks' scales one float32 scale of compress_statistics covers. */
const NESTED_BLOCK = 256n;

function bytes(n: bigint): string {
  return `${groupDigits(n)} byte${n === 1n ? '' : 's'}`;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** What a quantised layer's notes say, and its storage where its sizes are known. */
interface Storage {
  readonly notes: string[];
  readonly stored?: StoredWeight;
}

function bitsLinear(kind: string, signature: LayerSpec['signature'], storage: (a: Args, weights?: bigint) => Storage) {
  return {
    kind,
    framework: 'pytorch',
    signature,
    build(a: Args) {
      const inF = a.dim('input_features');
      const outF = a.dim('output_features');
      const bias = a.flag('bias', true);
      const { notes, stored } = storage(a, inF.mul(outF).constant);
      return {
        tensors: linearTensors(inF, outF, bias),
        summary: `${dimText(inF)} → ${dimText(outF)}`,
        notes,
        ...(stored ? { stored } : {}),
        outFeatures: outF,
        inFeatures: inF,
      };
    },
  } satisfies LayerSpec;
}

const MOVED = 'once the layer is moved to a device (`.cuda()`, `.to(device)`)';

const LINEAR_8BIT = bitsLinear(
  'Linear8bitLt',
  [
    { name: 'input_features', size: 'in' },
    { name: 'output_features', size: 'out' },
    { name: 'bias', default: TRUE },
    { name: 'has_fp16_weights', default: TRUE },
    { name: 'threshold', default: FLOAT_ZERO },
    { name: 'index', default: NONE },
    { name: 'device', default: NONE },
  ],
  (a, weights) => {
    if (a.flag('has_fp16_weights', true))
      return {
        notes: [
          "bitsandbytes' LLM.int8() linear layer keeping its weight in floating point (has_fp16_weights=True): each forward quantises it to int8; nothing is stored in 8 bits.",
        ],
      };
    const out = a.dim('output_features').constant;
    const stored =
      weights !== undefined && out !== undefined
        ? { format: 'int8', weightBytes: weights, scaleBytes: out * 4n }
        : undefined;
    return {
      notes: [
        `An nn.Linear whose weight bitsandbytes stores as int8 ${MOVED}: ` +
          (stored
            ? `${bytes(stored.weightBytes)} of weights and ${bytes(stored.scaleBytes)} of float32 row scales (SCB)`
            : 'a byte a weight and a float32 scale a row (SCB)') +
          '; the bias stays in floating point.',
      ],
      stored,
    };
  },
);

/** The 4-bit weight's storage as quantize_4bit lays it out: two weights a byte, and an absmax scale a block. */
function fourBitStorage(quantType: string | undefined) {
  return (a: Args, weights?: bigint): Storage => {
    const given = a.value('quant_type');
    const type = quantType ?? (given.t === 'str' ? given.v : undefined);
    const format = type === 'nf4' || type === 'fp4' ? type : '4-bit';
    const packing = `stored in 4 bits${type ? ` (${type.toUpperCase()})` : ''} ${MOVED}`;
    const counted =
      "Once quantised, `sum(p.numel())` counts its packed bytes, not its weights: the count here is the weights', as built.";
    const storage = a.value('quant_storage');
    const packedInBytes = !a.given('quant_storage') || (storage.t === 'ref' && storage.path === 'torch.uint8');
    const compressed = a.value('compress_statistics');
    const nested = compressed.t === 'bool' ? compressed.v : undefined;
    if (weights === undefined || !packedInBytes || nested === undefined)
      return {
        notes: [
          `An nn.Linear whose weight bitsandbytes keeps ${packing}: half a byte a weight and a scale a block of ${BLOCK}.`,
          counted,
        ],
      };
    const blocks = ceilDiv(weights, BLOCK);
    const outer = nested ? ceilDiv(blocks, NESTED_BLOCK) * 4n : 0n;
    const stored = { format, weightBytes: (weights + 1n) / 2n, scaleBytes: nested ? blocks + outer : blocks * 4n };
    const scales = nested
      ? `${bytes(blocks)} of uint8 block scales and ${bytes(outer)} of float32 scales of those (compress_statistics)`
      : `${bytes(blocks * 4n)} of float32 block scales`;
    return {
      notes: [
        `An nn.Linear whose weight bitsandbytes keeps ${packing}: ${bytes(stored.weightBytes)} of packed weights and ${scales}, a block being ${BLOCK} weights; the bias stays in floating point.`,
        counted,
      ],
      stored,
    };
  };
}

const FOUR_BIT_TAIL = [
  { name: 'compute_dtype', default: NONE },
  { name: 'compress_statistics', default: TRUE },
];

const LINEAR_4BIT = bitsLinear(
  'Linear4bit',
  [
    { name: 'input_features', size: 'in' },
    { name: 'output_features', size: 'out' },
    { name: 'bias', default: TRUE },
    ...FOUR_BIT_TAIL,
    { name: 'quant_type', default: { t: 'str', v: 'fp4' } },
    { name: 'quant_storage', default: NONE },
    { name: 'device', default: NONE },
  ],
  fourBitStorage(undefined),
);

function fixedFourBit(kind: 'LinearNF4' | 'LinearFP4'): LayerSpec {
  return bitsLinear(
    kind,
    [
      { name: 'input_features', size: 'in' },
      { name: 'output_features', size: 'out' },
      { name: 'bias', default: TRUE },
      ...FOUR_BIT_TAIL,
      { name: 'quant_storage', default: NONE },
      { name: 'device', default: NONE },
    ],
    fourBitStorage(kind === 'LinearNF4' ? 'nf4' : 'fp4'),
  );
}

function embedding(kind: 'StableEmbedding' | 'Embedding'): LayerSpec {
  const stable = kind === 'StableEmbedding';
  const options = [
    ...EMBEDDING_OPTIONS,
    { name: '_weight', default: NONE },
    { name: 'device', default: NONE },
    ...(stable ? [{ name: 'dtype', default: NONE }] : []),
  ];
  return embeddingSpec(kind, options, (D) =>
    stable
      ? {
          tensors: [
            { name: 'norm.weight', shape: [D] },
            { name: 'norm.bias', shape: [D] },
          ],
          notes: [
            'An nn.Embedding followed by an nn.LayerNorm over its vectors (`norm`), whose optimizer state bitsandbytes keeps in 32 bits.',
          ],
        }
      : { notes: ['An nn.Embedding whose optimizer state bitsandbytes keeps in 32 bits.'] },
  );
}

export const BITSANDBYTES_LAYERS: ReadonlyMap<string, LayerSpec> = new Map(
  (
    [
      ['Linear8bitLt', LINEAR_8BIT],
      ['Linear4bit', LINEAR_4BIT],
      ['LinearNF4', fixedFourBit('LinearNF4')],
      ['LinearFP4', fixedFourBit('LinearFP4')],
      ['StableEmbedding', embedding('StableEmbedding')],
      ['Embedding', embedding('Embedding')],
    ] as const
  ).flatMap(([name, spec]) => [
    [`bitsandbytes.nn.${name}`, spec] as const,
    [`bitsandbytes.nn.modules.${name}`, spec] as const,
  ]),
);
