/**
 * Every formula a layer site of the PyTorch fixtures prints, evaluated at the random sizes of
 * pytorch-formulas.json, against the count PyTorch 1.13 gives the layer built there with those sizes
 * (scripts/ground-truth/pytorch_formulas.py draws them, even and odd, both values of every flag). A formula
 * the product prints that the truth does not hold fails too: the script must be run again to check it.
 */
import * as assert from 'assert';
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, ROOT } from './helpers';

interface Checked {
  readonly line: number;
  readonly column: number;
  readonly formula: string;
  readonly draws: readonly { readonly values: Record<string, number | boolean>; readonly params: number }[];
}

const truth = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-formulas.json'), 'utf8')) as {
  files: Record<string, Checked[]>;
  skipped: Record<string, { line: number; formula: string }[]>;
};

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** The printed formula's value: `·` multiplies, `//` and `%` floor as Python does, superscripts are powers, `[flag]` is 1 or 0. */
export function evaluateFormula(formula: string, values: Readonly<Record<string, number | boolean>>): bigint {
  const tokens = formula.match(/\[[^\]]+\]|\d+|[A-Za-z_][\w.]*|\/\/|[⁰¹²³⁴⁵⁶⁷⁸⁹]+|[·+\-*/%()]/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const atom = (): bigint => {
    const t = next();
    if (t === '(') {
      const v = sum();
      assert.strictEqual(next(), ')', formula);
      return v;
    }
    if (t === '-') return -power();
    if (/^\d+$/.test(t)) return BigInt(t);
    if (t.startsWith('[')) return values[t.slice(1, -1)] ? 1n : 0n;
    assert.ok(t in values, `${formula}: no value drawn for ${t}`);
    return BigInt(Number(values[t]));
  };
  const power = (): bigint => {
    let v = atom();
    while (peek() && SUPERSCRIPT.includes(peek()[0]))
      v **= BigInt([...next()].map((c) => SUPERSCRIPT.indexOf(c)).join(''));
    return v;
  };
  const floorDiv = (a: bigint, b: bigint) => a / b - (a % b !== 0n && a < 0n !== b < 0n ? 1n : 0n);
  const product = (): bigint => {
    let v = power();
    while (['·', '*', '//', '%'].includes(peek())) {
      const op = next();
      const r = power();
      v = op === '//' ? floorDiv(v, r) : op === '%' ? v - floorDiv(v, r) * r : v * r;
    }
    return v;
  };
  const sum = (): bigint => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = next() === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  assert.strictEqual(at, tokens.length, `${formula}: read to the end`);
  return v;
}

suite('printed formulas against PyTorch at random sizes', () => {
  test('the evaluator reads formulas as Python does', () => {
    assert.strictEqual(evaluateFormula('2·(a // (3·b)) + [f]·c²', { a: 20, b: 2, f: true, c: 3 }), 2n * 3n + 9n);
    assert.strictEqual(evaluateFormula('(-a // b)', { a: 7, b: 2 }), -4n);
  });
  const analysed = new Map<string, ReturnType<typeof analyzeText>>();
  const analysis = (file: string) => {
    if (!analysed.has(file))
      analysed.set(file, analyzeText(readFileSync(path.join(ROOT, file), 'utf8'), 'python', path.join(ROOT, file)));
    return analysed.get(file)!;
  };
  for (const [file, checked] of Object.entries(truth.files)) {
    test(`${path.basename(file)}: ${checked.length} formulas exact at ${checked.reduce((n, c) => n + c.draws.length, 0)} draws`, async () => {
      const { layers } = await analysis(file);
      for (const c of checked) {
        const layer = layers.find((l) => l.span.startLine + 1 === c.line && l.span.startChar + 1 === c.column);
        assert.ok(layer, `${file}:${c.line}: layer`);
        assert.strictEqual(
          layer.layer.formula,
          c.formula,
          `${file}:${c.line}: the formula printed is the one checked (run pytorch_formulas.py again)`,
        );
        for (const d of c.draws)
          assert.strictEqual(
            evaluateFormula(c.formula, d.values),
            BigInt(d.params),
            `${file}:${c.line}: ${c.formula} at ${JSON.stringify(d.values)}`,
          );
      }
    });
  }
  test('every formula a fixture site prints over its own names is checked or listed as skipped with why', async () => {
    for (const name of readdirSync(path.join(ROOT, 'test/fixtures/models/pytorch')).filter((f) => f.endsWith('.py'))) {
      const file = `test/fixtures/models/pytorch/${name}`;
      const { layers } = await analysis(file);
      const known = new Set(
        [...(truth.files[file] ?? []), ...(truth.skipped[file] ?? [])].map((c) => `${c.line}:${c.formula}`),
      );
      for (const l of layers.filter(
        (x) =>
          x.layer.params === undefined &&
          x.values.length === 0 &&
          x.layer.formula &&
          !x.layer.rejected &&
          !x.findings.some((f) => f.severity === 'error'),
      )) {
        assert.ok(
          known.has(`${l.span.startLine + 1}:${l.layer.formula}`),
          `${file}:${l.span.startLine + 1}: ${l.layer.formula} is printed but not checked`,
        );
      }
    }
  });
});
