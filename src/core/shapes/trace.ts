/**
 * Where a tensor comes from, for recognising attention written by hand: the projection it is the output of
 * (through reshapes, slices and element-wise operations), the forward() argument it was computed from, and
 * how the last reshape split it into heads. A scores product of two projections, a softmax over it and a
 * product with a third projection make the attention's core; the layer applied to that is its output
 * projection.
 */
import { Poly, quotientName } from '../values/symbolic';
import type { Core, Source, Trace, Value } from '../values/value';

type Tensor = Extract<Value, { t: 'tensor' }>;

/** `result` with the trace of `from`, the tensor it was computed from by a shape or element-wise operation. */
export function carry(result: Value, from: Tensor): Value {
  if (!from.trace || result.t !== 'tensor' || result.trace) return result;
  return { ...result, trace: from.trace };
}

/** The trace an operation over these values keeps: a core wins; one source when they agree; else none. */
export function joined(values: readonly Value[]): Trace | undefined {
  const traces = values.map((v) => (v.t === 'tensor' ? v.trace : undefined)).filter((t): t is Trace => t !== undefined);
  const withCore = traces.find((t) => t.core);
  if (withCore) return withCore;
  const sources = traces.filter((t) => t.source?.layer);
  if (sources.length === 0) return traces[0];
  return sources.every(
    (t) => t.source!.layer === sources[0].source!.layer && t.source!.part === sources[0].source!.part,
  )
    ? sources[0]
    : undefined;
}

/**
 * `a @ b`: the scores of two projections, or the weights of a softmaxed core applied to the values. `plain`
 * when it is a matmul of the operands as they are (no einsum, no transposing flag), whose axes say the head
 * sizes: q @ kᵀ reads q's last axis and kᵀ's one before last; weights @ v keep v's last.
 */
export function product(a: Tensor, b: Tensor, plain: boolean): Trace | undefined {
  const axis = (t: Tensor, i: number) => (plain && (i === 1 || !t.partial) ? t.shape[t.shape.length - i] : undefined);
  const core = a.trace?.core;
  if (core && !core.v && core.softmax)
    return b.trace?.source?.layer ? { core: { ...core, v: asRead(b.trace.source, axis(b, 1)) } } : undefined;
  const q = a.trace?.source;
  const k = b.trace?.source;
  if (core || b.trace?.core || !q?.layer || !k?.layer) return undefined;
  return { core: agreed({ q: asRead(q, axis(a, 1)), k: asRead(k, axis(b, 2)), softmax: false }, a, b) };
}

/**
 * The core, without heads where the tensors that meet disagree with the split that named them: a rank-4
 * tensor enters the product as (batch, heads, positions, head size), and Falcon's `view(B, T, heads + 2, d)`
 * of its fused projection, sliced into 71 query heads and one key and value head, is no 73 heads. Queries
 * must hold the heads the split named; keys and values as many or copies of them (grouped-query attention
 * repeats its key and value heads). A disagreement leaves the heads not known, which is never a wrong count.
 */
function agreed(core: Core, q: Tensor | undefined, k: Tensor | undefined, v?: Tensor): Core {
  const axis = (t: Tensor | undefined) => (t && !t.partial && t.shape.length === 4 ? t.shape[1]?.constant : undefined);
  const disagrees = (source: Source | undefined, t: Tensor | undefined, copies: boolean) => {
    const [read, named] = [axis(t), source?.heads?.constant];
    return read !== undefined && named !== undefined && named > 0n && (copies ? read % named !== 0n : read !== named);
  };
  if (!disagrees(core.q, q, false) && !disagrees(core.k, k, true) && !disagrees(core.v, v, true)) return core;
  const headless = (source: Source): Source => ({ ...source, heads: undefined });
  return { ...core, q: headless(core.q), k: headless(core.k), ...(core.v ? { v: headless(core.v) } : {}) };
}

/** A softmax over the scores. */
export function softmaxed(t: Tensor): Tensor {
  const core = t.trace?.core;
  return core && !core.v && !core.softmax ? { ...t, trace: { core: { ...core, softmax: true } } } : t;
}

/** `scaled_dot_product_attention(q, k, v)`: the whole core at once. */
export function fusedCore(q: Value | undefined, k: Value | undefined, v: Value | undefined): Trace | undefined {
  const source = (x: Value | undefined) => (x?.t === 'tensor' && !x.trace?.core ? x.trace?.source : undefined);
  const [qs, ks, vs] = [source(q), source(k), source(v)];
  const tensor = (x: Value | undefined) => (x?.t === 'tensor' ? x : undefined);
  return qs?.layer && ks?.layer && vs?.layer
    ? { core: agreed({ q: qs, k: ks, v: vs, softmax: true }, tensor(q), tensor(k), tensor(v)) }
    : undefined;
}

/**
 * The source after a reshape whose last two dimensions split the features into (heads, headDim), of a
 * tensor of `rank` axes where it is known.
 */
export function splitHeads(source: Source, last: readonly (Poly | undefined)[], rank?: number): Source {
  if (last.length < 2) return source;
  const [named, headDim] = last.slice(-2);
  const width = source.width;
  // A singleton axis between the heads and the head size (`reshape([b, -1, kvHeads, 1, headSize])` before a
  // repeat of the keys): the heads are the axis before it, unless one head of that size is the whole width.
  const at =
    named?.constant === 1n && last.length >= 3 && width && headDim && !headDim.equals(width)
      ? last.length - 3
      : last.length - 2;
  const heads = last[at];
  // One of (heads, head size) is the width over the other only when no axis before them holds features too:
  // `reshape(B, N, 3, heads, -1)` of a fused qkv leaves a third of them per head. Sizes not known there are
  // taken for positions (`B, T, C = x.size()` of a tensor whose sizes are not followed), but no more of them
  // than the tensor had axes before its features, where its rank is known.
  const before = last.slice(0, at);
  const positions =
    before.every((p) => p?.constant === undefined || p.constant === 1n) &&
    (rank === undefined || before.length <= rank - 1);
  const whole = width && positions;
  const h = heads ?? (whole && headDim?.constant ? width.divExact(headDim.constant) : undefined);
  // TypeScript has no `//`: there the quotient is written as its code writes one.
  const d =
    headDim ??
    (whole && heads ? perHead(width, heads, source.layer?.layer.framework === 'pytorch' ? '//' : '/') : undefined);
  return { ...source, heads: h, headDim: d };
}

/**
 * The head size of features split into `heads` (`view(B, T, heads, C // heads)`, C not known): the view holds
 * every feature, so they divide. Exact where it divides; where a size is a name, one name for the quotient as
 * the code would write it (Python's `width // heads`); none where known sizes do not divide (the view raises).
 */
export function perHead(width: Poly, heads: Poly, op: '/' | '//'): Poly | undefined {
  const h = heads.constant;
  const exact = width.divExactBy(heads);
  if (exact || (h !== undefined && (width.isConstant || h <= 0n))) return exact;
  return Poly.symbol(quotientName(width, op, heads));
}

/**
 * A source as it enters the scores or the values product: its head size is the axis the product reads
 * (`d`), when the tensor's shape says it, whatever a reshape before suggested. The features of all heads
 * stay what the split made them; its width may be a fused projection's, which is no head's.
 */
export function asRead(source: Source, d: Poly | undefined): Source {
  if (!d?.constant || (source.headDim && source.headDim.equals(d))) return source;
  const heads = source.headDim ? source.heads?.mul(source.headDim).divExact(d.constant) : source.heads;
  return { ...source, heads, headDim: d };
}
