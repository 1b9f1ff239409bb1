/**
 * Writes test/fixtures/expected/js-catalog.json: the weights that the real @tensorflow/tfjs and js-pytorch
 * create for a matrix of single-layer configurations, or the error they throw.
 *
 * From the repo root:
 *   npm ci --prefix scripts/ground-truth && node scripts/ground-truth/js_catalog.mjs [--check]
 *
 * Versions are those pinned in scripts/ground-truth/package.json (recorded in js-layers.json). Every case is
 * the TypeScript code that runs (it binds `layer`); test/unit/jsCatalog.test.ts analyses the same code, so
 * the catalog cannot drift from what ran. "params" sums every weight the layer created, which is what
 * countParams() reports ("tfjsCount" is countParams() itself: MultiHeadAttention keeps its weights in
 * untracked sublayers, so TF.js counts 0 for it). With --check nothing is written: the run fails when the
 * committed file differs from what the libraries give now.
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, bundleAndRun, quietly, size, stableJson, tfjsOwnCount, tfjsTensors, torchTensors } from './js_layers.mjs';

const OUTPUT = 'test/fixtures/expected/js-catalog.json';

const TFJS = [
  // Input size: batchInputShape, then inputShape, then inputDim (TF.js's Layer and Dense constructors).
  'const layer = tf.layers.dense({units: 10, inputShape: [784]});',
  'const layer = tf.layers.dense({units: 10, inputShape: [784], useBias: false});',
  'const layer = tf.layers.dense({units: 64, inputDim: 13});',
  'const layer = tf.layers.dense({units: 8, batchInputShape: [null, 3]});',
  'const layer = tf.layers.dense({units: 32, inputShape: [16, 64]});',
  'const layer = tf.layers.dense({units: 16, batchInputShape: [null, 5], inputShape: [7]});',
  'const layer = tf.layers.dense({units: 4, inputShape: [6], inputDim: 9});',
  'const layer = tf.layers.dense({units: 4, batchInputShape: [null, 6], inputDim: 9});',
  'const layer = tf.layers.dense({units: 7.5, inputShape: [4]});',
  'const layer = tf.layers.dense({units: -3, inputShape: [4]});',
  'const layer = tf.layers.dense({units: 0, inputShape: [4]});',
  'const layer = tf.layers.embedding({inputDim: 1000, outputDim: 32});',
  'const layer = tf.layers.embedding({inputDim: 100, outputDim: 8, inputLength: 5});',
  'const layer = tf.layers.layerNormalization({inputShape: [64]});',
  'const layer = tf.layers.layerNormalization({inputShape: [10, 8], axis: [1, 2]});',
  'const layer = tf.layers.layerNormalization({inputShape: [64], center: false});',
  'const layer = tf.layers.batchNormalization({inputShape: [64]});',
  'const layer = tf.layers.batchNormalization({inputShape: [64], center: false, scale: false});',
  'const layer = tf.layers.batchNormalization({inputShape: [8, 8, 3], axis: 1});',
  'const layer = tf.layers.conv2d({filters: 32, kernelSize: 3, inputShape: [28, 28, 1]});',
  'const layer = tf.layers.conv2d({filters: 32, kernelSize: [3, 5], inputShape: [28, 28, 2], useBias: false});',
  "const layer = tf.layers.conv2d({filters: 32, kernelSize: 3, inputShape: [3, 28, 28], dataFormat: 'channelsFirst'});",
  'const layer = tf.layers.conv1d({filters: 16, kernelSize: 5, inputShape: [100, 8]});',
  'const layer = tf.layers.lstm({units: 32, inputShape: [10, 8]});',
  'const layer = tf.layers.lstm({units: 32, inputShape: [10, 8], useBias: false});',
  'const layer = tf.layers.gru({units: 32, inputShape: [10, 8]});',
  'const layer = tf.layers.simpleRNN({units: 32, inputShape: [10, 8]});',
  'const layer = tf.layers.bidirectional({layer: tf.layers.lstm({units: 16}) as tf.RNN, inputShape: [10, 8]});',
  "const layer = tf.layers.bidirectional({layer: tf.layers.gru({units: 16}) as tf.RNN, inputShape: [10, 8], mergeMode: 'sum'});",
  'const layer = tf.layers.timeDistributed({layer: tf.layers.dense({units: 4}), inputShape: [10, 8]});',
  // Keras-style attention builds on its first call(); shapes include the batch axis, key defaults to value.
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 512])});',
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64, valueDim: 32}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 512])});',
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64, outputShape: [256]}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 512])});',
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64, outputShape: 256}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 512])});',
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64, useBias: false}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 512])});',
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 128]), key: tf.zeros([1, 3, 256])});',
  'const layer = new MultiHeadAttention({numHeads: 8, keyDim: 64, valueDim: 16, outputShape: [128]}); layer.call(tf.zeros([1, 2, 512]), {value: tf.zeros([1, 3, 128]), key: tf.zeros([1, 3, 256])});',
  'const layer = new MultiHeadAttention({numHeads: 4, keyDim: 32, valueDim: 48, outputShape: [16, 8], useBias: false}); layer.call(tf.zeros([1, 2, 64]), {value: tf.zeros([1, 3, 32]), key: tf.zeros([1, 3, 48])});',
  'const layer = new MultiHeadAttention({numHeads: 12, keyDim: 64}); layer.call(tf.zeros([1, 4, 80]), {value: tf.zeros([1, 2, 80])});',
];

const TORCH = [
  'const layer = new nn.Linear(784, 10);',
  "const layer = new nn.Linear(784, 10, 'cpu', false);",
  "const layer = new nn.Linear(512, 256, 'cpu', true, false);",
  'const layer = new nn.Linear(-4, 8);',
  'const layer = new nn.Linear(4.5, 8);',
  'const layer = new nn.MultiHeadSelfAttention(64, 64, 4, 16);',
  'const layer = new nn.MultiHeadSelfAttention(48, 96, 6, 24);',
  'const layer = new nn.MultiHeadSelfAttention(128, 64, 8, 32, 0.1);',
  "const layer = new nn.MultiHeadSelfAttention(512, 512, 8, 4, 0, 'cpu');",
  'const layer = new nn.MultiHeadSelfAttention(50, 50, 8, 4);',
  'const layer = new nn.Embedding(1000, 32);',
  'const layer = new nn.PositionalEmbedding(16, 32);',
  'const layer = new nn.LayerNorm(64);',
  'const layer = new nn.FullyConnected(64, 32);',
  "const layer = new nn.FullyConnected(64, 32, 0, 'cpu', false);",
  'const layer = new nn.Block(64, 64, 4, 16);',
];

/** The code as the catalog test analyses it: the cases above, after these imports. */
const PRELUDE = `import * as tf from '@tensorflow/tfjs';
import { MultiHeadAttention } from '@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention';
import { torch } from 'js-pytorch';
const nn = torch.nn;
`;

