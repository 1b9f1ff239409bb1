/**
 * An exception an entry point meets is either one the analysis expects (its work budget ran out, or the
 * stack did on code nested past it) or an internal error: a shape of value no rule foresaw. The editor and
 * the CLI end both as "unknown" for that part of the file and go on, never crashing. The tests and the fuzz
 * set `rethrow`, so that an internal error fails them instead of hiding as a gap.
 */
import { BudgetExceeded } from './budget';

export const internalErrors = { rethrow: false };

export function isExpected(e: unknown): boolean {
  return e instanceof BudgetExceeded || (e instanceof RangeError && e.message.includes('call stack'));
}

/** Rethrows `e` when it is an internal error and the run asked to see those. */
export function surfaceInternal(e: unknown): void {
  if (internalErrors.rethrow && !isExpected(e)) throw e;
}
