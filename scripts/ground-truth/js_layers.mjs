/**
 * Writes test/fixtures/expected/js-layers.json: for every layer constructor call made directly
 * from a fixture in test/fixtures/models/{tfjs,jspytorch}/*.ts, the weights that the real
 * @tensorflow/tfjs / js-pytorch create for it once the fixture has run (a TF.js layer that is never
 * built, such as the one a bidirectional wrapper copies, has "params": null), for every
 * tf.sequential / tf.model call, the model's countParams() ("models"); a call that ran several times with
 * different sizes (a helper called with two inputs) has "params": null and each size in "sizes"; and for every exported instance of a
 * fixture's own tf.layers.Layer subclass, its countParams() ("instances"), with the weights of the layers it
 * keeps in fields and does not track ("untracked").
 *
 * From the repo root:
 *   npm ci --prefix scripts/ground-truth && node scripts/ground-truth/js_layers.mjs [--check]
 *
 * With --check nothing is written: the run fails when the committed file differs from what runs now.
 *
 * The fixtures are bundled by esbuild together with the real libraries (one shared copy of each)
 * and run in this process. Imports of the libraries from fixture code are redirected
 * to thin shims that wrap the layer factories/classes, so every call records its stack; the
 * stack is mapped back to the .ts source through esbuild's source maps.
 */
import { build } from 'esbuild';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
const FIXTURE_DIRS = ['test/fixtures/models/tfjs', 'test/fixtures/models/jspytorch'];
const OUTPUT = 'test/fixtures/expected/js-layers.json';
const MHA_MODULE = '@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention';

// Only layers that own trainable weights are recorded; the kind is the callee's own name.
const TFJS_FACTORIES = ['dense', 'embedding', 'layerNormalization', 'batchNormalization', 'conv1d', 'conv2d', 'lstm', 'gru', 'simpleRNN', 'bidirectional', 'timeDistributed'];
const TFJS_MODELS = ['sequential', 'model'];
const TORCH_CLASSES = ['Linear', 'MultiHeadSelfAttention', 'Embedding', 'PositionalEmbedding', 'LayerNorm', 'FullyConnected', 'Block'];

// MultiHeadAttention ships only as ESM under dist/ and shares classes with the rest of tfjs-layers,
// so everything is resolved through the "module" entry points to keep a single copy of each package.
// The banner gives the ESM bundle the `require` that tfjs' Node platform code calls.
const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  mainFields: ['module', 'main'],
  nodePaths: [join(HERE, 'node_modules')],
  banner: { js: "import { createRequire as groundTruthRequire } from 'module'; const require = groundTruthRequire(import.meta.url);" },
  logLevel: 'error',
  write: false,
};

const SHIMS = {
  '@tensorflow/tfjs': `
    import * as real from '@tensorflow/tfjs';
    export * from '@tensorflow/tfjs';
    real.setBackend('cpu'); // webgl registers too and would be tried first, failing noisily in Node
    export const layers = { ...real.layers };
    for (const kind of ${JSON.stringify(TFJS_FACTORIES)}) layers[kind] = globalThis.groundTruth.wrap(real.layers[kind], kind, 'tfjs');
    ${TFJS_MODELS.map((kind) => `export const ${kind} = globalThis.groundTruth.wrap(real.${kind}, '${kind}', 'tfjs-model');`).join('\n    ')}`,
  [MHA_MODULE]: `
    import { MultiHeadAttention as Real } from '${MHA_MODULE}';
    export * from '${MHA_MODULE}';
    export const MultiHeadAttention = globalThis.groundTruth.wrap(Real, 'MultiHeadAttention', 'tfjs');`,
  'js-pytorch': `
    import { torch as real } from 'js-pytorch';
    export const torch = { ...real, nn: { ...real.nn } };
    for (const kind of ${JSON.stringify(TORCH_CLASSES)}) torch.nn[kind] = globalThis.groundTruth.wrap(real.nn[kind], kind, 'torch');`,
};

const shimPlugin = {
  name: 'ground-truth-shims',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(SHIMS).map((s) => s.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => (args.namespace === 'shim' ? undefined : { path: args.path, namespace: 'shim' }));
    b.onLoad({ filter: /.*/, namespace: 'shim' }, (args) => ({ contents: SHIMS[args.path], resolveDir: HERE, loader: 'js' }));
  },
};

