/** A call's arguments bound to values: what a constructor, a function or a catalog layer is given. */
import type { Arg, Expr } from '../ir/expr';
import type { Value } from './value';

export type CallExpr = Extract<Expr, { k: 'call' }>;

export interface BoundCall {
  readonly positional: readonly { value: Value; arg?: Arg }[];
  readonly keywords: ReadonlyMap<string, { value: Value; arg?: Arg }>;
  /** The arguments could not be followed (`cls(**kwargs)` with kwargs not known): every parameter is unknown. */
  readonly opaque?: boolean;
}

/** The values of bound keyword arguments, without the expressions they came from. */
export function plain(keywords: ReadonlyMap<string, { value: Value }>): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, v] of keywords) out.set(k, v.value);
  return out;
}
