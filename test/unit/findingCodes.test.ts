/**
 * The finding codes are listed once (core/findings/codes.ts): the CLI's SARIF rules, the setting that
 * changes a code's severity and the README's table of diagnostics must name exactly those.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { FINDING_CODES } from '../../src/core/findings/codes';
import { RULES } from '../../src/cli/rules';
import { ROOT } from './helpers';

const sorted = (codes: Iterable<string>) => [...codes].sort();

suite('finding codes', () => {
  test('every code has a SARIF rule, and every rule a code', () => {
    assert.deepStrictEqual(sorted(RULES.map((r) => r.id)), sorted(FINDING_CODES));
  });

  test("the severity setting's schema lists every code", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const severity = manifest.contributes.configuration.properties['attentionLens.diagnostics.severity'];
    assert.deepStrictEqual(sorted(Object.keys(severity.properties)), sorted(FINDING_CODES));
  });

  test("the README's table of diagnostics names every code", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const table = readme.split('\n').filter((l) => l.startsWith('| `'));
    const named = new Set(table.flatMap((l) => [...l.split('|')[1].matchAll(/`([a-z-]+)`/g)].map((m) => m[1])));
    for (const code of FINDING_CODES) assert.ok(named.has(code), `${code} is missing from the README's table`);
  });
});
