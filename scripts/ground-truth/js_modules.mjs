/**
 * Model totals of the js-pytorch fixtures, from js-pytorch itself: every exported nn.Module class built
 * with its default arguments (a constructor whose first parameter has no default "needs arguments"), and
 * every exported model instance, counted with Module.parameters().
 *
 * Usage (from the repo root): npm ci --prefix scripts/ground-truth && node scripts/ground-truth/js_modules.mjs [--check]
 * With --check nothing is written: the run fails when the committed file differs from what js-pytorch gives now.
 * Writes test/fixtures/expected/js-modules.json: {"files": {path: [{"name", "kind": "class" | "instance", "params"}]}}
 */
import { readdir, readFile, writeFile } from 'fs/promises';
import { dirname, join, relative } from 'path';
import { fileURLToPath } from 'url';
import { ROOT, bundleAndRun, size, stableJson } from './js_layers.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIR = join(ROOT, 'test/fixtures/models/jspytorch');
const OUT = join(ROOT, 'test/fixtures/expected/js-modules.json');

const count = (module) => module.parameters().reduce((total, p) => total + size(p.shape), 0);

const files = (await readdir(DIR)).filter((f) => f.endsWith('.ts')).sort().map((f) => join(DIR, f));
const { modules } = await bundleAndRun([...files, join(HERE, 'js_library.mjs')]);
const library = new Set(Object.values(modules.pop().torch.nn));
const result = { generatedBy: 'scripts/ground-truth/js_modules.mjs', files: {} };
files.forEach((file, i) => {
  const records = [];
  for (const [name, value] of Object.entries(modules[i]).sort(([a], [b]) => a.localeCompare(b))) {
    // The bundle carries its own copy of js-pytorch, so modules are recognised by what they do.
    // js-pytorch's own classes passed on, and a class exported under a second name, are no classes of the file.
    if (library.has(value) || (typeof value === 'function' && value.name !== name)) continue;
    if (typeof value === 'function' && typeof value.prototype?.parameters === 'function') {
      records.push({ name, kind: 'class', params: value.length > 0 ? null : count(new value()) });
    } else if (typeof value?.parameters === 'function') {
      records.push({ name, kind: 'instance', className: value.constructor.name, params: count(value) });
    }
  }
  result.files[relative(ROOT, file)] = records;
});
if (process.argv.includes('--check')) {
  if ((await readFile(OUT, 'utf8')) !== `${stableJson(result)}\n`) throw new Error(`${relative(ROOT, OUT)} differs from what js-pytorch gives now: run node scripts/ground-truth/js_modules.mjs and review the change`);
  console.log(`${relative(ROOT, OUT)} matches`);
  process.exit(0);
}
await writeFile(OUT, `${stableJson(result)}\n`);
for (const [file, records] of Object.entries(result.files)) for (const r of records) console.log(`${file}: ${r.kind} ${r.name} ${r.params ?? 'needs arguments'}`);
