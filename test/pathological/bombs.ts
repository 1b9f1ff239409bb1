/**
 * Allocation bombs: lists, strings, tuples, ranges and dicts repeated or doubled past any memory, nested
 * comprehensions. A layer sized from the bomb follows; its count, where one is printed, must be the one
 * Python would compute (an unknown count is fine: past a bound the value is unknown).
 */
import { Lines, type ExpectedCount, type FuzzInput } from './input';
import type { Choices } from './random';

interface Bomb {
  readonly name: string;
  /** Statements that leave the bomb in `xs`. */
  readonly code: string[];
  /** `len(xs)` in Python, or undefined where Python raises (MemoryError, OverflowError) and the length comes from the bomb. */
  readonly length: bigint | undefined;
}

/** Past this many items or characters built at once, Python raises MemoryError on any machine. */
const MEMORY = 2n ** 40n;
/** A repeat count or a length past this raises OverflowError (it does not fit an index). */
const INDEX = 2n ** 63n;
/** A length up to this is written in the code (`[s] * 3`, a small side of a comprehension), not made by the bomb. */
const WRITTEN = 1000n;

/**
 * Where Python raises, no count may come from the bomb's size; a length that does not depend on it
 * (`len([s] * 3)` is 3 whatever s is) may still be printed.
 */
function bombOf(name: string, code: string[], length: bigint, built: bigint, counts: bigint = length): Bomb {
  const raises = built >= MEMORY || counts >= INDEX;
  return { name, code, length: raises && length > WRITTEN ? undefined : length };
}

/** A size that is either small (up to 2^20) or huge (2^40 and past): between, whether Python runs out of memory depends on the machine. */
function size(c: Choices): { text: string; value: bigint } {
  const huge = c.chance(0.6);
  const k = huge ? c.int(40, 4096) : c.int(1, 20);
  const decimal = huge ? c.int(13, 40) : c.int(1, 6);
  return c.pick([
    { text: `10**${decimal}`, value: 10n ** BigInt(decimal) },
    { text: `2**${k}`, value: 2n ** BigInt(k) },
    { text: `${10n ** BigInt(decimal) + BigInt(k)}`, value: 10n ** BigInt(decimal) + BigInt(k) },
  ]);
}

function repeated(c: Choices): Bomb {
  const { text: n, value } = size(c);
  const m = BigInt(c.int(2, 1000));
  return c.pick([
    () => bombOf('an empty list repeated', [`xs = [] * ${n}`], 0n, 0n, value),
    () => bombOf('a list repeated', [`xs = [0] * ${n}`], value, value),
    () => bombOf('a string repeated', [`xs = "ab" * ${n}`], 2n * value, 2n * value),
    () => bombOf('a range listed and repeated', [`xs = list(range(${n})) * ${m}`], value * m, value * m),
    () => bombOf('a range as a tuple', [`xs = tuple(range(${n}))`], value, value),
    () => bombOf('a tuple repeated', [`xs = (0,) * ${n}`], value, value),
    () => bombOf('a dict of a range', [`xs = {i: i for i in range(${n})}`], value, value),
    () => bombOf('a range', [`xs = range(${n})`], value, 0n, value),
    () => bombOf('a list of repeated lists', [`xs = [[0] * ${n}] * ${m}`], m, value),
    () => bombOf('a joined list of strings', [`xs = "".join(["ab"] * ${n})`], 2n * value, 2n * value),
    () =>
      bombOf('a list appended to in a loop', ['xs = []', `for i in range(${n}):`, '    xs.append(i)'], value, value),
  ])();
}

