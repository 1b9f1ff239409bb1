/**
 * Imports among the workspace's Python files, as Python resolves them: a package's relative imports from its
 * own folder, and a circle of files importing a name from each other ending, as Python's ImportError does,
 * with the name not known rather than the analysis overflowing its stack.
 */
import * as assert from 'assert';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';
import { analyzeText, loadGrammars } from './helpers';

/** The analysis of `main` as /w/main.py, the other files (path under /w to text) beside it. */
async function analysed(main: string, files: Record<string, string>) {
  const models = new WorkspaceModels(await loadGrammars(), (f) => files[f.replace('/w/', '')]);
  try {
    return await analyzeText(main, 'python', '/w/main.py', models);
  } finally {
    models.dispose();
  }
}

suite('imports among Python files', () => {
  test("a package's relative imports start from its own folder", async () => {
    const a = await analysed('from models import Block\nblock = Block(16)\n', {
      'models/__init__.py': 'from .blocks import Block\n',
      'models/blocks.py':
        'import torch.nn as nn\n\nclass Block(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n        self.fc = nn.Linear(d, d)\n',
    });
    // nn.Linear(16, 16): 16·16 + 16.
    assert.deepStrictEqual(
      a.instances.map((i) => i.summary.params?.constant),
      [272n],
    );
  });

  test("a module's __name__ is its packages' dotted path, whichever import reached it", async () => {
    const a = await analysed('from pkg.sub import Block\nblock = Block()\n', {
      'pkg/__init__.py': '',
      'pkg/sub/__init__.py': 'from .mod import Block\n',
      'pkg/sub/mod.py':
        "import torch.nn as nn\n\nclass Block(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(16 if __name__ == 'pkg.sub.mod' else 8, 4)\n",
    });
    // nn.Linear(16, 4): 16·4 + 4.
    assert.deepStrictEqual(
      a.instances.map((i) => i.summary.params?.constant),
      [68n],
    );
  });

  test("an absolute import in a package's module is not its sibling of the same name (timm's layers/typing.py)", async () => {
    const a = await analysed('from pkg.mlp import Mlp\nm = Mlp(4)\n', {
      'pkg/__init__.py': '',
      'pkg/typing.py': 'from typing import Callable, Tuple\nLayerType = Callable\n',
      'pkg/mlp.py':
        'from typing import Callable\nimport torch.nn as nn\n\nclass Mlp(nn.Module):\n    def __init__(self, d, act: Callable = nn.GELU):\n        super().__init__()\n        self.fc = nn.Linear(d, d)\n',
    });
    // nn.Linear(4, 4): 4·4 + 4.
    assert.deepStrictEqual(
      a.instances.map((i) => i.summary.params?.constant),
      [20n],
    );
  });

  test('files importing a name from each other in a circle: the name is not known, the rest is counted', async () => {
    const a = await analysed('import torch.nn as nn\nfrom a import Mlp\nm = Mlp(4)\nfc = nn.Linear(4, 2)\n', {
      'a.py': 'from b import Mlp\n',
      'b.py': 'from a import Mlp\n',
    });
    assert.deepStrictEqual(
      a.layers.map((l) => l.layer.params?.constant),
      [10n],
    );
  });
});
