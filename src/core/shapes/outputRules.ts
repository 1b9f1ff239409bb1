/** The shape a layer's output rule gives an input, as TF.js computes it (batch first). */
import type { OutputRule } from '../values/layer';
import { Poly } from '../values/symbolic';
import type { Shape } from '../values/value';

export function applyRule(rule: OutputRule, input: Shape): Shape {
  switch (rule.k) {
    case 'same':
      return input;
    case 'last':
      return [...input.slice(0, -1), ...rule.sizes];
    case 'append':
      return [...input, rule.size];
    case 'windows': {
      const out = spatialOut(input, rule);
      const channels = rule.channels ?? (rule.channelsFirst ? input[1] : input[input.length - 1]);
      return rule.channelsFirst ? [input[0], channels, ...out] : [input[0], ...out, channels];
    }
    case 'global':
      return [input[0], rule.channelsFirst ? input[1] : input[input.length - 1]];
    case 'flatten':
      return [input[0], product(input.slice(1))];
    case 'dot':
      // The dot product of two vectors per example: one number each.
      return input.length === 2 ? [input[0], Poly.ONE] : [input[0], undefined];
    case 'reshape':
      return rule.target ? [input[0], ...inferred(rule.target, input)] : [input[0], undefined];
    case 'recurrent':
      return rule.sequences ? [input[0], input[1], rule.units] : [input[0], rule.units];
    case 'bidirectional': {
      const out = rule.inner ? applyRule(rule.inner, input) : [input[0], undefined];
      const last = out[out.length - 1];
      return [...out.slice(0, -1), last && rule.concat ? last.mul(Poly.int(2)) : rule.concat ? undefined : last];
    }
    case 'perStep': {
      const out = rule.inner ? applyRule(rule.inner, [input[0], ...input.slice(2)]) : [input[0], undefined];
      return [input[0], input[1], ...out.slice(1)];
    }
  }
}

function product(dims: Shape): Poly | undefined {
  return dims.every((d): d is Poly => d !== undefined) ? dims.reduce((p, d) => p.mul(d), Poly.ONE) : undefined;
}

/** `targetShape` with its one -1 inferred from the input's size. */
function inferred(target: Shape, input: Shape): Shape {
  const dims = [...target];
  const free = dims.findIndex((d) => d?.constant === -1n);
  if (free >= 0) {
    const whole = product(input.slice(1));
    const rest = product(dims.filter((_, i) => i !== free));
    const size = whole?.constant !== undefined && rest?.constant ? whole.constant / rest.constant : undefined;
    dims[free] = size === undefined ? undefined : Poly.int(size);
  }
  return dims;
}

/** The spatial axes of `input` through the rule's windows (pooling and convolution alike). */
function spatialOut(input: Shape, rule: Extract<OutputRule, { k: 'windows' }>): Shape {
  const spatial = rule.channelsFirst ? input.slice(2, 2 + rule.rank) : input.slice(1, 1 + rule.rank);
  return Array.from({ length: rule.rank }, (_, i) =>
    outLength(spatial[i], rule.window[i], rule.strides[i], rule.dilation[i], rule.padding),
  );
}

/** One spatial axis after a window of `k` with stride `s` and dilation `d`, as TF.js's convOutputLength. */
function outLength(
  n: Poly | undefined,
  k: Poly | undefined,
  s: Poly | undefined,
  d: Poly | undefined,
  padding: string,
): Poly | undefined {
  const [N, K, S, D] = [n, k, s, d].map((p) => p?.constant);
  if (N === undefined || K === undefined || S === undefined || D === undefined || S <= 0n) return undefined;
  const span = (K - 1n) * D + 1n;
  const length = padding === 'same' ? N : N - span + 1n;
  if (padding !== 'same' && padding !== 'valid') return undefined;
  return length <= 0n ? undefined : Poly.int((length + S - 1n) / S);
}
