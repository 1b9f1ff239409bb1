/** Units people read, and the Explain panel's sizes as typed: every wrong one named, every right one taken. */
import * as assert from 'assert';
import { bytesText, flopsText } from '../../src/core/sizing/units';
import { moduleHoverMarkdown, shortCount } from '../../src/core/present/format';
import { Poly } from '../../src/core/values/symbolic';
import { DEFAULT_INPUTS, MAX_SIZE, readInputs, readSize } from '../../src/core/sizing/explainInputs';

suite('units', () => {
  test('FLOPs: three significant digits with a decimal prefix', () => {
    const cases: [bigint, string][] = [
      [0n, '0 FLOPs'],
      [1n, '1 FLOP'],
      [999n, '999 FLOPs'],
      [1000n, '1.00 kFLOP'],
      [1500n, '1.50 kFLOP'],
      [5_248_450_560n, '5.25 GFLOP'],
      [27_049_000n, '27.0 MFLOP'],
      [475_000_000_000n, '475 GFLOP'],
      // Rounding up to 1000 moves to the next prefix instead of printing "1.00e+3 MFLOP".
      [999_600_000n, '1.00 GFLOP'],
      [999_400_000n, '999 MFLOP'],
      [3n * 10n ** 15n, '3.00 PFLOP'],
    ];
    assert.deepStrictEqual(
      cases.map(([n]) => flopsText(n)),
      cases.map(([, t]) => t),
    );
  });

  test('bytes: binary prefixes, one decimal below a GiB and two from there', () => {
    const cases: [bigint, string][] = [
      [0n, '0 bytes'],
      [1n, '1 byte'],
      [1023n, '1023 bytes'],
      [1024n, '1.0 KiB'],
      [28_311_552n, '27.0 MiB'],
      [497_759_232n, '474.7 MiB'],
      [1_991_036_928n, '1.85 GiB'],
      [2n ** 40n * 3n, '3.00 TiB'],
      // 1,048,575 bytes is 1023.999 KiB: it reads as 1.0 MiB, not "1024.0 KiB".
      [1_048_575n, '1.0 MiB'],
    ];
    assert.deepStrictEqual(
      cases.map(([n]) => bytesText(n)),
      cases.map(([, t]) => t),
    );
  });
});

suite('amounts past a double', () => {
  test('no "Infinity" or "NaN": amounts past 1e308 print from their digits, shares from the integers', () => {
    const huge = 12n * 10n ** 400n;
    assert.strictEqual(bytesText(huge), '1.20e+401 bytes');
    assert.strictEqual(flopsText(huge), '1.20e+401 FLOPs');
    assert.strictEqual(shortCount(huge), '1.20e+401');
    const hover = moduleHoverMarkdown('M', {
      params: Poly.int(huge),
      children: [{ name: 'a', kind: 'Linear', params: Poly.int(huge / 3n) }],
      tied: [],
    });
    assert.ok(!/NaN|Infinity/.test(hover), hover);
    assert.ok(hover.includes('| 33.3 % |'), hover);
  });
});

suite('Explain panel sizes as typed', () => {
  test('each wrong size gets its own message', () => {
    assert.strictEqual(readSize(''), 'Empty: enter a whole number, 1 or more.');
    assert.strictEqual(readSize('   '), 'Empty: enter a whole number, 1 or more.');
    assert.strictEqual(readSize('0'), '0 is not a size: enter 1 or more.');
    assert.strictEqual(readSize(0), '0 is not a size: enter 1 or more.');
    assert.strictEqual(readSize('-4'), 'A size cannot be negative: enter 1 or more.');
    assert.strictEqual(readSize('2.5'), '2.5 is not a whole number.');
    assert.strictEqual(readSize('abc'), '"abc" is not a number.');
    assert.strictEqual(readSize('a very long text typed here'), '"a very long …" is not a number.');
    assert.strictEqual(readSize(String(MAX_SIZE + 1)), 'Too large: at most 1,000,000,000.');
    assert.strictEqual(readSize(null), 'Enter a whole number, 1 or more.');
    assert.strictEqual(readSize({}), 'Enter a whole number, 1 or more.');
  });

  test('right sizes are taken, as typed or as numbers', () => {
    assert.strictEqual(readSize(' 64 '), 64);
    assert.strictEqual(readSize(64), 64);
    assert.strictEqual(readSize(String(MAX_SIZE)), MAX_SIZE);
  });

  test('a form: all fields checked at once; nothing taken while one is wrong', () => {
    const read = readInputs({ batch: '0', queryLength: '', keyLength: '12', dtype: 'int3', selfAttention: false });
    assert.deepStrictEqual(read.errors, {
      batch: '0 is not a size: enter 1 or more.',
      queryLength: 'Empty: enter a whole number, 1 or more.',
      dtype: 'Pick one of float32, bfloat16, float16, float64.',
    });
    assert.strictEqual(read.inputs, undefined);
  });

  test('with one input for Q, K and V the key length is the query length, whatever was typed there', () => {
    assert.deepStrictEqual(
      readInputs({ batch: '2', queryLength: '10', keyLength: '', dtype: 'bfloat16', selfAttention: true }).inputs,
      { batch: 2, queryLength: 10, keyLength: 10, dtype: 'bfloat16', selfAttention: true },
    );
    assert.deepStrictEqual(
      readInputs({ batch: 2, queryLength: 10, keyLength: 12, dtype: 'float32', selfAttention: false }).inputs,
      { batch: 2, queryLength: 10, keyLength: 12, dtype: 'float32', selfAttention: false },
    );
  });

  test('a saved state from before the self-attention switch reads with its default; junk reads as errors', () => {
    assert.deepStrictEqual(
      readInputs({ batch: 8, queryLength: 128, keyLength: 128, dtype: 'float32' }).inputs,
      DEFAULT_INPUTS,
    );
    assert.ok(readInputs(undefined).errors?.batch);
    assert.ok(
      readInputs({ batch: 1, queryLength: 1, dtype: 'toString', selfAttention: true }).errors?.dtype,
      'an inherited property is no dtype',
    );
  });
});
