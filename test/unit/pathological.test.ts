/** Crafted files end as "unknown" within the work budget, never hang, abort or print a made-up count. */
import * as assert from 'assert';
import { groupDigits } from '../../src/core/values/symbolic';
import { PATHOLOGICAL } from '../pathological/cases';
import { analyzeText } from './helpers';

suite('pathological inputs', () => {
  for (const p of PATHOLOGICAL) {
    test(p.name, async () => {
      const analysis = await analyzeText(p.source);
      const counts = analysis.layers.map((l) =>
        l.layer.params?.constant === undefined ? undefined : groupDigits(l.layer.params.constant),
      );
      if (p.counts) assert.deepStrictEqual(counts, p.counts);
      else
        for (const l of analysis.layers)
          assert.ok(
            l.layer.params?.constant === undefined || l.layer.params.constant < 10n ** 6n,
            `${p.name}: no count made up from an unknown size (${counts.join(', ')})`,
          );
      for (const m of analysis.modules)
        assert.ok(
          m.summary.params?.constant === undefined || m.summary.params.constant < 10n ** 9n,
          `${m.name}: ${m.summary.params}`,
        );
    });
  }
});

suite('pathological imports', () => {
  test('two files that import each other: both analysed, classes across the cycle counted', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('fs');
    const { tmpdir } = await import('os');
    const path = await import('path');
    const dir = mkdtempSync(path.join(tmpdir(), 'attention-lens-cycle-'));
    try {
      const a =
        'import torch.nn as nn\nfrom b import B, WIDTH\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(WIDTH, WIDTH)\n        self.b = B()\n';
      const b =
        'import torch.nn as nn\nfrom a import A\nWIDTH = 8\nclass B(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(WIDTH, 2)\n';
      writeFileSync(path.join(dir, 'a.py'), a);
      writeFileSync(path.join(dir, 'b.py'), b);
      const analysis = await analyzeText(a, 'python', path.join(dir, 'a.py'));
      assert.deepStrictEqual(
        analysis.modules.map((m) => [m.name, m.summary.params?.constant]),
        [['A', BigInt(8 * 8 + 8 + 8 * 2 + 2)]],
      );
      const other = await analyzeText(b, 'python', path.join(dir, 'b.py'));
      assert.deepStrictEqual(
        other.modules.map((m) => [m.name, m.summary.params?.constant]),
        [['B', 18n]],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
