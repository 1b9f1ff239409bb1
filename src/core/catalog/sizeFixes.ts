/**
 * Quick fixes for sizes a framework rejects, where the fix is plain from the code: a float size becomes an
 * integer (`//` for a Python division, `Math.floor(…)` in TypeScript, the number itself for a literal), a
 * negative literal loses its sign, a head or group count that does not divide becomes the nearest that does.
 * Each edit rewrites only the argument as written at the call.
 */
import type { Expr, Span } from '../ir/expr';
import type { Fix, Framework } from '../values/layer';

/** The empty span at the start or the end of `s`, to insert text there. */
function point(s: Span, at: 'start' | 'end'): Span {
  return at === 'start'
    ? {
        start: s.start,
        end: s.start,
        startLine: s.startLine,
        startChar: s.startChar,
        endLine: s.startLine,
        endChar: s.startChar,
      }
    : { start: s.end, end: s.end, startLine: s.endLine, startChar: s.endChar, endLine: s.endLine, endChar: s.endChar };
}

function wrap(e: Expr, before: string, after: string, title: string): Fix {
  return {
    title,
    edits: [
      { span: point(e.span, 'start'), text: before },
      { span: point(e.span, 'end'), text: after },
    ],
  };
}

/** A float literal as the integers next to it (`7.5`: 7 and 8; `384.0`: 384), those a size can be. */
function nearIntegers(x: number): number[] {
  const down = Math.floor(x);
  const up = Math.ceil(x);
  return (down === up ? [down] : [down, up]).filter((n) => n >= 1 && Number.isSafeInteger(n));
}

/** A size that is a float: PyTorch wants an int, js-pytorch and TF.js a whole number. */
export function integerFixes(framework: Framework, e: Expr | undefined): Fix[] {
  if (!e) return [];
  if (e.k === 'float')
    return nearIntegers(e.value).map((n) => ({ title: `Use ${n}`, edits: [{ span: e.span, text: String(n) }] }));
  if (framework !== 'pytorch') return [wrap(e, 'Math.floor(', ')', 'Round down with Math.floor(…)')];
  if (e.k === 'binary' && e.op === '/' && e.opSpan)
    return [{ title: 'Use // (integer division)', edits: [{ span: e.opSpan, text: '//' }] }];
  return [wrap(e, 'int(', ')', 'Convert with int(…)')];
}

/** `-512` written as a size: the number without its sign. */
export function negativeFixes(e: Expr | undefined): Fix[] {
  if (e?.k !== 'unary' || e.op !== '-' || e.operand.k !== 'int') return [];
  return [{ title: `Use ${e.operand.value}`, edits: [{ span: e.span, text: String(e.operand.value) }] }];
}

/** How far from the written count the quick fix looks for one that divides (a huge prime has none near). */
const DIVISOR_SEARCH = 4096n;

/** Counts that divide `total`, nearest to `count` below and above, within a bounded search. */
function nearestDivisors(total: bigint, count: bigint): bigint[] {
  const out: bigint[] = [];
  for (let d = count - 1n; d >= 1n && count - d <= DIVISOR_SEARCH; d--)
    if (total % d === 0n) {
      out.push(d);
      break;
    }
  for (let d = count + 1n; d <= total && d - count <= DIVISOR_SEARCH; d++)
    if (total % d === 0n) {
      out.push(d);
      break;
    }
  return out;
}

/** A head or group count written as a number that does not divide `total`: the nearest ones that do. */
export function divisorFixes(total: bigint, count: bigint, e: Expr | undefined, title: (d: bigint) => string): Fix[] {
  if (e?.k !== 'int') return [];
  return nearestDivisors(total, count).map((d) => ({ title: title(d), edits: [{ span: e.span, text: String(d) }] }));
}
