/** Arguments of torch calls as the tape reads them: numbers, flags, sizes and index items. */
import type { Dim, IndexItem } from './program';
import { asPoly, type Value } from '../values/value';

export type Args = readonly Value[];
export type Keywords = ReadonlyMap<string, Value>;

export function int(v: Value | undefined): number | undefined {
  const c = v ? asPoly(v)?.constant : undefined;
  return c === undefined ? undefined : Number(c);
}

/** Dropout's p: 0.5 when not given; NaN (refused by the replay) when given but not known. */
export function probability(v: Value | undefined): number {
  if (v === undefined) return 0.5;
  return (v.t === 'float' ? v.v : int(v)) ?? NaN;
}

export function truth(v: Value | undefined): boolean | undefined {
  return v?.t === 'bool'
    ? v.v
    : v === undefined || v.t === 'none'
      ? undefined
      : int(v) === undefined
        ? undefined
        : int(v) !== 0;
}

export function inPlace(keywords: Keywords): boolean {
  return truth(keywords.get('inplace')) === true;
}

/** `view(B, T, -1)` or `view((B, T, -1))`: sizes that are not numbers stay not known. */
export function dims(positional: Args): Dim[] {
  const items = positional.length === 1 && positional[0].t === 'seq' ? positional[0].items : positional;
  return items.map((v) => asPoly(v));
}

export function indexItem(k: Value): IndexItem | undefined {
  if (k.t === 'none') return { k: 'none' };
  if (k.t === 'int') return { k: 'int', i: k.p };
  if (k.t === 'seq' && !k.tuple && k.items.every((i) => i.t === 'int')) return { k: 'list', length: k.items.length };
  if (k.t !== 'slice') return undefined;
  const bound = (v: Value) => (v.t === 'none' ? undefined : v.t === 'int' ? v.p : null);
  const [start, stop, step] = [bound(k.lower), bound(k.upper), bound(k.step)];
  if (start === null || stop === null || step === null || (step !== undefined && step.constant === undefined))
    return undefined;
  return { k: 'slice', start, stop, step };
}
