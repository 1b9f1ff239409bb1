/** The command line: JSON shape, exit codes, folders. */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'out/src/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

suite('attention-lens CLI', () => {
  test('--json over a folder: the documented shape, exit 1 for the error fixture', () => {
    const r = run('--json', 'test/fixtures/models/pytorch');
    assert.strictEqual(r.status, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { files: { path: string; language: string; layers: Record<string, unknown>[]; modules: unknown[]; diagnostics: Record<string, unknown>[] }[] };
    const gpt = out.files.find((f) => f.path === 'test/fixtures/models/pytorch/gpt.py');
    assert.ok(gpt);
    assert.strictEqual(gpt.language, 'python');
    assert.deepStrictEqual(Object.keys(gpt.layers[0]), ['line', 'column', 'kind', 'framework', 'params', 'formula']);
    assert.deepStrictEqual(gpt.modules.find((m) => (m as { name: string }).name === 'GPT'), { name: 'GPT', line: 107, params: null });
    const errors = out.files.find((f) => f.path.endsWith('shape_errors.py'));
    assert.deepStrictEqual(Object.keys(errors!.diagnostics[0]), ['line', 'column', 'severity', 'code', 'message']);
    assert.deepStrictEqual(errors!.diagnostics[0], { ...errors!.diagnostics[0], line: 16, column: 13, severity: 'error', code: 'heads-divisibility' });
  });

  test('clean files exit 0 and print a table', () => {
    const r = run('test/fixtures/models/pytorch/gpt.py');
    assert.strictEqual(r.status, 0, r.stderr);
    assert.match(r.stdout, /36:23 +Linear +1,771,776 +768 → 2,304/);
  });

  test('an unreadable path exits 2 and the other paths are still analysed', () => {
    const r = run('--json', 'no/such/file.py', 'test/fixtures/models/pytorch/gpt.py');
    assert.strictEqual(r.status, 2);
    assert.match(r.stderr, /cannot read no\/such\/file.py/);
    assert.strictEqual((JSON.parse(r.stdout) as { files: unknown[] }).files.length, 1);
  });

  test('no path is a usage error', () => {
    assert.strictEqual(run().status, 2);
  });
});
