/** The command line over real folders: notebooks, files it cannot analyse, symlinks, FIFOs and unreadable folders. */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'fs';
import * as path from 'path';
import { buildCli, runCli as run, tempFiles } from './cliRun';

interface JsonFile {
  readonly path: string;
  readonly error?: string;
  readonly layers: Record<string, unknown>[];
  readonly modules: Record<string, unknown>[];
  readonly diagnostics: Record<string, unknown>[];
}
const filesOf = (stdout: string) => (JSON.parse(stdout) as { files: JsonFile[] }).files;

const code = (source: string | string[], metadata: object = {}) => ({
  cell_type: 'code',
  execution_count: null,
  metadata,
  outputs: [],
  source,
});
const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Prose\n', 'nn.Linear(1, 2) here is text.'] },
    code(['import torch.nn as nn\n', 'D = 64']),
    code('%%bash\necho nn.Linear(3, 4)'),
    code('%matplotlib inline\n!pip install torch\nattn = nn.MultiheadAttention(D, 4)\nproj = nn.Linear(D, 2 * D)\n'),
    { cell_type: 'raw', metadata: {}, source: 'nn.Linear(5, 6)' },
    code('x <- nn.Linear(7, 8)', { vscode: { languageId: 'r' } }),
    code('bad = nn.MultiheadAttention(D, 5)'),
  ],
};

