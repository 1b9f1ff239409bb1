/**
 * Attention written by hand with TensorFlow.js, as TF.js runs it: for each tf.layers.Layer subclass the
 * fixture applies, the heads of the scores its call() takes a softmax of (batch, heads, queries, keys), the
 * units of the dense layers kept in its fields and the weights each creates (countParams() once applied),
 * and the subclass's own countParams(), which leaves those layers out.
 *
 * Usage (from the repo root): npm ci --prefix scripts/ground-truth && node scripts/ground-truth/js_attention.mjs [--check]
 * With --check nothing is written: the run fails when the committed file differs from what TF.js gives now.
 * Writes test/fixtures/expected/js-attention.json:
 *   {"files": {path: {className: {"heads", "queries", "keys", "projections": {field: units},
 *                                 "weights": {field: countParams}, "inputs": {field: input features}, "countParams"}}}}
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, bundleAndRun, stableJson, versions } from './js_layers.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = ['test/fixtures/models/tfjs/handwritten_attention.ts'];
const OUTPUT = 'test/fixtures/expected/js-attention.json';

// The fixture's softmax calls, function or method, with the layer whose apply() is running.
const SHIM = `
  import * as real from '@tensorflow/tfjs';
  export * from '@tensorflow/tfjs';
  real.setBackend('cpu');
  const running = [];
  const apply = real.layers.Layer.prototype.apply;
  real.layers.Layer.prototype.apply = function (...args) {
    running.push(this);
    try { return apply.apply(this, args); } finally { running.pop(); }
  };
  const record = (x) => {
    const owner = running[running.length - 1];
    if (owner && x.rank === 4) globalThis.groundTruth.scores.push({ owner, shape: x.shape });
  };
  const method = real.Tensor.prototype.softmax;
  real.Tensor.prototype.softmax = function (...args) { record(this); return method.apply(this, args); };
  export const softmax = (x, ...args) => { record(x); return real.softmax(x, ...args); };`;

const shimPlugin = {
  name: 'attention-shim',
  setup(b) {
    b.onResolve({ filter: /^@tensorflow\/tfjs$/ }, (args) => (args.namespace === 'shim' ? undefined : { path: args.path, namespace: 'shim' }));
    b.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({ contents: SHIM, resolveDir: HERE, loader: 'js' }));
  },
};

async function main() {
  globalThis.groundTruth = { scores: [] };
  const { modules } = await bundleAndRun(FIXTURES.map((f) => join(ROOT, f)), { plugins: [shimPlugin] });
  const files = {};
  FIXTURES.forEach((file, i) => {
    const classes = {};
    for (const { owner, shape } of globalThis.groundTruth.scores) {
      const name = owner.constructor.name;
      // Each class once, as its first apply() saw it; only the fixture's own exported classes.
      if (classes[name] || modules[i][name] !== owner.constructor) continue;
      const dense = Object.entries(owner).filter(([, v]) => v?.getClassName?.() === 'Dense');
      classes[name] = {
        heads: shape[1],
        queries: shape[2],
        keys: shape[3],
        projections: Object.fromEntries(dense.map(([field, layer]) => [field, layer.units])),
        weights: Object.fromEntries(dense.map(([field, layer]) => [field, layer.countParams()])),
        inputs: Object.fromEntries(dense.map(([field, layer]) => [field, layer.kernel.shape[0]])),
        countParams: owner.countParams(),
      };
    }
    files[file] = classes;
  });
  const out = { generatedBy: 'scripts/ground-truth/js_attention.mjs', versions: await versions(), files };
  if (process.argv.includes('--check')) {
    if ((await readFile(join(ROOT, OUTPUT), 'utf8')) !== stableJson(out)) throw new Error(`${OUTPUT} differs from what TF.js gives now: run node scripts/ground-truth/js_attention.mjs and review the change`);
    console.log(`${OUTPUT} matches`);
    return;
  }
  await writeFile(join(ROOT, OUTPUT), stableJson(out));
  for (const [file, classes] of Object.entries(files)) for (const [name, c] of Object.entries(classes)) console.log(`${relative(ROOT, join(ROOT, file))}: ${name} ${c.heads} heads, weights ${JSON.stringify(c.weights)}, countParams() ${c.countParams}`);
}

await main();
