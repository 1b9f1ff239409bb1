/** What an expression evaluates to: literals, names, members, items, operators, displays, calls and functions. */
import type { Interp } from './interp';
import type { Expr } from '../ir/expr';
import { NONE, SCALAR, UNKNOWN, eitherOf, int, isTainted, joinHoldingNothing, type Value } from '../values/value';
import type { Frame } from './frame';
import { inlineFunction } from './functions';
import { subscript } from './items';
import { comprehension, dictDisplay, fstring, listDisplay } from './displays';
import { compare, unary } from './arith';
import { BuiltinRaise } from './raises';
import { hasAttribute } from './classBuiltins';
import { truthOf } from './truth';
import { probeCompare, probeIndex } from './probes';

export function evalExpr(ev: Interp, e: Expr, frame: Frame): Value {
  ev.budget.tick();
  switch (e.k) {
    case 'int':
      return int(e.value);
    case 'float':
      return { t: 'float', v: e.value };
    case 'str':
      return { t: 'str', v: e.value };
    case 'bool':
      return { t: 'bool', v: e.value };
    case 'none':
      return NONE;
    case 'name':
      return ev.names.lookup(e.id, frame);
    case 'attr':
      return ev.member(evalExpr(ev, e.object, frame), e.id);
    case 'index': {
      const obj = evalExpr(ev, e.object, frame);
      const key = evalExpr(ev, e.index, frame);
      probeIndex(ev.shared.probe, obj, key);
      const item = obj.t === 'dict' && isTainted(obj) ? UNKNOWN : subscript(obj, key, (o, id) => ev.member(o, id));
      return ev.tape && obj.t === 'tensor' ? ev.tape.subscript(obj, key, item) : item;
    }
    case 'binary':
      return ev.binary(e.op, evalExpr(ev, e.left, frame), evalExpr(ev, e.right, frame), e.span);
    case 'unary': {
      const operand = evalExpr(ev, e.operand, frame);
      // `not aa_layer` of `nn.AvgPool2d`: a class is true.
      const result = e.op === 'not' && truthOf(ev, operand) ? { t: 'bool' as const, v: false } : unary(e.op, operand);
      return ev.tape && operand.t === 'tensor' ? ev.tape.unary(e.op, operand, result) : result;
    }
    case 'compare': {
      const listed = e.op === 'in' || e.op === 'not in' ? listedBy(ev, e.right, frame) : undefined;
      if (listed) {
        const name = evalExpr(ev, e.left, frame);
        return name.t === 'str' && hasAttribute(ev, listed, name.v) === true ? { t: 'bool', v: e.op === 'in' } : SCALAR;
      }
      const [l, r] = [evalExpr(ev, e.left, frame), evalExpr(ev, e.right, frame)];
      probeCompare(ev.shared.probe, e.op, l, r);
      const result = compare(e.op, l, r);
      if (ev.tape && (l.t === 'tensor' || r.t === 'tensor')) return ev.tape.compare(e.op, l, r, result);
      return result.t === 'unknown' ? SCALAR : result;
    }
    case 'logic': {
      const left = evalExpr(ev, e.left, frame);
      if (e.op === 'nullish')
        return left.t === 'none' ? evalExpr(ev, e.right, frame) : left.t === 'unknown' ? UNKNOWN : left;
      const t = truthOf(ev, left);
      if (t === undefined) return UNKNOWN;
      if (e.op === 'or') return t ? left : evalExpr(ev, e.right, frame);
      return t ? evalExpr(ev, e.right, frame) : left;
    }
    case 'cond': {
      const t = truthOf(ev, evalExpr(ev, e.test, frame));
      if (t !== undefined) return evalExpr(ev, t ? e.then : e.otherwise, frame);
      ev.tape?.uncertain('a conditional expression whose condition is not known');
      const a = branch(ev, e.then, frame);
      const b = a === RAISES ? evalExpr(ev, e.otherwise, frame) : branch(ev, e.otherwise, frame);
      // A branch that raises gives no value: the expression's is the other one's.
      if (a === RAISES || b === RAISES) return a === RAISES ? (b as Value) : a;
      if (a === b || (a.t !== 'module' && a.t !== 'layer' && (compare('==', a, b) as { v?: boolean }).v === true))
        return a;
      return joinHoldingNothing([a, b]) ?? eitherOf(a, b);
    }
    case 'list':
      return listDisplay(ev, e, frame);
    case 'dict':
      return dictDisplay(ev, e, frame);
    case 'call':
      return ev.calls.call(e, frame);
    case 'comprehension':
      return comprehension(ev, e, frame);
    case 'lambda':
      return { t: 'lambda', expr: e, closure: ev.shared.environments.numberOf(frame) };
    case 'function':
      return inlineFunction(ev, e.span.start, frame);
    case 'fstring':
      return fstring(ev, e, frame);
    case 'slice': {
      const bound = (x: Expr | undefined) => (x ? evalExpr(ev, x, frame) : NONE);
      return { t: 'slice', lower: bound(e.lower), upper: bound(e.upper), step: bound(e.step) };
    }
    default:
      return UNKNOWN;
  }
}

/** `dir(obj)` (the built-in, called on one value): that value, whose names `in` asks about. */
function listedBy(ev: Interp, e: Expr, frame: Frame): Value | undefined {
  if (e.k !== 'call' || e.callee.k !== 'name' || e.callee.id !== 'dir' || e.args.length !== 1) return undefined;
  const [arg] = e.args;
  if (arg.name !== undefined || arg.spread) return undefined;
  const callee = ev.names.lookup('dir', frame);
  return callee.t === 'ref' && callee.path === 'builtins.dir' ? evalExpr(ev, arg.value, frame) : undefined;
}

const RAISES = Symbol('raises');

/** A branch that may not be taken: a builtin raising there is no certain raise. */
function branch(ev: Interp, e: Expr, frame: Frame): Value | typeof RAISES {
  try {
    return evalExpr(ev, e, frame);
  } catch (error) {
    if (error instanceof BuiltinRaise) return RAISES;
    throw error;
  }
}
