/** Crafted files end as "unknown" within the work budget, never hang, abort or print a made-up count. */
import * as assert from 'assert';
import { groupDigits } from '../../src/core/symbolic';
import { PATHOLOGICAL } from '../pathological/cases';
import { analyzeText } from './helpers';

suite('pathological inputs', () => {
  for (const p of PATHOLOGICAL) {
    test(p.name, async () => {
      const analysis = await analyzeText(p.source);
      const counts = analysis.layers.map((l) => (l.layer.params?.constant === undefined ? undefined : groupDigits(l.layer.params.constant)));
      if (p.counts) assert.deepStrictEqual(counts, p.counts);
      else for (const l of analysis.layers) assert.ok(l.layer.params?.constant === undefined || l.layer.params.constant < 10n ** 6n, `${p.name}: no count made up from an unknown size (${counts.join(', ')})`);
      for (const m of analysis.modules) assert.ok(m.summary.params?.constant === undefined || m.summary.params.constant < 10n ** 9n, `${m.name}: ${m.summary.params}`);
    });
  }
});
