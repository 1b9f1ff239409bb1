/** The command line: options, exit codes, the JSON shape, exact counts, the text table and its colour. */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';
import { wantsColour } from '../../src/cli/colour';
import { USAGE } from '../../src/cli/args';
import { ROOT } from './helpers';
import { buildCli, CLI, runCli as run, tempFiles } from './cliRun';

interface JsonLayer {
  readonly line: number;
  readonly params: number | null;
  readonly paramsExact: string | null;
  readonly values: Record<string, unknown>[];
}
interface JsonFile {
  readonly path: string;
  readonly language: string;
  readonly error?: string;
  readonly layers: (JsonLayer & Record<string, unknown>)[];
  readonly modules: Record<string, unknown>[];
  readonly instances: Record<string, unknown>[];
  readonly diagnostics: Record<string, unknown>[];
}
const filesOf = (stdout: string) => (JSON.parse(stdout) as { files: JsonFile[] }).files;

const MODEL = `import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 64)
        self.attn = nn.MultiheadAttention(64, 3)


head = nn.Linear(64, 10)
`;

suite('attention-lens CLI', () => {
  suiteSetup(buildCli);

  test('--json over a folder: the documented shape, exit 1 for the error fixture', () => {
    const r = run(['--json', 'test/fixtures/models/pytorch']);
    assert.strictEqual(r.status, 1, r.stderr);
    const files = filesOf(r.stdout);
    const gpt = files.find((f) => f.path === 'test/fixtures/models/pytorch/gpt.py');
    assert.ok(gpt);
    assert.strictEqual(gpt.language, 'python');
    assert.deepStrictEqual(Object.keys(gpt.layers[0]), [
      'line',
      'column',
      'kind',
      'framework',
      'params',
      'paramsExact',
      'formula',
      'values',
    ]);
    // The class needs its config; the model the file builds has PyTorch's count, and so have its layers.
    assert.deepStrictEqual(
      gpt.modules.find((m) => m.name === 'GPT'),
      {
        name: 'GPT',
        line: 107,
        params: null,
        paramsExact: null,
        reason: 'needs arguments: config has no default',
        built: { params: 124439808, paramsExact: '124439808', context: 'GPT (line 202)' },
        configurations: [
          {
            name: 'GPT (line 202)',
            context: 'GPT (line 202)',
            params: 124439808,
            paramsExact: '124439808',
            expression:
              'GPT(GPTConfig(block_size=1024, vocab_size=50257, n_layer=12, n_head=12, n_embd=768, dropout=0.0, bias=True))',
            // The statement building it: `model = GPT(GPTConfig())`.
            source: { line: 202, column: 1 },
            active: true,
          },
        ],
      },
    );
    assert.deepStrictEqual(gpt.modules.find((m) => m.name === 'CausalSelfAttention')?.attention, {
      summary: '12 heads × 64',
      heads: 12,
      headDim: 64,
      kvHeads: 12,
      tensors: [
        { name: 'c_attn.weight', role: 'W_Q, W_K, W_V stacked' },
        { name: 'c_attn.bias', role: 'b_Q, b_K, b_V stacked' },
        { name: 'c_proj.weight', role: 'W_O' },
        { name: 'c_proj.bias', role: 'b_O' },
      ],
    });
    assert.deepStrictEqual(
      gpt.instances.map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'sizing'))),
      [{ class: 'GPT', line: 202, params: 124439808, paramsExact: '124439808' }],
    );
    const { activations, ...sizing } = gpt.instances[0].sizing as {
      activations: { bytes: number; layers: { path: string }[] };
    };
    assert.deepStrictEqual(sizing, {
      embedding: 39383808,
      nonEmbedding: 85056000,
      trainable: 124439808,
      frozen: 0,
      weightBytes: { fp32: 497759232, bf16: 248879616, fp16: 248879616, int8: 124439808, int4: 62219904 },
      trainingBytes: { adamwMixed: 1991036928, adamwFp32: 1991036928, sgdMomentum: 1493277696 },
      attentionLayers: 12,
      kvCachePerToken: { numbers: 18432, bytes: { fp16: 36864, bf16: 36864, fp32: 73728, int8: 18432 } },
      options: { dtype: 'bf16', optimizer: 'adamwMixed', batch: 1, sequence: 1024 },
      kvCacheBytes: 37748736,
      flops: { forwardPerToken: 284812800, trainingPerToken: 854438400, trainingStep: 874944921600 },
    });
    // PyTorch 1.13 keeps 618,255,976 bytes for GPT-2 small on one sequence of 1,024 tokens in bf16 (pytorch-activations.json).
    assert.strictEqual(activations.bytes, 618255976);
    assert.deepStrictEqual(
      activations.layers.find((l) => l.path === 'transformer.h.{i}'),
      { path: 'transformer.h.{i}', kind: 'Block', calls: 12, bytes: 12 * 51388424 },
    );
    assert.deepStrictEqual(gpt.layers[0].values, [
      {
        params: 1771776,
        paramsExact: '1771776',
        context: 'GPT (line 202) via Block ×12 via CausalSelfAttention',
        contexts: 1,
        summary: '768 → 2,304',
      },
    ]);
    const errors = files.find((f) => f.path.endsWith('shape_errors.py'));
    assert.deepStrictEqual(Object.keys(errors!.diagnostics[0]), ['line', 'column', 'severity', 'code', 'message']);
    assert.deepStrictEqual(errors!.diagnostics[0], {
      ...errors!.diagnostics[0],
      line: 16,
      column: 13,
      severity: 'error',
      code: 'heads-divisibility',
    });
  });

  test('--format json is --json; rows are in line order', () => {
    const r = run(['--format', 'json', 'test/fixtures/models/pytorch/shape_errors.py']);
    assert.strictEqual(r.status, 1, r.stderr);
    const [file] = filesOf(r.stdout);
    assert.deepStrictEqual(filesOf(run(['--json', 'test/fixtures/models/pytorch/shape_errors.py']).stdout), [file]);
    for (const list of [file.layers, file.diagnostics] as { line: number; column: number }[][]) {
      assert.deepStrictEqual(
        list,
        [...list].sort((a, b) => a.line - b.line || a.column - b.column),
      );
    }
  });

  test('counts: a JSON number only where exact, paramsExact always when known, nothing for a rejected layer', () => {
    const { dir, remove } = tempFiles({
      'sizes.py': [
        'import torch.nn as nn',
        'N = 2**62',
        'largest_exact = nn.Linear(2**53 - 2, 1, bias=False)',
        'first_inexact = nn.Linear(2**53, 1, bias=False)',
        'huge = nn.Linear(2**40, 2**20)',
        'past_float = nn.Linear(N*N*N*N*N*N*N*N*N, N*N*N*N*N*N*N*N*N)',
        'rejected = nn.MultiheadAttention(10, 3)',
        'unknown = nn.Linear(in_features, 4)',
        '',
      ].join('\n'),
    });
    try {
      const r = run(['--json', 'sizes.py'], { cwd: dir });
      assert.strictEqual(r.status, 1, r.stderr);
      const counts = filesOf(r.stdout)[0].layers.map((l) => [l.line, l.params, l.paramsExact]);
      const past = 2n ** 1116n + 2n ** 558n;
      assert.deepStrictEqual(counts, [
        [3, 2 ** 53 - 2, String(2 ** 53 - 2)],
        [4, null, '9007199254740992'],
        [5, null, String(2n ** 60n + 2n ** 20n)],
        [6, null, String(past)],
        [7, null, null],
        [8, null, null],
      ]);
    } finally {
      remove();
    }
  });

  test('text: path:line:col rows by line within the file, a rejected layer without a count, a summary line, no colour in a pipe', () => {
    const { dir, remove } = tempFiles({ 'model.py': MODEL });
    try {
      const r = run(['model.py'], { cwd: dir });
      assert.strictEqual(r.status, 1, r.stderr);
      assert.strictEqual(
        r.stdout,
        [
          // path:line:col as compilers print it: terminals and CI logs link it to the place.
          'model.py:4:7   class Block                       not known',
          'model.py:7:21  Linear                                4,160  64 → 64',
          'model.py:8:21  MultiheadAttention                 rejected  3 heads',
          'model.py:8:21  error [heads-divisibility] embed_dim 64 is not divisible by num_heads 3: PyTorch raises "embed_dim must be divisible by num_heads". Each head takes embed_dim / num_heads features.',
          'model.py:11:8  Linear                                  650  64 → 10',
          '',
          '1 error in 1 file · 1 model · 3 layers',
          '',
        ].join('\n'),
      );
      assert.strictEqual(r.stderr, '');
    } finally {
      remove();
    }
  });

  test('text: the columns widen to the longest kind and count of the file, so counts stay aligned', () => {
    const { dir, remove } = tempFiles({
      'model.py': [
        'from megatron.core import tensor_parallel',
        'from torch import nn',
        'wide = tensor_parallel.ColumnParallelLinear(64, 192, config=None, init_method=None)',
        'narrow = nn.Linear(64, 8)',
        '',
      ].join('\n'),
    });
    try {
      const rows = run(['model.py'], { cwd: dir }).stdout.split('\n').slice(0, 2);
      assert.deepStrictEqual(rows, [
        'model.py:3:8   tensor_parallel.ColumnParallelLinear           12,480  64 → 192',
        'model.py:4:10  Linear                                            520  64 → 8',
      ]);
    } finally {
      remove();
    }
  });

  const configured = [
    'import torch.nn as nn',
    'class Cfg:',
    '    def __init__(self, d=8, k=3):',
    '        self.d = d',
    '        self.k = k',
    'class M(nn.Module):',
    '    def __init__(self, cfg):',
    '        super().__init__()',
    '        self.fc = nn.Linear(cfg.d, cfg.k)',
    'def small():',
    '    return M(Cfg(d=2))',
    '',
  ].join('\n');

  test('text: a class built with different totals gets a row for each, under its own', () => {
    const { dir, remove } = tempFiles({ 'model.py': configured });
    try {
      const r = run(['model.py'], { cwd: dir });
      assert.strictEqual(
        r.stdout,
        [
          // nn.Linear(d, 3): 3·d + 3, for d = 8 (Cfg()'s default) and d = 2.
          'model.py:6:7   class M                                  27  as M(Cfg())',
          'model.py:6:7                                             9  in small()',
          'model.py:6:7                                            27  as M(Cfg()) (shown)',
          'model.py:9:19  Linear                      2 sizes: 9 … 27  cfg.d → cfg.k',
          '',
          'no errors in 1 file · 1 model · 1 layer',
          '',
        ].join('\n'),
      );
    } finally {
      remove();
    }
  });

  test('--workspace reads the files importing a file; --config takes the key of a registry holding a factory', () => {
    const folder = path.join(ROOT, 'test/fixtures/models/pytorch/importers');
    const alone = run(['modeling/net.py'], { cwd: folder });
    assert.match(alone.stdout, /class Net +needs arguments/);
    const r = run(['--workspace', '.', '--config', 'large', 'modeling/net.py'], { cwd: folder });
    assert.deepStrictEqual([r.status, r.stderr], [0, '']);
    assert.match(r.stdout, /class Net +904,676 +4 × EncoderBlock · in build_net_large\(\)\n/);
    assert.match(r.stdout, / 904,676 {2}in build_net_large\(\) · build\.py:16 \(shown\)\n/);
  });

  test('--python-path reads installed packages from an environment or its site-packages, never torch in their place', () => {
    const workspace = path.join(ROOT, 'test/integration/workspace');
    // PyTorch: Mlp(8) with hidden 32 (the .venv's lenslib) 552, with hidden 64 (other_env's) 1,096.
    const count = (args: string[]) =>
      /model Mlp +([\d,]+)/.exec(run([...args, 'installed.py'], { cwd: workspace }).stdout)?.[1] ?? 'no model';
    assert.deepStrictEqual(
      [count([]), count(['--python-path', '.venv']), count(['--python-path', 'other_env/site-packages'])],
      ['no model', '552', '1,096'],
    );
    const missing = run(['--python-path', 'no_such_env', 'installed.py'], { cwd: workspace });
    assert.match(missing.stderr, /--python-path no_such_env: no Python packages there/);
    const { dir, remove } = tempFiles({
      'site/torch/__init__.py': '',
      'site/torch/nn/__init__.py': 'class Linear:\n    def __init__(self, *a):\n        pass\n',
      'model.py': 'import torch.nn as nn\nfc = nn.Linear(4, 4)\n',
    });
    try {
      assert.match(run(['--python-path', 'site', 'model.py'], { cwd: dir }).stdout, /Linear +20 +4 → 4/);
    } finally {
      remove();
    }
  });

  test('--config NAME shows that configuration in the class and its layers; a name no class has exits 2', () => {
    const { dir, remove } = tempFiles({ 'model.py': configured });
    try {
      const r = run(['--config', 'small', 'model.py'], { cwd: dir });
      assert.deepStrictEqual([r.status, r.stderr], [0, '']);
      assert.strictEqual(
        r.stdout,
        [
          'model.py:6:7   class M                                   9  in small()',
          'model.py:6:7                                             9  in small() (shown)',
          'model.py:6:7                                            27  as M(Cfg())',
          'model.py:9:19  Linear                                    9  2 → 3',
          '',
          'no errors in 1 file · 1 model · 1 layer',
          '',
        ].join('\n'),
      );
      type Listed = {
        files: { modules: { configurations: { name: string; context: string; active?: boolean }[] }[] }[];
      };
      const json = JSON.parse(run(['--json', '--config=small()', 'model.py'], { cwd: dir }).stdout) as Listed;
      assert.deepStrictEqual(
        json.files[0].modules[0].configurations.map((c) => [c.name, c.context, c.active ?? false]),
        [
          ['small', 'small()', true],
          ['M(Cfg())', 'M(Cfg())', false],
        ],
      );
      // Each name is one --config takes for it.
      const byName = JSON.parse(run(['--json', '--config', 'M(Cfg())', 'model.py'], { cwd: dir }).stdout) as Listed;
      assert.deepStrictEqual(
        byName.files[0].modules[0].configurations.map((c) => [c.name, c.active ?? false]),
        [
          ['small', false],
          ['M(Cfg())', true],
        ],
      );
      const missing = run(['--config', 'large', '--config', 'small', 'model.py'], { cwd: dir });
      assert.strictEqual(missing.status, 2);
      assert.strictEqual(
        missing.stderr,
        'attention-lens: --config large: no class of the files analysed has a configuration of that name\n',
      );
      assert.match(missing.stdout, /class M {35}9 {2}in small\(\)/);
      // A call that names none is the user's own configuration: nn.Linear(5, 3) is 18.
      const own = run(['--config', 'M(Cfg(d=5))', 'model.py'], { cwd: dir });
      assert.strictEqual(own.status, 0);
      assert.match(own.stdout, /class M {34}18 {2}in M\(Cfg\(d=5\)\)\n/);
      // What it echoes of a name that builds nothing is shown, not sent to the terminal.
      const escaped = run(['--config', 'M(\u001b[2J)', 'model.py'], { cwd: dir });
      assert.strictEqual(
        escaped.stderr,
        'attention-lens: --config M(\\u{1b}[2J): no class of the files analysed has a configuration of that name\n',
      );
    } finally {
      remove();
    }
  });

  test('the summary counts in the plural, and says when nothing is wrong', () => {
    const r = run([
      'test/fixtures/models/pytorch/shape_errors.py',
      'test/fixtures/models/pytorch/forward_errors.py',
      'test/fixtures/models/pytorch/gpt.py',
    ]);
    const json = filesOf(
      run([
        '--json',
        'test/fixtures/models/pytorch/shape_errors.py',
        'test/fixtures/models/pytorch/forward_errors.py',
        'test/fixtures/models/pytorch/gpt.py',
      ]).stdout,
    );
    const total = (key: 'layers' | 'modules' | 'diagnostics') => json.reduce((n, f) => n + f[key].length, 0);
    const last = r.stdout.trimEnd().split('\n').pop();
    assert.strictEqual(
      last,
      `${total('diagnostics')} errors in 2 files · ${total('modules')} models · ${total('layers')} layers`,
    );
    const clean = run(['test/fixtures/models/pytorch/gpt.py']);
    assert.strictEqual(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, /36:23 +Linear +1,771,776 +768 → 2,304/);
    assert.match(clean.stdout, /\nno errors in 1 file · \d+ models · \d+ layers\n$/);
  });

  test('colour: FORCE_COLOR turns it on in a pipe and wins over NO_COLOR; a terminal gets it unless NO_COLOR', () => {
    const file = 'test/fixtures/models/pytorch/shape_errors.py';
    assert.doesNotMatch(run([file]).stdout, /\x1b\[/);
    assert.match(run([file], { env: { FORCE_COLOR: '1' } }).stdout, /\x1b\[31merror\x1b\[39m \[heads-divisibility\]/);
    assert.match(run([file], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout, /\x1b\[31m/);
    assert.doesNotMatch(run([file], { env: { FORCE_COLOR: '0' } }).stdout, /\x1b\[/);
    assert.doesNotMatch(run(['--json', file], { env: { FORCE_COLOR: '1' } }).stdout, /\x1b\[/);
    assert.strictEqual(wantsColour({}, true), true);
    assert.strictEqual(wantsColour({ NO_COLOR: '1' }, true), false);
    assert.strictEqual(wantsColour({ NO_COLOR: '' }, true), true);
    assert.strictEqual(wantsColour({}, false), false);
  });

  test('a JSON report far past a pipe buffer (64 KiB) arrives whole', () => {
    const lines = [
      'import torch.nn as nn',
      ...Array.from({ length: 3000 }, (_, i) => `layer_${i} = nn.Linear(${i + 1}, 64)`),
      '',
    ];
    const { dir, remove } = tempFiles({ 'many.py': lines.join('\n') });
    try {
      // Through a shell pipe: spawnSync's own stdout is a socket, which Node writes synchronously, so an
      // early exit would lose nothing there; a pipe is written asynchronously, as in `attention-lens | jq`.
      const r = spawnSync('sh', ['-c', '"$0" "$@" | cat', process.execPath, CLI, '--json', 'many.py'], {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      assert.strictEqual(r.status, 0, r.stderr);
      assert.ok(r.stdout.length > 4 * 65536, `only ${r.stdout.length} characters`);
      const layers = filesOf(r.stdout)[0].layers;
      assert.strictEqual(layers.length, 3000);
      assert.deepStrictEqual(layers[2999], {
        line: 3001,
        column: 14,
        kind: 'Linear',
        framework: 'pytorch',
        params: 3000 * 64 + 64,
        paramsExact: String(3000 * 64 + 64),
        formula: 'in·out + out',
        values: [
          {
            params: 3000 * 64 + 64,
            paramsExact: String(3000 * 64 + 64),
            context: '',
            contexts: 1,
            summary: '3,000 → 64',
          },
        ],
      });
    } finally {
      remove();
    }
  });

  test('-h and --help print the usage on stdout and exit 0; --version prints the package version', () => {
    for (const flag of ['-h', '--help']) {
      const r = run([flag, 'ignored.py']);
      assert.strictEqual(r.status, 0);
      assert.strictEqual(r.stdout, `${USAGE}\n`);
      assert.strictEqual(r.stderr, '');
    }
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const r = run(['--version']);
    assert.deepStrictEqual([r.status, r.stdout, r.stderr], [0, `${version}\n`, '']);
  });

  test('an unknown option, a bad format or no path: message and usage on stderr, exit 2, nothing on stdout', () => {
    const cases: [string[], string][] = [
      [['--jsn', 'x.py'], 'unknown option --jsn'],
      [['-x'], 'unknown option -x'],
      [['--format', 'xml', 'x.py'], 'unknown format xml (text, json or sarif)'],
      [['--format'], '--format needs a value: text, json or sarif'],
      [['--dtype', 'fp8', 'x.py'], '--dtype fp8: expected fp32, bf16, fp16, int8, int4'],
      [['--optimizer=adam', 'x.py'], '--optimizer adam: expected adamwMixed, adamwFp32, sgdMomentum'],
      [['--batch', '0', 'x.py'], '--batch 0: expected a positive whole number'],
      [['--seq=1.5', 'x.py'], '--seq 1.5: expected a positive whole number'],
      [['--seq'], '--seq needs a value: a positive whole number'],
      [['--jobs', '0', 'x.py'], '--jobs 0: expected a positive whole number'],
      [['--config', '', 'x.py'], "--config : expected a configuration's name"],
      [['--config'], "--config needs a value: a configuration's name"],
      [[], 'no path given'],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      assert.deepStrictEqual(
        [r.status, r.stdout, r.stderr],
        [2, '', `attention-lens: ${message}\n${USAGE}\n`],
        args.join(' '),
      );
    }
  });

  test('--dtype, --optimizer, --batch and --seq set what the JSON sizing is given for: GPT-2 small at 2 × 64 in fp32 keeps what PyTorch keeps', () => {
    const r = run([
      '--json',
      '--dtype',
      'fp32',
      '--optimizer=sgdMomentum',
      '--batch',
      '2',
      '--seq=64',
      'test/fixtures/models/pytorch/gpt.py',
    ]);
    assert.strictEqual(r.status, 0, r.stderr);
    const sizing = filesOf(r.stdout)[0].instances[0].sizing as {
      options: unknown;
      kvCacheBytes: number;
      activations: { bytes: number };
    };
    assert.deepStrictEqual(sizing.options, { dtype: 'fp32', optimizer: 'sgdMomentum', batch: 2, sequence: 64 });
    // 2 · 12 layers · 768 keys and values · 4 bytes · 64 tokens; 80,691,816 bytes as pytorch-activations.json measured.
    assert.strictEqual(sizing.kvCacheBytes, 2 * 12 * 768 * 4 * 64);
    assert.strictEqual(sizing.activations.bytes, 80_691_816);
  });

  test('-- ends the options: a file named --json after it is a path', () => {
    const { dir, remove } = tempFiles({ '--json': 'x = 1\n' });
    try {
      const r = run(['--', '--json'], { cwd: dir });
      assert.strictEqual(r.status, 2);
      assert.strictEqual(r.stderr, 'attention-lens: cannot read --json: not a .py, .ts or .ipynb file\n');
      const named = tempFiles({ '--help.py': MODEL });
      try {
        const json = run(['--format=json', '--', '--help.py'], { cwd: named.dir });
        assert.strictEqual(json.status, 1, json.stderr);
        assert.strictEqual(filesOf(json.stdout)[0].path, '--help.py');
      } finally {
        named.remove();
      }
    } finally {
      remove();
    }
  });

  test('an unreadable path exits 2 and the other paths are still analysed', () => {
    const r = run(['--json', 'no/such/file.py', 'test/fixtures/models/pytorch/gpt.py']);
    assert.strictEqual(r.status, 2);
    assert.strictEqual(r.stderr, 'attention-lens: cannot read no/such/file.py: no such file or directory (ENOENT)\n');
    assert.strictEqual(filesOf(r.stdout).length, 1);
  });

  test('JSON head figures past 2^53 are exact decimal strings, not rounded numbers', () => {
    const source = [
      'import torch.nn as nn',
      'import torch.nn.functional as F',
      'class SelfAttention(nn.Module):',
      '    def __init__(self, n_embd=2**61, n_head=2**60 + 1):',
      '        super().__init__()',
      '        self.c_attn = nn.Linear(n_embd, 3 * n_embd)',
      '        self.n_head, self.n_embd = n_head, n_embd',
      '    def forward(self, x):',
      '        B, T, C = x.size()',
      '        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)',
      '        q = q.view(B, T, self.n_head, -1).transpose(1, 2)',
      '        k = k.view(B, T, self.n_head, -1).transpose(1, 2)',
      '        v = v.view(B, T, self.n_head, -1).transpose(1, 2)',
      '        return F.softmax(q @ k.transpose(-2, -1), dim=-1) @ v',
    ].join('\n');
    const { dir, remove } = tempFiles({ 'big.py': `${source}\n` });
    try {
      const [file] = filesOf(run(['--json', 'big.py'], { cwd: dir }).stdout);
      const attention = (file.modules[0] as { attention?: { heads: unknown } }).attention;
      assert.strictEqual(attention?.heads, (2n ** 60n + 1n).toString());
    } finally {
      remove();
    }
  });
});
