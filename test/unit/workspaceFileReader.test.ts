/** Imports are read only from regular files inside the workspace, up to a size cap; nothing can hang the host. */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { readRegularFile, WorkspaceFileReader } from '../../src/service/workspaceFileReader';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';
import { analyzeText, loadGrammars } from './helpers';

suite('reading imported files', () => {
  let dir: string;
  let ws: string;
  let reader: WorkspaceFileReader;

  setup(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'attention-lens-reader-'));
    ws = path.join(dir, 'ws');
    mkdirSync(path.join(ws, 'pkg'), { recursive: true });
    writeFileSync(path.join(ws, 'blocks.py'), 'import torch.nn as nn\nD = 64\n');
    writeFileSync(path.join(dir, 'outside.py'), 'D = 1\n');
    reader = new WorkspaceFileReader(() => [ws], 1000);
  });
  teardown(() => rmSync(dir, { recursive: true, force: true }));

  test('a file /proc says is empty is read up to the cap, counted as read: pagemap never ends', () => {
    assert.strictEqual(readRegularFile('/proc/self/pagemap', 99_999), 'too large');
    const status = readRegularFile('/proc/self/status', 100_000);
    assert.ok(
      typeof status === 'object' && status.bytes.toString('utf8').startsWith('Name:'),
      'a short /proc file is read whole',
    );
    assert.strictEqual(readRegularFile('/proc', 100_000), 'not a file');
  });

  test('a regular file inside the workspace is read', () => {
    assert.strictEqual(reader.read(path.join(ws, 'blocks.py')), 'import torch.nn as nn\nD = 64\n');
  });

  test('a symlink to /dev/zero is not followed (it would never end)', () => {
    symlinkSync('/dev/zero', path.join(ws, 'zero.py'));
    assert.strictEqual(reader.read(path.join(ws, 'zero.py')), undefined);
  });

  test('a device path given directly is not read', () => {
    assert.strictEqual(reader.read('/dev/zero'), undefined);
  });

  test('a FIFO inside the workspace is not opened for reading (it would block)', function () {
    try {
      execFileSync('mkfifo', [path.join(ws, 'fifo.py')]);
    } catch {
      this.skip();
    }
    assert.strictEqual(reader.read(path.join(ws, 'fifo.py')), undefined);
  });

  test('a symlink out of the workspace, and a path climbing out of it, are not followed', () => {
    symlinkSync(path.join(dir, 'outside.py'), path.join(ws, 'link.py'));
    assert.strictEqual(reader.read(path.join(ws, 'link.py')), undefined);
    assert.strictEqual(reader.read(path.join(ws, '..', 'outside.py')), undefined);
    assert.strictEqual(reader.read(path.join(dir, 'outside.py')), undefined);
  });

  test('a symlink that stays inside the workspace is followed', () => {
    symlinkSync(path.join(ws, 'blocks.py'), path.join(ws, 'pkg', 'alias.py'));
    assert.match(reader.read(path.join(ws, 'pkg', 'alias.py')) ?? '', /D = 64/);
  });

  test("a folder's folders are listed, not those a symlink names, nor a folder outside the workspace", () => {
    mkdirSync(path.join(ws, 'configs', 'stable'), { recursive: true });
    writeFileSync(path.join(ws, 'configs', 'top.yaml'), 'a: 1\n');
    symlinkSync(dir, path.join(ws, 'configs', 'out'));
    assert.deepStrictEqual(reader.list(path.join(ws, 'configs'), '/', 10), ['stable']);
    assert.deepStrictEqual(reader.list(path.join(ws, 'configs'), '.yaml', 10), ['top.yaml']);
    assert.strictEqual(reader.list(dir, '/', 10), undefined);
  });

  test('a file over the size cap is not read, from disk or from an editor', () => {
    writeFileSync(path.join(ws, 'big.py'), 'x = 1\n'.repeat(200));
    assert.strictEqual(reader.read(path.join(ws, 'big.py')), undefined);
    assert.strictEqual(
      reader.read(path.join(ws, 'blocks.py'), () => 'y'.repeat(1001)),
      undefined,
    );
  });

  test('an editor text wins over the disk; the disk is read again once the file changes', () => {
    const file = path.join(ws, 'blocks.py');
    assert.strictEqual(
      reader.read(file, () => 'D = 7\n'),
      'D = 7\n',
    );
    writeFileSync(file, 'D = 128\n');
    assert.strictEqual(reader.read(file), 'D = 128\n');
  });

  test('an import through a symlink to /dev/zero leaves the analysis whole', async () => {
    symlinkSync('/dev/zero', path.join(ws, 'zero.py'));
    const main = path.join(ws, 'main.py');
    const text = 'import torch.nn as nn\nfrom .zero import D\nfrom .blocks import D as E\nx = nn.Linear(E, 2)\n';
    const models = new WorkspaceModels(await loadGrammars(), (f) => reader.read(f));
    try {
      const analysis = await analyzeText(text, 'python', main, models);
      assert.deepStrictEqual(
        analysis.layers.map((l) => l.layer.params?.constant),
        [64n * 2n + 2n],
      );
    } finally {
      models.dispose();
    }
  });
});