/** Bundles the entry points into a temporary directory, imports them in order, returns the source maps by output file. */
export async function bundleAndRun(entryPoints, { plugins = [], onImport = () => {} } = {}) {
  const outdir = await mkdtemp(join(tmpdir(), 'ground-truth-'));
  try {
    const result = await build({ ...BUNDLE_OPTIONS, entryPoints, outdir, outExtension: { '.js': '.mjs' }, splitting: true, sourcemap: 'external', sourcesContent: false, metafile: true, plugins });
    const outputOf = new Map(Object.entries(result.metafile.outputs).filter(([, o]) => o.entryPoint).map(([out, o]) => [resolve(o.entryPoint), resolve(out)]));
    const maps = new Map();
    for (const file of result.outputFiles) {
      await mkdir(dirname(file.path), { recursive: true });
      await writeFile(file.path, file.contents);
      if (file.path.endsWith('.map')) maps.set(file.path.slice(0, -4), { dir: dirname(file.path), map: new SourceMap(JSON.parse(file.text)) });
    }
    const modules = [];
    for (const entry of entryPoints) {
      onImport(entry);
      modules.push(await quietly(() => import(pathToFileURL(outputOf.get(resolve(entry))).href)));
    }
    return { modules, maps };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

// tfjs greets Node users on stdout and warns about missing native backends; keep the run's output to our own lines.
export async function quietly(fn) {
  const saved = { log: console.log, warn: console.warn, info: console.info };
  Object.assign(console, { log() {}, warn() {}, info() {} });
  try {
    return await fn();
  } finally {
    Object.assign(console, saved);
  }
}

function rawFrames() {
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, frames) => frames;
  const holder = {};
  Error.captureStackTrace(holder, rawFrames);
  const frames = holder.stack.map((f) => ({ file: f.getFileName(), line: f.getLineNumber(), column: f.getColumnNumber() }));
  Error.prepareStackTrace = saved;
  return frames;
}

/** The innermost frame that lies in a fixture, as 1-based line/column of the .ts source. */
function fixtureSite(frames, maps, sources) {
  for (const frame of frames) {
    const entry = maps.get(frame.file?.startsWith('file:') ? fileURLToPath(frame.file) : frame.file);
    if (!entry || frame.line == null) continue;
    const hit = entry.map.findEntry(frame.line - 1, frame.column - 1);
    const source = hit.originalSource && resolve(entry.dir, hit.originalSource);
    if (sources.has(source)) return { source, line: hit.originalLine + 1, column: hit.originalColumn + 1 };
  }
  return null;
}

/**
 * V8 places `new X(...)` at `new` but `a.b.dense(...)` at `dense`; walk back over the member chain
 * to the start of the call expression, then insist that the text there really is the call.
 */
function callStart(text, line, column, kind) {
  const src = text.split('\n')[line - 1];
  let i = column - 1;
  if (!src.startsWith('new', i)) while (i > 0 && /[\w$.]/.test(src[i - 1])) i--;
  const pattern = new RegExp(`^(new\\s+)?([A-Za-z_$][\\w$]*\\s*\\.\\s*)*${kind}\\s*\\(`);
  if (!pattern.test(src.slice(i))) throw new Error(`line ${line}:${column} is not a ${kind}(...) call: ${src.trim()}`);
  return i + 1;
}

/**
 * [name, shape] of every weight a tfjs layer created, non-trainable ones included (countParams() counts
 * them: BatchNormalization's moving statistics). MultiHeadAttention keeps its weights in sublayers it does
 * not track; Bidirectional in its forward and backward copies of the wrapped layer.
 */
export function tfjsTensors(layer) {
  const kind = layer.getClassName();
  const parts = kind === 'MultiHeadAttention' ? [layer._queryDense, layer._keyDense, layer._valueDense, layer._outputDense].map((p) => [p, `${p?.name}/`])
    : kind === 'Bidirectional' ? [[layer.forwardLayer, 'forward/'], [layer.backwardLayer, 'backward/']]
    : [[layer, '']];
  // Bidirectional builds its copies' weights without marking the copies built.
  if ((!layer.built && kind !== 'MultiHeadAttention') || parts.some(([p]) => !p || (!p.built && kind !== 'Bidirectional'))) throw new Error(`${layer.name} never built its weights`);
  // originalName carries a scope from a global layer counter ("dense_Dense3/kernel"); keep only what the layer chose.
  return parts.flatMap(([p, prefix]) => p.weights.map((w) => [prefix + w.originalName.split('/').pop(), w.shape]));
}

/** What tfjs itself counts for the layer: its own weights, i.e. countParams() once built. */
export function tfjsOwnCount(layer) {
  return layer.weights.reduce((n, w) => n + size(w.shape), 0);
}

/** [dotted.name, shape] of every tensor js-pytorch's Module.parameters() returns, in its order. */
export function torchTensors(module, prefix = '') {
  const found = module.entries().flatMap(([key, value]) => {
    if (typeof value?.parameters === 'function') return torchTensors(value, `${prefix}${key}.`);
    return Array.isArray(value?.shape) && value.requires_grad ? [[prefix + key, value.shape]] : [];
  });
  const expected = module.parameters().map((p) => p.shape);
  if (prefix === '' && JSON.stringify(found.map(([, s]) => s)) !== JSON.stringify(expected)) throw new Error('walk disagrees with parameters()');
  return found;
}

export const size = (shape) => shape.reduce((a, b) => a * b, 1);

export async function versions() {
  const version = async (pkg) => JSON.parse(await readFile(join(HERE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  return { '@tensorflow/tfjs': await version('@tensorflow/tfjs'), 'js-pytorch': await version('js-pytorch'), esbuild: await version('esbuild') };
}

/** Indented JSON in which every object or array made only of scalars and such arrays stays on one line. */
export function stableJson(value, indent = '') {
  const scalars = (v) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every(scalars));
  if (scalars(value) || (!Array.isArray(value) && Object.values(value).every(scalars))) return JSON.stringify(value) + (indent ? '' : '\n');
  const inner = `${indent}  `;
  const items = Array.isArray(value) ? value.map((v) => inner + stableJson(v, inner)) : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stableJson(v, inner)}`);
  const [open, close] = Array.isArray(value) ? '[]' : '{}';
  return `${open}\n${items.join(',\n')}\n${indent}${close}${indent ? '' : '\n'}`;
}

/**
 * The exported instances of each fixture's own tf.layers.Layer subclasses (classes the fixture exports too),
 * with what countParams() reports once the fixture has run: null where it throws (the layer was never built).
 */
function layerInstances(fixtures, modules) {
  const out = {};
  fixtures.forEach((file, i) => {
    const exported = modules[i];
    const records = Object.entries(exported)
      .filter(([, v]) => typeof v?.countParams === 'function' && typeof v.getClassName === 'function' && exported[v.constructor.name] === v.constructor)
      .map(([name, v]) => ({ name, className: v.constructor.name, params: v.built ? v.countParams() : null, ...untrackedWeights(v) }));
    if (records.length) out[relative(ROOT, file)] = records.sort((a, b) => a.name.localeCompare(b.name));
  });
  return out;
}

const isLayer = (v) => typeof v?.countParams === 'function' && typeof v.getClassName === 'function';

/**
 * The weights of the layers a custom layer keeps in its fields ("untracked"), which countParams() leaves
 * out: null while one of them is not built. Absent when no field holds a layer.
 */
function untrackedWeights(layer) {
  const held = Object.values(layer).flatMap((f) => (Array.isArray(f) ? f.filter(isLayer) : isLayer(f) ? [f] : []));
  if (!held.length) return {};
  return { untracked: held.every((l) => l.built) ? held.reduce((n, l) => n + tfjsOwnCount(l), 0) : null };
}

async function main() {
  process.setSourceMapsEnabled(true);
  const fixtures = [];
  for (const dir of FIXTURE_DIRS) {
    for (const name of (await readdir(join(ROOT, dir))).filter((n) => n.endsWith('.ts')).sort()) fixtures.push(join(ROOT, dir, name));
  }
  const calls = [];
  globalThis.groundTruth = {
    wrap(target, kind, library) {
      const record = (object) => (calls.push({ kind, library, object, frames: rawFrames() }), object);
      // Classes (capitalised kinds) are instantiated with `new`; tf.layers.* are plain factories.
      return /^[A-Z]/.test(kind)
        ? new Proxy(target, { construct: (t, args, newTarget) => record(Reflect.construct(t, args, newTarget)) })
        : (...args) => record(target(...args));
    },
  };
  const { maps, modules } = await bundleAndRun(fixtures, { plugins: [shimPlugin], onImport: (f) => console.log(`running ${relative(ROOT, f)}`) });

  const texts = new Map(await Promise.all(fixtures.map(async (f) => [f, await readFile(f, 'utf8')])));
  const files = Object.fromEntries(fixtures.map((f) => [relative(ROOT, f), []]));
  const seen = new Map();
  const models = Object.fromEntries(fixtures.map((f) => [relative(ROOT, f), []]));
  // A site may run several times (a class instantiated twice, a helper called with two inputs): it keeps
  // one entry, and where the runs built different sizes, each distinct size in "sizes" and no "params".
  const record = (list, key, entry) => {
    const first = seen.get(key);
    if (!first) return seen.set(key, entry), list.push(entry);
    if (JSON.stringify(first) === JSON.stringify(entry)) return;
    if (first.kind !== entry.kind || (first.params === null && !first.sizes) || entry.params === null) throw new Error(`${key} built different kinds, or left one unbuilt`);
    const sizes = [...new Set([...(first.sizes ?? [first.params]), entry.params])].sort((a, b) => a - b);
    if (sizes.length === 1) throw new Error(`${key} built different tensors of one size`);
    for (const k of Object.keys(first)) if (!['line', 'column', 'kind'].includes(k)) delete first[k];
    Object.assign(first, { params: null, sizes });
  };
  for (const call of calls) {
    const site = fixtureSite(call.frames, maps, texts);
    if (!site) continue; // made by library code, e.g. the Linear layers inside nn.Block
    const column = callStart(texts.get(site.source), site.line, site.column, call.kind);
    const key = `${site.source}:${site.line}:${column}`;
    if (call.library === 'tfjs-model') {
      // Read once the fixture has run: model.add() may have extended it after the call.
      const entry = { line: site.line, column, kind: call.kind === 'sequential' ? 'Sequential' : 'LayersModel', params: call.object.countParams() };
      record(models[relative(ROOT, site.source)], key, entry);
      continue;
    }
    const unbuilt = call.library === 'tfjs' && !call.object.built && call.kind !== 'MultiHeadAttention';
    const tensors = unbuilt ? null : call.library === 'tfjs' ? tfjsTensors(call.object) : torchTensors(call.object);
    const entry = { line: site.line, column, kind: call.kind, params: tensors && tensors.reduce((n, [, s]) => n + size(s), 0), tensors };
    if (unbuilt) entry.note = 'never built: the library builds copies of it, or nothing applies it';
    if (tensors && call.library === 'tfjs' && call.kind !== 'MultiHeadAttention' && call.object.countParams() !== entry.params) throw new Error(`countParams() disagrees at ${site.line}`);
    record(files[relative(ROOT, site.source)], key, entry);
  }
  const empty = Object.keys(files).filter((f) => files[f].length === 0);
  if (empty.length) throw new Error(`no layer calls recorded in ${empty.join(', ')}`);
  for (const list of [...Object.values(files), ...Object.values(models)]) list.sort((a, b) => a.line - b.line || a.column - b.column);

  const out = { generatedBy: 'scripts/ground-truth/js_layers.mjs', versions: await versions(), files, models, instances: layerInstances(fixtures, modules) };
  if (process.argv.includes('--check')) {
    if ((await readFile(join(ROOT, OUTPUT), 'utf8')) !== stableJson(out)) throw new Error(`${OUTPUT} differs from what the fixtures build now: run node scripts/ground-truth/js_layers.mjs and review the change`);
    console.log(`${OUTPUT} matches`);
    return;
  }
  await writeFile(join(ROOT, OUTPUT), stableJson(out));
  const total = Object.values(files).reduce((n, l) => n + l.length, 0);
  console.log(`wrote ${OUTPUT}: ${total} layer calls in ${fixtures.length} fixtures`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