suite('attention-lens CLI: files', () => {
  suiteSetup(buildCli);

  test('a notebook names the models that build a class by their cell and line, not by a line of the cells joined', () => {
    const notebook = {
      ...NOTEBOOK,
      cells: [
        code(
          'import torch.nn as nn\n\nclass Head(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n        self.proj = nn.Linear(d, d)',
        ),
        NOTEBOOK.cells[0],
        code('small = Head(512)'),
      ],
    };
    const { dir, remove } = tempFiles({ 'nb.ipynb': JSON.stringify(notebook) });
    try {
      const [file] = filesOf(run(['--json', 'nb.ipynb'], { cwd: dir }).stdout);
      assert.deepStrictEqual(
        (file.layers[0].values as { context: string }[]).map((v) => v.context),
        ['Head (cell 3, line 1)'],
      );
      assert.match(
        run(['nb.ipynb'], { cwd: dir }).stdout,
        /^nb\.ipynb:cell 1:3:7 +class Head +262,656 +as built in cell 3, line 1$/m,
      );
    } finally {
      remove();
    }
  });

  test('a notebook: Python code cells in order, later cells see earlier definitions, magics blanked, places per cell', () => {
    const { dir, remove } = tempFiles({ 'nb.ipynb': JSON.stringify(NOTEBOOK, null, 1) });
    try {
      const json = run(['--json', 'nb.ipynb'], { cwd: dir });
      assert.strictEqual(json.status, 1, json.stderr);
      const [file] = filesOf(json.stdout);
      assert.deepStrictEqual(
        file.layers.map((l) => [l.cell, l.line, l.column, l.kind, l.params]),
        [
          [4, 3, 8, 'MultiheadAttention', 4 * 64 * 64 + 4 * 64],
          [4, 4, 8, 'Linear', 64 * 128 + 128],
          [7, 1, 7, 'MultiheadAttention', null],
        ],
      );
      assert.deepStrictEqual(Object.keys(file.layers[0]).slice(0, 3), ['cell', 'line', 'column']);
      assert.deepStrictEqual(
        file.diagnostics.map((d) => [d.cell, d.line, d.column, d.code]),
        [[7, 1, 7, 'heads-divisibility']],
      );
      const text = run(['nb.ipynb'], { cwd: dir });
      assert.strictEqual(
        text.stdout,
        [
          'nb.ipynb:cell 4:3:8  MultiheadAttention                   16,640  4 heads × 16',
          'nb.ipynb:cell 4:4:8  Linear                                8,320  64 → 128',
          'nb.ipynb:cell 7:1:7  MultiheadAttention                 rejected  5 heads',
          'nb.ipynb:cell 7:1:7  error [heads-divisibility] embed_dim 64 is not divisible by num_heads 5: PyTorch raises "embed_dim must be divisible by num_heads". Each head takes embed_dim / num_heads features.',
          '',
          '1 error in 1 file · 0 models · 3 layers',
          '',
        ].join('\n'),
      );
    } finally {
      remove();
    }
  });

  test('files that cannot be analysed are listed with the reason; the others still are', () => {
    const { dir, remove } = tempFiles({
      'good.py': 'import torch.nn as nn\nproj = nn.Linear(4, 4)\n',
      'broken.ipynb': '{"cells": [',
      'not_a_notebook.ipynb': '[1, 2]',
      'latin1.py': Buffer.from([0x23, 0x20, 0xe9, 0x0a]),
      'nul.py': 'x = 1\0\n',
      'huge.py': '#'.repeat(5_000_001),
    });
    try {
      const r = run(['--json', '.'], { cwd: dir });
      assert.strictEqual(r.status, 2, r.stderr);
      assert.strictEqual(r.stderr, '');
      const files = filesOf(r.stdout);
      const errors = Object.fromEntries(files.map((f) => [f.path, f.error]));
      assert.deepStrictEqual(errors, {
        'broken.ipynb': `not a notebook: invalid JSON (${jsonError('{"cells": [')})`,
        'good.py': undefined,
        'huge.py': 'larger than 5 MB (5,000,001 bytes)',
        'latin1.py': 'not UTF-8 text',
        'not_a_notebook.ipynb': 'not a notebook: no list of cells',
        'nul.py': 'a binary file (it contains NUL bytes)',
      });
      assert.deepStrictEqual(
        files.find((f) => f.path === 'nul.py'),
        {
          path: 'nul.py',
          language: 'python',
          error: 'a binary file (it contains NUL bytes)',
          layers: [],
          modules: [],
          diagnostics: [],
        },
      );
      assert.strictEqual(files.find((f) => f.path === 'good.py')?.layers.length, 1);
      const text = run(['.'], { cwd: dir });
      assert.strictEqual(text.status, 2);
      assert.match(text.stdout, /^latin1\.py: not analysed: not UTF-8 text$/m);
      assert.match(text.stdout, /\nno errors in 1 file · 0 models · 1 layer · 5 files not analysed\n$/);
    } finally {
      remove();
    }
  });

  test('symlinked folders are not entered, FIFOs are skipped, broken links and unreadable folders are reported', () => {
    const { dir, remove } = tempFiles({ 'a.py': 'import torch.nn as nn\nproj = nn.Linear(4, 4)\n' });
    try {
      mkdirSync(path.join(dir, 'sub'));
      writeFileSync(path.join(dir, 'sub', 'b.py'), 'import torch.nn as nn\nproj = nn.Linear(2, 2)\n');
      mkdirSync(path.join(dir, 'denied'));
      writeFileSync(path.join(dir, 'denied', 'c.py'), 'import torch.nn as nn\nproj = nn.Linear(3, 3)\n');
      symlinkSync('.', path.join(dir, 'loop'));
      symlinkSync('a.py', path.join(dir, 'linked.py'));
      symlinkSync('missing.py', path.join(dir, 'dangling.py'));
      assert.strictEqual(spawnSync('mkfifo', [path.join(dir, 'fifo.py')]).status, 0);
      // Tests run as root, whom chmod 000 does not stop: the preload makes readdir of `denied` fail as it would.
      writeFileSync(
        path.join(dir, 'deny.js'),
        `const fs = require('fs');
const readdir = fs.promises.readdir;
fs.promises.readdir = (p, ...rest) => String(p).endsWith('denied')
  ? Promise.reject(Object.assign(new Error("EACCES: permission denied, scandir '" + p + "'"), { code: 'EACCES' }))
  : readdir(p, ...rest);
`,
      );
      const r = run(['--json', '.'], { cwd: dir, node: ['--require', path.join(dir, 'deny.js')] });
      assert.strictEqual(r.status, 2);
      assert.strictEqual(
        r.stderr,
        [
          'attention-lens: cannot read dangling.py: no such file or directory (ENOENT)',
          'attention-lens: cannot read denied: permission denied (EACCES)',
          '',
        ].join('\n'),
      );
      assert.deepStrictEqual(
        filesOf(r.stdout).map((f) => [f.path, f.layers.length]),
        [
          ['a.py', 1],
          ['linked.py', 1],
          ['sub/b.py', 1],
        ],
      );
      const fifo = run(['fifo.py', 'a.py'], { cwd: dir });
      assert.strictEqual(fifo.status, 2);
      assert.strictEqual(fifo.stderr, 'attention-lens: cannot read fifo.py: not a regular file\n');
      assert.match(fifo.stdout, /^a\.py:2:8 /);
      assert.match(fifo.stdout, / · 1 path not read\n$/);
    } finally {
      remove();
    }
  });

  test('nothing outside the paths given is read: links out of the folder, /proc files that never end, imports from a parent', () => {
    const outside = tempFiles({ 'secret.py': 'import torch.nn as nn\nWIDTH = 96\nproj = nn.Linear(WIDTH, 4)\n' });
    const { dir, remove } = tempFiles({});
    try {
      mkdirSync(path.join(dir, 'pkg'));
      writeFileSync(
        path.join(dir, 'pkg', 'model.py'),
        'import torch.nn as nn\nfrom secret import WIDTH\nproj = nn.Linear(WIDTH, 4)\n',
      );
      writeFileSync(path.join(dir, 'secret.py'), 'WIDTH = 32\n');
      symlinkSync(path.join(outside.dir, 'secret.py'), path.join(dir, 'pkg', 'out.py'));
      symlinkSync('/proc/self/pagemap', path.join(dir, 'pkg', 'pagemap.py'));
      const r = run(['--json', 'pkg'], { cwd: dir });
      assert.strictEqual(r.status, 2);
      assert.deepStrictEqual(r.stderr.split('\n').filter(Boolean).sort(), [
        `attention-lens: not read pkg/out.py: it links outside ${path.join(dir, 'pkg')}`,
        `attention-lens: not read pkg/pagemap.py: it links outside ${path.join(dir, 'pkg')}`,
      ]);
      // secret.py beside pkg/ is outside the folder given: WIDTH is not known, so neither is the count.
      const [model] = filesOf(r.stdout);
      assert.deepStrictEqual([model.path, model.layers.map((l) => l.params)], ['pkg/model.py', [null]]);
      // Given the parent too (or secret.py, whose folder it is), the import is read: 32 · 4 + 4.
      assert.deepStrictEqual(
        filesOf(run(['--json', 'pkg/model.py', 'secret.py'], { cwd: dir }).stdout)[0].layers.map((l) => l.params),
        [132],
      );
      assert.deepStrictEqual(
        filesOf(run(['--json', '.'], { cwd: dir }).stdout)
          .find((f) => f.path === 'pkg/model.py')!
          .layers.map((l) => l.params),
        [132],
      );
    } finally {
      remove();
      outside.remove();
    }
  });
});

/** The parser's own message, which differs between Node versions. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('valid JSON');
}
