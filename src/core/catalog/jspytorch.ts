/**
 * js-pytorch 0.7.2 layers as the library builds them (dist/index.js): Linear keeps W [in, out] and always
 * creates b [out], whatever its `bias` flag says. Checked by scripts/ground-truth/js_layers.mjs.
 */
import type { AttentionShape, Tensor } from '../values/layer';
import { childTensors } from '../values/layer';
import { Poly } from '../values/symbolic';
import { dimText, type LayerSpec, type Problem, type Args } from './spec';
import { divisorFixes } from './sizeFixes';
import { headsDivisibility } from '../findings/messages';

const linear = (inF: Poly, outF: Poly): Tensor[] => [
  { name: 'W', shape: [inF, outF] },
  { name: 'b', shape: [outF] },
];
const layerNorm = (n: Poly): Tensor[] => [
  { name: 'gamma', shape: [n] },
  { name: 'beta', shape: [n] },
];

function attention(inF: Poly, outF: Poly): Tensor[] {
  return [
    ...childTensors('Wk', linear(inF, inF)),
    ...childTensors('Wq', linear(inF, inF)),
    ...childTensors('Wv', linear(inF, inF)),
    ...childTensors('residual_proj', linear(inF, outF)),
  ];
}

function fullyConnected(inF: Poly, outF: Poly): Tensor[] {
  const hidden = inF.mul(Poly.int(2));
  return [...childTensors('l1', linear(inF, hidden)), ...childTensors('l2', linear(hidden, outF))];
}

/** js-pytorch throws "Embedding dimension not divisible in equal heads." */
function headsProblems(a: Args): Problem[] {
  const E = a.dim('in_size').constant;
  const h = a.dim('n_heads').constant;
  if (E === undefined || h === undefined || h === 0n || E % h === 0n) return [];
  return [
    {
      code: 'heads-divisibility',
      severity: 'error',
      arg: 'n_heads',
      message: headsDivisibility('js-pytorch', { name: 'in_size', size: E }, { name: 'n_heads', count: h }),
      fixes: (args) => divisorFixes(E, h, args.expr('n_heads'), (d) => `Use ${d} heads (${E} / ${d} = ${E / d})`),
    },
  ];
}

function attentionShape(a: Args): AttentionShape {
  const E = a.dim('in_size');
  const h = a.dim('n_heads');
  const headDim = h.constant && h.constant > 0n ? E.divExact(h.constant) : undefined;
  return {
    embed: E,
    heads: h,
    headDim,
    kdim: E,
    vdim: E,
    layout: 'js-pytorch',
    output: [a.dim('out_size')],
    bias: true,
    batchFirst: true,
    settings: [
      ['in_size (E)', dimText(E)],
      ['out_size', dimText(a.dim('out_size'))],
      ['n_heads (h)', dimText(h)],
      ['d_k = E / h', headDim ? dimText(headDim) : `${dimText(E)} / ${dimText(h)}`],
      ['n_timesteps', a.text('n_timesteps')],
    ],
  };
}

/** Embedding and PositionalEmbedding: one learned row `E` per token or position. */
function table(kind: string, rows: string, symbol: string): LayerSpec {
  return {
    kind,
    framework: 'js-pytorch',
    signature: [
      { name: rows, size: symbol },
      { name: 'embed_size', size: 'D' },
    ],
    build(a) {
      return {
        tensors: [{ name: 'E', shape: [a.dim(rows), a.dim('embed_size')] }],
        summary: `${dimText(a.dim(rows))} × ${dimText(a.dim('embed_size'))}`,
        outFeatures: a.dim('embed_size'),
      };
    },
  };
}

const ATTENTION_NOTES = [
  'W_Q, W_K and W_V are three Linear layers in_size → in_size (Wq, Wk, Wv); residual_proj is W_O, in_size → out_size.',
  'The attention product softmax(Q·Kᵀ/√d_k)·V holds no parameters.',
];

