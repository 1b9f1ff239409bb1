/**
 * Amounts in the units people read: `5.25 GFLOP`, `27.0 MiB`. A wall of digits such as 5,248,450,560 has to
 * be counted before it means anything; the exact digits stay available beside these (tooltips, Markdown).
 */

const SI = ['', 'k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'];
const BINARY = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** Three significant digits (`5.25`, `27.0`, `475`), or undefined when rounding reaches 1000 and the next prefix reads better. */
function threeDigits(x: number): string | undefined {
  const text = x.toPrecision(3);
  return Number(text) >= 1000 ? undefined : text;
}

/**
 * `1.15e+18`, from the digits themselves: past the prefixes an amount is no double (`Number` of one past
 * 1e308 is Infinity) and would print as "Infinity" or "NaN".
 */
export function scientific(n: bigint): string {
  if (n < 0n) return `-${scientific(-n)}`;
  const digits = n.toString();
  return `${digits[0]}.${digits.slice(1, 3).padEnd(2, '0')}e+${digits.length - 1}`;
}

/** A share of a total as a percentage rounded to one decimal, worked out on the integers. */
export function percentOf(part: bigint, total: bigint): number {
  return Number(((part * 2000n) / total + 1n) / 2n) / 10;
}

/** `640 FLOPs`, `1.50 kFLOP`, `5.25 GFLOP`: decimal prefixes, as FLOP counts are quoted. */
export function flopsText(n: bigint): string {
  if (n < 0n) return `-${flopsText(-n)}`;
  if (n < 1000n) return `${n} FLOP${n === 1n ? '' : 's'}`;
  if (n >= 10n ** 27n) return `${scientific(n)} FLOPs`;
  let x = Number(n);
  let prefix = 0;
  while (x >= 1000 && prefix < SI.length - 1) {
    x /= 1000;
    prefix++;
  }
  const digits = threeDigits(x);
  if (digits === undefined && prefix < SI.length - 1) return `1.00 ${SI[prefix + 1]}FLOP`;
  return `${digits ?? x.toFixed(0)} ${SI[prefix]}FLOP`;
}

/**
 * `512 bytes`, `27.0 MiB`, `1.85 GiB`: binary prefixes, as memory is sold and reported. One decimal below a
 * GiB and two from there, as the hovers have always shown weights.
 */
export function bytesText(n: bigint): string {
  if (n < 0n) return `-${bytesText(-n)}`;
  if (n < 1024n) return `${n} byte${n === 1n ? '' : 's'}`;
  if (n >= 1024n ** 7n) return `${scientific(n)} bytes`;
  let x = Number(n) / 1024;
  let unit = 0;
  // 1023.96 KiB would print as "1024.0 KiB": move up once the rounded value reaches 1024.
  const decimals = (u: number) => (u >= 2 ? 2 : 1);
  while (unit < BINARY.length - 1 && Number(x.toFixed(decimals(unit))) >= 1024) {
    x /= 1024;
    unit++;
  }
  return `${x.toFixed(decimals(unit))} ${BINARY[unit]}`;
}
