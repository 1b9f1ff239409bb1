/**
 * What a TF.js layer is built for: the input shape it is first applied to, else the one its config declares,
 * read in the order TF.js reads it (`batchInputShape`, then `inputShape`, then `inputDim` where the layer
 * takes one). Shapes are batch first; an unknown dimension is undefined.
 */
import { Poly } from '../values/symbolic';
import { asPoly, type Shape, type Value } from '../values/value';
import { groupDigits } from '../values/symbolic';
import type { Args, Problem } from './spec';
import { integerFixes, negativeFixes } from './sizeFixes';
import { negativeSize, nonIntegerSize, zeroSize } from '../findings/messages';

export const UNKNOWN_INPUT =
  'The input size is set when the layer is first applied, and this file does not show what it is applied to.';

function dims(v: Value): Shape | undefined {
  return v.t === 'seq' ? v.items.map((i) => asPoly(i)) : undefined;
}

/** The input shape the config declares, batch first, or undefined. */
export function declaredShape(a: Args, withInputDim: boolean): Shape | undefined {
  const batch = dims(a.value('batchInputShape'));
  if (batch) return batch;
  const shape = dims(a.value('inputShape'));
  if (shape) return [undefined, ...shape];
  const dim = withInputDim ? asPoly(a.value('inputDim')) : undefined;
  return dim ? [undefined, dim] : undefined;
}

/** The shape the layer is built for: what it is applied to first, else its declared shape. */
export function builtShape(a: Args, withInputDim: boolean, index = 0): Shape | undefined {
  return a.inputs[index] ?? (index === 0 ? declaredShape(a, withInputDim) : undefined);
}

/** The last axis of a shape, or the symbol `in` when it is not known. */
export function lastAxis(shape: Shape | undefined): Poly {
  return shape?.[shape.length - 1] ?? Poly.symbol('in');
}

/** The count cannot be a number while the input's size is the placeholder `in`. */
export function unknownInput(...sizes: Poly[]): string | undefined {
  return sizes.some((p) => p.symbols.includes('in')) ? UNKNOWN_INPUT : undefined;
}

/** A config field as a list of sizes (`kernelSize: 3` is `[3, 3]` for a 2-D layer). */
export function sizes(a: Args, name: string, rank: number, fallback?: number): (Poly | undefined)[] {
  const v = a.value(name);
  if (v.t === 'seq') return v.items.map((i) => asPoly(i));
  const one =
    asPoly(v) ?? (v.t === 'unknown' && !a.given(name) && fallback !== undefined ? Poly.int(fallback) : undefined);
  return Array.from({ length: rank }, () => one);
}

/**
 * TF.js's assertPositiveInteger on a size: `Expected units to be a positive integer, but got 7.5.` The code
 * names what is wrong with it; only values TF.js certainly rejects are reported.
 */
export function positiveSize(a: Args, name: string): Problem[] {
  if (!a.given(name)) return [];
  const v = a.value(name);
  const code =
    v.t === 'float'
      ? v.v === undefined
        ? undefined
        : Number.isInteger(v.v) && v.v > 0
          ? undefined
          : 'non-integer-size'
      : v.t === 'int' && v.p.constant !== undefined
        ? v.p.constant < 0n
          ? 'negative-size'
          : v.p.constant === 0n
            ? 'zero-size'
            : undefined
        : undefined;
  if (!code) return [];
  const shown = v.t === 'float' ? jsNumberText(v.v!) : groupDigits(asPoly(v)!.constant!).replace(/,/g, '');
  const fixes = (args: Args) =>
    code === 'non-integer-size'
      ? integerFixes('tfjs', args.expr(name))
      : code === 'negative-size'
        ? negativeFixes(args.expr(name))
        : [];
  return [
    {
      code,
      severity: 'error',
      arg: name,
      message:
        code === 'non-integer-size'
          ? nonIntegerSize('tfjs', name, shown)
          : code === 'negative-size'
            ? negativeSize({ of: 'argument', framework: 'tfjs', name, shown })
            : zeroSize('tfjs', name, shown),
      fixes,
    },
  ];
}

/** A number as JavaScript prints it (`7.5`, `Infinity`, `NaN`). */
export function jsNumberText(n: number): string {
  return String(n);
}
