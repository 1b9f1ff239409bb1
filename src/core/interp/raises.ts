/** A raise certain to happen while a model is built: what is raised, with its message where known. */
import type { Expr, Span } from '../ir/expr';
import type { Value } from '../values/value';
import type { Frame } from './frame';

/** A `raise` (its exception expression), a failed `assert` (its message), or a builtin that raised. */
export interface RaiseSite {
  readonly raise?: Expr;
  readonly message?: Expr;
  readonly builtin?: BuiltinRaise;
}

/**
 * Thrown by a builtin Python certainly raises from (`float(None)`): the statement evaluating it ends with a
 * raise, as a `raise` statement would.
 */
export class BuiltinRaise extends Error {
  constructor(
    readonly exception: string,
    readonly text: string,
    /** Already reported where it is raised (a layer constructor's own finding): the run only stops. */
    readonly reported = false,
  ) {
    super(text);
  }
}

/** What reporting a raise needs of the interpreter. */
export interface RaiseReporter {
  readonly shared: { readonly unsure: number; readonly building: number };
  readonly hooks: { raised?(span: Span, exception: string, message: string | undefined): void };
  eval(e: Expr, frame: Frame): Value;
}

export function reportRaise(ev: RaiseReporter, span: Span, what: RaiseSite, frame: Frame): void {
  if (ev.shared.unsure > 0 || ev.shared.building === 0 || !ev.hooks.raised) return;
  if (what.builtin?.reported) return;
  if (what.builtin) return ev.hooks.raised(span, what.builtin.exception, what.builtin.text);
  const call = what.raise?.k === 'call' ? what.raise : undefined;
  const exception = what.raise ? (call?.callee ?? what.raise) : undefined;
  const name =
    exception?.k === 'name'
      ? exception.id
      : exception?.k === 'attr'
        ? exception.id
        : what.raise
          ? 'an exception'
          : 'AssertionError';
  const text = what.message ?? call?.args[0]?.value;
  const message = text && ev.eval(text, frame);
  ev.hooks.raised(span, name, message?.t === 'str' ? message.v : undefined);
}
