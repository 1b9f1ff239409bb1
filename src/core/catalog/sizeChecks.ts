/**
 * Sizes a constructor rejects, as the framework itself fails (worded in findings/messages.ts): PyTorch raises
 * TypeError for a float and "negative dimension" for a negative size; js-pytorch fills arrays of that length
 * and throws RangeError "Invalid array length"; TF.js layers assert their own sizes (their catalog entries
 * report it).
 */
import type { Span } from '../ir/expr';
import type { Finding, Tensor } from '../values/layer';
import { describe, type Value } from '../values/value';
import type { Args, LayerSpec } from './spec';
import { integerFixes, negativeFixes } from './sizeFixes';
import { negativeSize, nonIntegerSize } from '../findings/messages';

type Found = Omit<Finding, 'span' | 'fixes'>;

function pytorch(name: string, v: Value): Found | undefined {
  if (v.t === 'float')
    return {
      code: 'non-integer-size',
      severity: 'error',
      message: nonIntegerSize('pytorch', name, describe(v)),
    };
  if (v.t === 'int' && v.p.constant !== undefined && v.p.constant < 0n) {
    return {
      code: 'negative-size',
      severity: 'error',
      message: negativeSize({ of: 'argument', framework: 'pytorch', name, shown: String(v.p.constant) }),
    };
  }
  return undefined;
}

function jsPytorch(name: string, v: Value): Found | undefined {
  if (v.t === 'float') {
    const shown = v.v === undefined ? 'not a whole number' : String(v.v);
    return {
      code: 'non-integer-size',
      severity: 'error',
      message: nonIntegerSize('js-pytorch', name, shown),
    };
  }
  if (v.t === 'int' && v.p.constant !== undefined && v.p.constant < 0n)
    return {
      code: 'negative-size',
      severity: 'error',
      message: negativeSize({ of: 'argument', framework: 'js-pytorch', name, shown: String(v.p.constant) }),
    };
  return undefined;
}

export function sizeFindings(
  spec: LayerSpec,
  args: Args,
  covered: ReadonlySet<string | undefined>,
  span: Span,
): Finding[] {
  if (spec.framework === 'tfjs') return [];
  const out: Finding[] = [];
  for (const param of spec.signature) {
    if (!param.size || !args.given(param.name) || covered.has(param.name)) continue;
    const v = args.value(param.name);
    const found = spec.framework === 'pytorch' ? pytorch(param.name, v) : jsPytorch(param.name, v);
    if (!found) continue;
    const written = args.expr(param.name);
    const fixes = found.code === 'non-integer-size' ? integerFixes(spec.framework, written) : negativeFixes(written);
    out.push({ ...found, span, fixes });
  }
  return out;
}

/**
 * A weight the layer would make with a negative dimension (a negative kernel size, a negative input width),
 * where no argument check said so already: each framework fails creating it, with its own words.
 */
export function negativeWeight(
  framework: LayerSpec['framework'],
  tensors: readonly Tensor[],
  span: Span,
): Finding | undefined {
  const tensor = tensors.find((t) => t.shape.some((d) => d.constant !== undefined && d.constant < 0n));
  if (!tensor || tensor.shape.some((d) => d.constant === undefined)) return undefined;
  const dims = tensor.shape.map((d) => d.constant!);
  return {
    code: 'negative-size',
    severity: 'error',
    span,
    fixes: [],
    message: negativeSize({ of: 'weight', framework, tensor: tensor.name, dims }),
  };
}
