/**
 * The analysis on hostile inputs (test/pathological/fuzz.ts): no exception escapes and every input ends.
 * `npm test` runs a bounded sample; `npm run fuzz` runs every prefix of every fixture and many more inputs.
 */
import * as assert from 'assert';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { fuzzInputs } from '../pathological/fuzz';
import { loadGrammars, ROOT } from './helpers';

const LONG = process.env.ATTENTION_LENS_FUZZ === 'long';

suite('fuzz', () => {
  test(`${LONG ? 'long' : 'short'} run: no exception escapes, every input ends`, async function () {
    this.timeout(LONG ? 3_600_000 : 120_000);
    const grammars = await loadGrammars();
    const seed = Number(process.env.ATTENTION_LENS_SEED ?? 20261123);
    let runs = 0;
    for (const input of fuzzInputs(ROOT, seed, LONG ? 5_000 : 150, LONG ? 1 : 397)) {
      const analyzer = new DocumentAnalyzer(grammars, input.language);
      try {
        analyzer.update(input.text);
      } catch (e) {
        assert.fail(`${input.name} (seed ${seed}): ${(e as Error).stack}`);
      } finally {
        analyzer.dispose();
      }
      runs++;
    }
    assert.ok(runs > 100, `${runs} inputs`);
    assert.ok(process.memoryUsage().heapUsed < 1.5 * 2 ** 30, `heap ${process.memoryUsage().heapUsed}`);
  });
});
