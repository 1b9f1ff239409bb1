/**
 * Exact integer polynomials over named sizes. Counts are products of sizes, so a polynomial with
 * BigInt coefficients represents every count exactly, at any size, and prints as the formula users read
 * (`4·E² + 4·E`) when some size is unknown.
 */

/** A monomial: names with positive powers, kept sorted by name. */
type Monomial = ReadonlyArray<readonly [string, number]>;

interface Term {
  readonly mono: Monomial;
  readonly coef: bigint;
}

function monoKey(mono: Monomial): string {
  return mono.map(([n, p]) => (p === 1 ? n : `${n}^${p}`)).join('*');
}

function monoMul(a: Monomial, b: Monomial): Monomial {
  // A coefficient times a term, the commonest product.
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const powers = new Map<string, number>(a.map(([n, p]) => [n, p]));
  for (const [n, p] of b) powers.set(n, (powers.get(n) ?? 0) + p);
  return [...powers.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
}

function degree(mono: Monomial): number {
  return mono.reduce((d, [, p]) => d + p, 0);
}

export interface PolyWire {
  readonly value: bigint | undefined;
  readonly terms: ReadonlyMap<string, Term> | undefined;
}

export class Poly {
  /** Either `value` (a plain integer: the common case, kept off the Map path) or `terms`. */
  private constructor(
    private readonly value: bigint | undefined,
    private readonly termMap: ReadonlyMap<string, Term> | undefined,
  ) {}

  /** What a message between threads carries of it: a structured clone keeps the fields, not the class. */
  get wire(): PolyWire {
    return { value: this.value, terms: this.termMap };
  }

  static fromWire(w: PolyWire): Poly {
    return new Poly(w.value, w.terms);
  }

  static readonly ZERO = new Poly(0n, undefined);
  static readonly ONE = new Poly(1n, undefined);

  static int(n: bigint | number): Poly {
    return new Poly(BigInt(n), undefined);
  }

  static symbol(name: string): Poly {
    return new Poly(undefined, new Map([[name, { mono: [[name, 1]], coef: 1n }]]));
  }

  private get terms(): ReadonlyMap<string, Term> {
    if (this.termMap) return this.termMap;
    return this.value === 0n ? new Map() : new Map([['', { mono: [], coef: this.value! }]]);
  }

  /** Terms by the key of their monomial (terms read from a polynomial keep theirs). */
  private static from(terms: Iterable<readonly [string, Term]>): Poly {
    const map = new Map<string, Term>();
    for (const [key, t] of terms) {
      const coef = (map.get(key)?.coef ?? 0n) + t.coef;
      if (coef === 0n) map.delete(key);
      else map.set(key, { mono: t.mono, coef });
    }
    if (map.size === 0) return Poly.ZERO;
    if (map.size === 1 && map.has('')) return new Poly(map.get('')!.coef, undefined);
    return new Poly(undefined, map);
  }

  /** The exact value when no symbol remains. */
  get constant(): bigint | undefined {
    return this.value;
  }

  get isConstant(): boolean {
    return this.value !== undefined;
  }

  /** How many terms it has (1 for a constant). */
  get size(): number {
    return this.value !== undefined ? 1 : this.terms.size;
  }

  /** The highest total degree of a term (0 for a constant). */
  get degree(): number {
    let d = 0;
    if (this.value === undefined) for (const t of this.terms.values()) d = Math.max(d, degree(t.mono));
    return d;
  }

  /** The names still unknown, sorted. */
  get symbols(): string[] {
    const names = new Set<string>();
    for (const t of this.terms.values()) for (const [n] of t.mono) names.add(n);
    return [...names].sort();
  }

  add(other: Poly): Poly {
    if (this.value !== undefined && other.value !== undefined) return new Poly(this.value + other.value, undefined);
    if (this.value === 0n) return other;
    if (other.value === 0n) return this;
    return Poly.from([...this.terms, ...other.terms]);
  }

  neg(): Poly {
    if (this.value !== undefined) return new Poly(-this.value, undefined);
    return Poly.from([...this.terms].map(([key, t]) => [key, { mono: t.mono, coef: -t.coef }] as const));
  }

  sub(other: Poly): Poly {
    return this.add(other.neg());
  }

  mul(other: Poly): Poly {
    if (this.value !== undefined && other.value !== undefined) return new Poly(this.value * other.value, undefined);
    // A size times a constant, the commonest product of a symbolic count: its terms keep their monomials.
    if (this.value !== undefined) return other.scaled(this.value);
    if (other.value !== undefined) return this.scaled(other.value);
    const out: [string, Term][] = [];
    for (const a of this.terms.values()) {
      for (const b of other.terms.values()) {
        const mono = monoMul(a.mono, b.mono);
        out.push([monoKey(mono), { mono, coef: a.coef * b.coef }]);
      }
    }
    return Poly.from(out);
  }

  private scaled(c: bigint): Poly {
    if (c === 1n) return this;
    if (c === 0n) return Poly.ZERO;
    const map = new Map<string, Term>();
    for (const [key, t] of this.terms) map.set(key, { mono: t.mono, coef: t.coef * c });
    return new Poly(undefined, map);
  }

  pow(exponent: number): Poly {
    if (this.value !== undefined) return new Poly(this.value ** BigInt(exponent), undefined);
    let result = Poly.ONE;
    for (let i = 0; i < exponent; i++) result = result.mul(this);
    return result;
  }

  /** Exact division by an integer, when every coefficient divides; undefined otherwise. */
  divExact(divisor: bigint): Poly | undefined {
    if (divisor === 0n) return undefined;
    if (this.value !== undefined)
      return this.value % divisor === 0n ? new Poly(this.value / divisor, undefined) : undefined;
    const out: [string, Term][] = [];
    for (const [key, t] of this.terms) {
      if (t.coef % divisor !== 0n) return undefined;
      out.push([key, { mono: t.mono, coef: t.coef / divisor }]);
    }
    return Poly.from(out);
  }

  /**
   * Exact division by one term, when it divides every term (`(dim_head·heads) // heads` is `dim_head`, as
   * Python computes it for any whole sizes: the dividend is a multiple of the divisor); undefined otherwise.
   */
  divExactBy(divisor: Poly): Poly | undefined {
    if (divisor.value !== undefined) return this.divExact(divisor.value);
    if (divisor.terms.size !== 1) return undefined;
    const [d] = divisor.terms.values();
    const out: [string, Term][] = [];
    for (const t of this.terms.values()) {
      if (t.coef % d.coef !== 0n) return undefined;
      const powers = new Map<string, number>(t.mono.map(([n, p]) => [n, p]));
      for (const [n, p] of d.mono) {
        const left = (powers.get(n) ?? 0) - p;
        if (left < 0) return undefined;
        if (left === 0) powers.delete(n);
        else powers.set(n, left);
      }
      const mono: Monomial = [...powers.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      out.push([monoKey(mono), { mono, coef: t.coef / d.coef }]);
    }
    return Poly.from(out);
  }

  /** The polynomial with the named sizes given their values (the others stay names). */
  substitute(values: ReadonlyMap<string, bigint>): Poly {
    if (this.value !== undefined) return this;
    return Poly.from(
      [...this.terms.values()].map((t) => {
        let coef = t.coef;
        const mono: [string, number][] = [];
        for (const [n, p] of t.mono) {
          const v = values.get(n);
          if (v === undefined) mono.push([n, p]);
          else coef *= v ** BigInt(p);
        }
        return [monoKey(mono), { mono, coef }] as const;
      }),
    );
  }

  equals(other: Poly): boolean {
    if (this.value !== undefined && other.value !== undefined) return this.value === other.value;
    return this.sub(other).constant === 0n;
  }

  /** `4·E² + 4·E`: highest degree first, coefficient 1 omitted, `·` between factors. */
  toString(): string {
    if (this.terms.size === 0) return '0';
    const terms = [...this.terms.values()].sort((a, b) => {
      const d = degree(b.mono) - degree(a.mono);
      if (d !== 0) return d;
      const ka = monoKey(a.mono);
      const kb = monoKey(b.mono);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    let out = '';
    terms.forEach((t, i) => {
      const negative = t.coef < 0n;
      const abs = negative ? -t.coef : t.coef;
      const factors = t.mono.map(([n, p]) => (p === 1 ? n : `${n}${superscript(p)}`));
      const body = abs === 1n && factors.length ? factors.join('·') : [groupDigits(abs), ...factors].join('·');
      out += i === 0 ? (negative ? `-${body}` : body) : negative ? ` - ${body}` : ` + ${body}`;
    });
    return out;
  }
}

/**
 * A quotient that does not simplify, as the one name it stays in formulas: `(v + 63) // 64`. A name, not a
 * polynomial, so `(a // b)·b` is never taken for `a`: floor division is not exact division.
 */
export function quotientName(a: Poly, op: '/' | '//', b: Poly): string {
  const wrap = (p: Poly) => (p.size > 1 || (p.constant ?? 0n) < 0n ? `(${p})` : p.toString());
  // A divisor that is a product is one: `a / (3·b)`, not `a / 3·b`.
  const divisor = /^[\w.]+$/.test(b.toString()) ? b.toString() : `(${b})`;
  return `(${wrap(a)} ${op} ${divisor})`;
}

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function superscript(n: number): string {
  return String(n)
    .split('')
    .map((d) => SUPERSCRIPTS[Number(d)])
    .join('');
}

/** `1050624` -> `1,050,624`, exact for BigInt. */
export function groupDigits(n: bigint): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString();
  // Chunked from the right in one pass: a lookahead regex is quadratic on long numbers.
  const head = digits.length % 3 || 3;
  const groups = [digits.slice(0, head)];
  for (let i = head; i < digits.length; i += 3) groups.push(digits.slice(i, i + 3));
  const grouped = groups.join(',');
  return negative ? `-${grouped}` : grouped;
}