const SPECS: Record<string, LayerSpec> = {
  Linear: {
    kind: 'Linear',
    framework: 'js-pytorch',
    signature: [
      { name: 'in_size', size: 'in' },
      { name: 'out_size', size: 'out' },
      { name: 'device' },
      { name: 'bias' },
      { name: 'xavier' },
    ],
    build(a) {
      const inF = a.dim('in_size');
      const outF = a.dim('out_size');
      const notes = ['y = x·W + b with W [in_size, out_size].'];
      if (!a.flag('bias', true))
        notes.push('bias=false only skips adding b in forward(): js-pytorch still creates b and counts it.');
      return {
        tensors: linear(inF, outF),
        summary: `${dimText(inF)} → ${dimText(outF)}`,
        notes,
        outFeatures: outF,
        inFeatures: inF,
      };
    },
  },
  MultiHeadSelfAttention: {
    kind: 'MultiHeadSelfAttention',
    framework: 'js-pytorch',
    signature: [
      { name: 'in_size', size: 'E' },
      { name: 'out_size', size: 'out' },
      { name: 'n_heads', size: 'h' },
      { name: 'n_timesteps' },
      { name: 'dropout_prob' },
      { name: 'device' },
    ],
    build(a) {
      const shape = attentionShape(a);
      return {
        tensors: attention(a.dim('in_size'), a.dim('out_size')),
        summary: shape.headDim
          ? `${dimText(shape.heads)} heads × ${dimText(shape.headDim)}`
          : `${dimText(shape.heads)} heads`,
        notes: ATTENTION_NOTES,
        problems: headsProblems(a),
        attention: shape,
        outFeatures: a.dim('out_size'),
        inFeatures: a.dim('in_size'),
      };
    },
  },
  FullyConnected: {
    kind: 'FullyConnected',
    framework: 'js-pytorch',
    signature: [
      { name: 'in_size', size: 'in' },
      { name: 'out_size', size: 'out' },
      { name: 'dropout_prob' },
      { name: 'device' },
      { name: 'bias' },
    ],
    build(a) {
      const inF = a.dim('in_size');
      return {
        tensors: fullyConnected(inF, a.dim('out_size')),
        summary: `${dimText(inF)} → ${dimText(inF.mul(Poly.int(2)))} → ${dimText(a.dim('out_size'))}`,
        outFeatures: a.dim('out_size'),
      };
    },
  },
  Block: {
    kind: 'Block',
    framework: 'js-pytorch',
    signature: [
      { name: 'in_size', size: 'E' },
      { name: 'out_size', size: 'out' },
      { name: 'n_heads', size: 'h' },
      { name: 'n_timesteps' },
      { name: 'dropout_prob' },
      { name: 'device' },
    ],
    build(a) {
      const E = a.dim('in_size');
      const out = a.dim('out_size');
      const shape = attentionShape(a);
      return {
        tensors: [
          ...childTensors('att', attention(E, E)),
          ...childTensors('ln1', layerNorm(E)),
          ...childTensors('fcc', fullyConnected(E, out)),
          ...childTensors('ln2', layerNorm(out)),
        ],
        summary: `${shape.headDim ? `${dimText(shape.heads)} heads × ${dimText(shape.headDim)}` : `${dimText(shape.heads)} heads`} · ${dimText(E)} → ${dimText(out)}`,
        notes: [
          ...ATTENTION_NOTES,
          'A Block is attention, LayerNorm, a FullyConnected E → 2E → out and a second LayerNorm.',
        ],
        problems: headsProblems(a),
        attention: shape,
        outFeatures: out,
      };
    },
  },
  Embedding: table('Embedding', 'vocab_size', 'V'),
  PositionalEmbedding: table('PositionalEmbedding', 'input_size', 'T'),
  LayerNorm: {
    kind: 'LayerNorm',
    framework: 'js-pytorch',
    signature: [{ name: 'n_embed', size: 'D' }],
    build(a) {
      return {
        tensors: layerNorm(a.dim('n_embed')),
        summary: `over [${dimText(a.dim('n_embed'))}]`,
        outFeatures: a.dim('n_embed'),
        inFeatures: a.dim('n_embed'),
      };
    },
  },
};

export const JSPYTORCH_LAYERS: ReadonlyMap<string, LayerSpec> = new Map(
  Object.entries(SPECS).map(([name, spec]) => [`jspytorch.torch.nn.${name}`, spec]),
);
