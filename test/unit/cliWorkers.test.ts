/** The CLI in worker processes prints, byte for byte, what it prints analysing the files one after another. */
import * as assert from 'assert';
import { buildCli, runCli, tempFiles } from './cliRun';

const BLOCKS = `import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads)
        self.ff = nn.Linear(dim, 4 * dim)
`;

// Files that import each other, a model, a shape error, one that cannot be read, one with nothing to show, and
// one nested deeper than the stack (a worker thread's stack, larger by default, cut it elsewhere: another output).
const FOLDER: Record<string, string | Buffer> = {
  'deep.py': `import torch.nn as nn\nd = 1${' + 1'.repeat(5000)}\nfc = nn.Linear(d, 2)\n`,
  'blocks.py': BLOCKS,
  'model.py': `import torch.nn as nn
from blocks import Block


class Net(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(depth)])
        self.head = nn.Linear(64, 10)


net = Net()
`,
  'broken.py': `import torch.nn as nn
from blocks import Block

bad = nn.MultiheadAttention(100, 3)
wide = Block(dim=96, heads=5)
`,
  'latin1.py': Buffer.from([0x78, 0x20, 0x3d, 0x20, 0x22, 0xe9, 0x22, 0x0a]),
  'empty.py': '',
  'net.ts': `import * as tf from '@tensorflow/tfjs';

const model = tf.sequential({ layers: [tf.layers.dense({ units: 8, inputShape: [4] }), tf.layers.dense({ units: 2 })] });
`,
};

suite('attention-lens CLI in worker processes', () => {
  suiteSetup(buildCli);

  test('text, JSON and SARIF with --jobs 3 are those of --jobs 1, exit status and stderr included', () => {
    const { dir, remove } = tempFiles(FOLDER);
    try {
      for (const format of ['text', 'json', 'sarif']) {
        const one = runCli(['--jobs', '1', '--format', format, dir]);
        const workers = runCli(['--jobs', '3', '--format', format, dir]);
        assert.deepStrictEqual(
          [workers.status, workers.stdout, workers.stderr],
          [one.status, one.stdout, one.stderr],
          format,
        );
        // Not a vacuous comparison: every file is there, the failed one and the error diagnostics included.
        assert.strictEqual(one.status, 2, one.stderr);
      }
      const files = (
        JSON.parse(runCli(['--jobs', '3', '--json', dir]).stdout) as {
          files: { path: string; error?: string; diagnostics: { code: string }[] }[];
        }
      ).files;
      assert.deepStrictEqual(
        files.map((f) => f.path.split('/').pop()),
        ['blocks.py', 'broken.py', 'deep.py', 'empty.py', 'latin1.py', 'model.py', 'net.ts'],
      );
      assert.ok(files.find((f) => f.path.endsWith('latin1.py'))?.error);
      assert.ok(
        files.find((f) => f.path.endsWith('broken.py'))?.diagnostics.some((d) => d.code === 'heads-divisibility'),
      );
    } finally {
      remove();
    }
  });
});
