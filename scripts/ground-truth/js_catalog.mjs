/**
 * Writes test/fixtures/expected/js-catalog.json: the trainable tensors that the real
 * @tensorflow/tfjs and js-pytorch create for a matrix of single-layer configurations.
 *
 * From the repo root:
 *   npm ci --prefix scripts/ground-truth && node scripts/ground-truth/js_catalog.mjs
 *
 * Versions are those pinned in scripts/ground-truth/package.json (recorded in js-layers.json).
 * Every "call" string is the code that is evaluated (for MultiHeadAttention: the constructor
 * arguments, then call() on zero tensors of the listed shapes), so the catalog cannot drift from what ran.
 * "tfjsCount" is the sum over layer.weights, i.e. what countParams() and model.summary() report:
 * MultiHeadAttention keeps its weights in untracked sublayers, so tfjs itself counts 0 for it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, bundleAndRun, quietly, size, stableJson, tfjsOwnCount, tfjsTensors, torchTensors } from './js_layers.mjs';

const OUTPUT = 'test/fixtures/expected/js-catalog.json';

const DENSE = [
  'tf.layers.dense({units: 10, inputShape: [784]})',
  'tf.layers.dense({units: 10, inputShape: [784], useBias: false})',
  'tf.layers.dense({units: 64, inputDim: 13})',
  'tf.layers.dense({units: 8, batchInputShape: [null, 3]})',
  'tf.layers.dense({units: 32, inputShape: [16, 64]})',
  // Precedence when several input sizes are given: batchInputShape, then inputShape, then inputDim.
  'tf.layers.dense({units: 16, batchInputShape: [null, 5], inputShape: [7]})',
  'tf.layers.dense({units: 4, inputShape: [6], inputDim: 9})',
];

// Shapes include the batch axis; key defaults to value inside the layer.
const MHA = [
  { args: '{numHeads: 8, keyDim: 64}', query: [1, 2, 512], value: [1, 3, 512] },
  { args: '{numHeads: 8, keyDim: 64, valueDim: 32}', query: [1, 2, 512], value: [1, 3, 512] },
  { args: '{numHeads: 8, keyDim: 64, outputShape: [256]}', query: [1, 2, 512], value: [1, 3, 512] },
  { args: '{numHeads: 8, keyDim: 64, outputShape: 256}', query: [1, 2, 512], value: [1, 3, 512] },
  { args: '{numHeads: 8, keyDim: 64, useBias: false}', query: [1, 2, 512], value: [1, 3, 512] },
  { args: '{numHeads: 8, keyDim: 64}', query: [1, 2, 512], value: [1, 3, 128], key: [1, 3, 256] },
  { args: '{numHeads: 8, keyDim: 64, valueDim: 16, outputShape: [128]}', query: [1, 2, 512], value: [1, 3, 128], key: [1, 3, 256] },
  { args: '{numHeads: 4, keyDim: 32, valueDim: 48, outputShape: [16, 8], useBias: false}', query: [1, 2, 64], value: [1, 3, 32], key: [1, 3, 48] },
  { args: '{numHeads: 12, keyDim: 64}', query: [1, 4, 80], value: [1, 2, 80] },
  { args: '{numHeads: 2, keyDim: 2, attentionAxes: [2]}', query: [1, 3, 4, 8], value: [1, 3, 2, 8] },
];

const TORCH = [
  'new nn.Linear(784, 10)',
  "new nn.Linear(784, 10, 'cpu', false)",
  "new nn.Linear(512, 256, 'cpu', true, false)",
  'new nn.MultiHeadSelfAttention(64, 64, 4, 16)',
  'new nn.MultiHeadSelfAttention(48, 96, 6, 24)',
  'new nn.MultiHeadSelfAttention(128, 64, 8, 32, 0.1)',
  "new nn.MultiHeadSelfAttention(512, 512, 8, 4, 0, 'cpu')",
  'new nn.Embedding(1000, 32)',
  'new nn.PositionalEmbedding(16, 32)',
  'new nn.LayerNorm(64)',
  'new nn.FullyConnected(64, 32)',
  "new nn.FullyConnected(64, 32, 0, 'cpu', false)",
  'new nn.Block(64, 64, 4, 16)',
];

const ENTRY = `
  import * as tf from '@tensorflow/tfjs';
  tf.setBackend('cpu');
  export { tf };
  export { MultiHeadAttention } from '@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention';
  export { torch } from 'js-pytorch';
`;

const sum = (tensors) => tensors.reduce((n, [, shape]) => n + size(shape), 0);

function buildCatalog({ tf, MultiHeadAttention, torch }) {
  const nn = torch.nn;
  const run = (code) => new Function('tf', 'nn', 'MultiHeadAttention', `return ${code};`)(tf, nn, MultiHeadAttention);
  const catalog = [];
  for (const call of DENSE) {
    const layer = run(call);
    tf.sequential({ layers: [layer] });
    const tensors = tfjsTensors(layer);
    catalog.push({ call, kind: 'dense', params: sum(tensors), tfjsCount: tfjsOwnCount(layer), tensors });
  }
  for (const { args, query, value, key } of MHA) {
    const layer = run(`new MultiHeadAttention(${args})`);
    layer.call(tf.zeros(query), { value: tf.zeros(value), key: key && tf.zeros(key) });
    const tensors = tfjsTensors(layer);
    const call = `MultiHeadAttention(${args}) on query ${JSON.stringify(query)}, value ${JSON.stringify(value)}${key ? `, key ${JSON.stringify(key)}` : ''}`;
    const [q, v, k] = [query, value, key ?? value].map((s) => s.at(-1));
    catalog.push({ call, query: q, value: v, key: k, kind: 'MultiHeadAttention', params: sum(tensors), tfjsCount: tfjsOwnCount(layer), tensors });
  }
  // The documented functional usage: apply() on SymbolicTensors only infers the output shape and creates nothing.
  const symbolic = run('new MultiHeadAttention({numHeads: 8, keyDim: 64})');
  symbolic.apply(tf.input({ shape: [10, 512] }), { value: tf.input({ shape: [12, 512] }) });
  catalog.push({
    call: 'MultiHeadAttention({numHeads: 8, keyDim: 64}).apply(tf.input({shape: [10, 512]}), {value: tf.input({shape: [12, 512]})})',
    query: 512, value: 512, key: 512, kind: 'MultiHeadAttention', params: 0, tfjsCount: symbolic.countParams(), tensors: [],
    note: 'apply() on SymbolicTensors builds no sublayers, so no weights exist; call() on tensors creates them',
  });
  if (symbolic._queryDense) throw new Error('symbolic apply built MultiHeadAttention sublayers; update the catalog note');
  for (const call of TORCH) {
    const tensors = torchTensors(run(call));
    catalog.push({ call, kind: call.match(/nn\.(\w+)/)[1], params: sum(tensors), tensors });
  }
  return catalog;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'ground-truth-catalog-'));
  let libs;
  try {
    await writeFile(join(dir, 'entry.mjs'), ENTRY);
    [libs] = (await bundleAndRun([join(dir, 'entry.mjs')])).modules;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const catalog = await quietly(() => buildCatalog(libs));
  await writeFile(join(ROOT, OUTPUT), stableJson(catalog));
  console.log(`wrote ${OUTPUT}: ${catalog.length} configurations`);
}

await main();