/** "ab" doubled `k` times (2^(k+1) characters), then read the ways that copy it. */
function doubled(c: Choices): Bomb {
  const k = c.chance(0.7) ? c.int(40, 64) : c.int(1, 18);
  const half = 2n ** BigInt(k);
  const step = c.pick(['s = s + s', 's += s', 's = s * 2', 's = f"{s}{s}"']);
  const [use, length, built] = c.pick<[string, bigint, bigint]>([
    ['s.split()', 1n, 2n * half],
    ['s.upper()', 2n * half, 2n * half],
    ['"-".join(s)', 4n * half - 1n, 4n * half],
    ['{s: 1, s.upper(): 2}', 2n, 2n * half],
    ['s.split("b")', half + 1n, 2n * half],
    ['f"{s}{s}"', 4n * half, 4n * half],
    ['s.replace("a", "aa")', 3n * half, 3n * half],
    ['[s] * 3', 3n, 2n * half],
  ]);
  return bombOf(
    `a string doubled ${k} times, then ${use}`,
    ['s = "ab"', `for _ in range(${k}):`, `    ${step}`, `xs = ${use}`],
    length,
    built,
  );
}

function comprehension(c: Choices): Bomb {
  const side = () => BigInt(c.chance(0.5) ? c.int(2, 1000) : c.int(1_000_000, 10_000_000));
  const [a, b, d] = [side(), side(), side()];
  const times = BigInt(c.int(1, 80));
  return c.pick([
    () => bombOf('nested list comprehensions', [`xs = [[x * y for x in range(${a})] for y in range(${b})]`], b, a * b),
    () => bombOf('a flattened comprehension', [`xs = [x for y in range(${b}) for x in range(${a})]`], a * b, a * b),
    () =>
      bombOf(
        'three nested comprehensions',
        [`xs = [[[0 for _ in range(${a})] for _ in range(${b})] for _ in range(${d})]`],
        d,
        a * b * d,
      ),
    () =>
      bombOf(
        'a dict comprehension over pairs',
        [`xs = {(x, y): 0 for x in range(${a}) for y in range(${b})}`],
        a * b,
        a * b,
      ),
    () =>
      bombOf(
        'a list doubled in a loop',
        ['xs = [0]', `for _ in range(${times}):`, '    xs = xs + xs'],
        2n ** times,
        2n ** times,
      ),
    () =>
      bombOf(
        'a list extended by itself',
        ['xs = [0, 1]', `for _ in range(${times}):`, '    xs.extend(xs)'],
        2n ** (times + 1n),
        2n ** (times + 1n),
      ),
  ])();
}

/** `in_features` read from the bomb, and its value in Python. */
function sizeFrom(c: Choices, length: bigint): [string, bigint] {
  return c.pick<[string, bigint]>([
    ['len(xs)', length],
    ['len(xs) + 4', length + 4n],
    ['len(xs) % 7 + 1', (length % 7n) + 1n],
    ['min(len(xs), 16)', length < 16n ? length : 16n],
    ['max(len(xs), 2) // 2 + 1', (length > 2n ? length : 2n) / 2n + 1n],
  ]);
}

export function bombInput(c: Choices, index: number): FuzzInput {
  const bomb = c.pick([repeated, doubled, comprehension])(c);
  const [size, features] = sizeFrom(c, bomb.length ?? 0n);
  const params = bomb.length === undefined ? undefined : features * 4n + 4n;
  const lines = new Lines();
  lines.add('import torch', 'import torch.nn as nn');
  const head = lines.add('head = nn.Linear(3, 5)');
  const counts: ExpectedCount[] = [{ line: head, params: 20n, required: true }];
  if (c.chance(0.5)) {
    lines.add(...bomb.code);
    counts.push({ line: lines.add(`fc = nn.Linear(${size}, 4)`), params, required: false });
  } else {
    // Inside a constructor: the model built with it gets the bomb too.
    const cls = lines.add('class M(nn.Module):', '    def __init__(self):', '        super().__init__()');
    lines.add(...bomb.code.map((l) => `        ${l}`));
    const fc = lines.add(`        self.fc = nn.Linear(${size}, 4)`);
    const model = lines.add('m = M()');
    counts.push(
      { line: cls, params, required: false },
      { line: fc, params, required: false },
      { line: model, params, required: false },
    );
  }
  return { name: `bomb: ${bomb.name}, ${size} #${index}`, language: 'python', text: lines.text, expect: { counts } };
}