const ENTRY = `
  import * as tf from '@tensorflow/tfjs';
  tf.setBackend('cpu');
  export { tf };
  export { MultiHeadAttention } from '@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention';
  export { torch } from 'js-pytorch';
`;

const sum = (tensors) => tensors.reduce((n, [, shape]) => n + size(shape), 0);

/** The JavaScript of a case: TypeScript's `as` casts are the only TypeScript the cases use. */
const javascript = (code) => code.replace(/ as tf\.\w+/g, '');

/** The layer's kind as the analysis names it: the factory or class the case calls first. */
const kindOf = (code) => code.match(/(?:layers\.|new (?:nn\.)?)(\w+)\(/)[1];

function runCase(libs, code, library) {
  const { tf, MultiHeadAttention, torch } = libs;
  let layer;
  try {
    layer = new Function('tf', 'nn', 'MultiHeadAttention', `${javascript(code)}\nreturn layer;`)(tf, torch.nn, MultiHeadAttention);
    if (library === 'tfjs' && !layer.built && layer.getClassName() !== 'MultiHeadAttention') tf.sequential({ layers: [layer] });
  } catch (e) {
    return { code, kind: kindOf(code), error: { type: e.constructor.name, message: e.message } };
  }
  if (library === 'torch') {
    const tensors = torchTensors(layer);
    return { code, kind: kindOf(code), params: sum(tensors), tensors };
  }
  const tensors = tfjsTensors(layer);
  return { code, kind: kindOf(code), params: sum(tensors), tfjsCount: tfjsOwnCount(layer), tensors };
}

function buildCatalog(libs) {
  const cases = [...TFJS.map((code) => runCase(libs, code, 'tfjs')), ...TORCH.map((code) => runCase(libs, code, 'torch'))];
  return { generatedBy: 'scripts/ground-truth/js_catalog.mjs', prelude: PRELUDE, cases };
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
  const text = stableJson(catalog);
  if (process.argv.includes('--check')) {
    if ((await readFile(join(ROOT, OUTPUT), 'utf8')) !== text) throw new Error(`${OUTPUT} differs from what the libraries give now: run node scripts/ground-truth/js_catalog.mjs and review the change`);
    console.log(`${OUTPUT} matches: ${catalog.cases.length} configurations`);
    return;
  }
  await writeFile(join(ROOT, OUTPUT), text);
  console.log(`wrote ${OUTPUT}: ${catalog.cases.length} configurations`);
}

await main();
