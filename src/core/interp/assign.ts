/**
 * Assignments: names into the running frame, `self.x` through `nn.Module.__setattr__` (submodules and
 * parameters registered), fields of plain objects and dicts, unpacking, and `xs.append(v)` statements.
 */
import { unregisteredFinding } from './unregistered';
import type { Expr } from '../ir/expr';
import type { Interp } from './interp';
import { OPAQUE } from '../shapes/tensors';
import { MAYBE_MODULE, NONE, UNKNOWN, int, unknownOf, type Value } from '../values/value';
import type { Frame } from './frame';
import type { Owner } from './journal';

/** List methods that add items: Python's, and JavaScript's `push`. */
const GROWING = new Set(['append', 'extend', 'insert', 'push']);
/** The methods that change a list in place: Python's, and JavaScript's arrays'. */
const CHANGING = {
  python: new Set(['append', 'extend', 'insert', 'pop', 'remove', 'sort', 'reverse', 'clear']),
  typescript: new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'reverse', 'sort', 'fill', 'copyWithin']),
};

export function changesList(language: 'python' | 'typescript', method: string): boolean {
  return CHANGING[language].has(method);
}

/** The position `key` names among `n` items (`-1` the last), where it is a known one among them. */
function position(key: Value, n: number): number | undefined {
  const i = key.t === 'int' ? key.p.constant : undefined;
  const at = i === undefined ? undefined : i < 0n ? i + BigInt(n) : i;
  return at !== undefined && at >= 0n && at < BigInt(n) ? Number(at) : undefined;
}

export class Assignments {
  /** An instance's or a dict's fields: a field two branches set differently is unknown. */
  readonly fieldsOwner: Owner = { differs: (map, key) => void map.set(key, UNKNOWN) };

  constructor(private readonly ev: Interp) {}

  assign(target: Expr, value: Value, frame: Frame, source?: Expr): void {
    switch (target.k) {
      case 'name': {
        const outer = this.enclosingBinding(target.id, frame);
        // Through the journal: a branch not known to run leaves the variable unknown, not set.
        if (outer) this.ev.journal.set(this.fieldsOwner, outer.vars as Map<string, Value>, target.id, value);
        else frame.set(target.id, value);
        if (frame === this.ev.moduleFrame) this.ev.names.bound(target.id, frame.fragment);
        return;
      }
      case 'attr': {
        const obj = this.ev.eval(target.object, frame);
        this.setAttribute(obj, target.id, value, source?.k === 'call' || source?.k === 'cond');
        const untracked = unregisteredFinding(this.ev, obj, target.id, value, source, target);
        // PyTorch's warning waits for the constructor's end: `add_module` may still register the layers.
        if (untracked?.code === 'unregistered-layers' && obj.t === 'module')
          this.ev.torch.holdsUnregistered(obj.tree, target.id, untracked);
        else if (untracked) this.ev.hooks.report(untracked);
        return;
      }
      case 'index': {
        const obj = this.ev.eval(target.object, frame);
        const key = this.ev.eval(target.index, frame);
        this.setItem(target.object, obj, key, value, frame);
        return;
      }
      case 'list': {
        // `B, T, C = x.size()`: the names fix the rank of the argument `x` for the views that follow.
        const unpacked =
          value.t === 'dims' && !target.items.some((t) => t.k === 'star')
            ? this.ev.checks.unpacked(value, target.items.length)
            : undefined;
        const items = value.t === 'seq' ? value.items : (unpacked ?? this.inputItems(value, target.items.length));
        const star = target.items.findIndex((t) => t.k === 'star');
        if (star < 0) {
          // The items of what may be a module's (`model, _ = build(cfg)`) may be modules too.
          const rest =
            value.t === 'repeat' ? value.item : value.t === 'unknown' && value.module ? MAYBE_MODULE : UNKNOWN;
          target.items.forEach((t, i) => this.assign(t, items?.[i] ?? rest, frame));
          return;
        }
        // `first, *middle, last = xs`: the names after the star take the last items.
        const after = target.items.length - star - 1;
        const known = items && items.length >= target.items.length - 1;
        target.items.forEach((t, i) => {
          if (i < star) this.assign(t, known ? items[i] : UNKNOWN, frame);
          else if (i > star) this.assign(t, known ? items[items.length - (target.items.length - i)] : UNKNOWN, frame);
          else if (t.k === 'star')
            this.assign(t.value, known ? { t: 'seq', items: items.slice(star, items.length - after) } : UNKNOWN, frame);
        });
        return;
      }
      default:
        return;
    }
  }

  /**
   * `const [text, audio] = inputs` of a tf.layers.Layer's call(): a forward() argument of TypeScript that is
   * a list of tensors; each is an input of its own, so that keys from the second are cross attention.
   */
  private inputItems(value: Value, count: number): Value[] | undefined {
    const input =
      value.t === 'tensor' && !value.trace?.source?.layer && !value.trace?.core
        ? value.trace?.source?.input
        : undefined;
    if (this.ev.language !== 'typescript' || !input) return undefined;
    return Array.from({ length: count }, (_, i): Value => ({
      ...OPAQUE,
      trace: { source: { input: `${input}[${i}]` } },
    }));
  }

  /**
   * `obj.name = value`: a module registers submodules and parameters; other objects keep fields. A value a
   * call returned, or a conditional expression chose, that cannot be followed may be a module: the module's
   * total is then not known.
   */
  setAttribute(target: Value, name: string, value: Value, mayBeModule = false): void {
    if (this.ev.grads.assign(target, name, value)) return;
    // `self.out.weight = ...` on a catalog layer: its module tree takes the parameter (weight tying).
    const obj: Value =
      target.t === 'layer' ? { t: 'module', tree: this.ev.torch.moduleOf(target)!, fields: new Map() } : target;
    if (obj.t === 'module') {
      // What such a call gave stays a maybe-module where it is read again (`self.transformer = text.transformer`).
      const maybe = value.t === 'unknown' && !value.scalar && (mayBeModule || value.module === true);
      if (maybe)
        this.ev.torch
          .owner(obj.tree)
          .differs(obj.tree.children as Map<string, unknown>, name, `self.${name} cannot be followed`);
      this.ev.torch.setMember(obj, name, maybe ? MAYBE_MODULE : value);
    } else if (obj.t === 'dict' && obj.fields instanceof Map) {
      this.ev.journal.set(this.fieldsOwner, obj.fields as Map<string, Value>, name, value);
    }
  }

  /**
   * TypeScript: the frame of the enclosing function or module whose variable an assignment writes, when the
   * running function does not declare the name itself (`let width = 4; const widen = () => { width = 8; };`).
   */
  private enclosingBinding(name: string, frame: Frame): Frame | undefined {
    if (this.ev.language !== 'typescript' || frame.isModule || frame.scope < 0 || frame.vars.has(name))
      return undefined;
    const scope = this.ev.scopeAt(frame.fragment, frame.scope);
    if (scope.kind !== 'function' || !scope.locals || scope.locals.includes(name)) return undefined;
    for (let f = frame.parent; f; f = f.parent) if (f.vars.has(name)) return f;
    return undefined;
  }

  /** Expression statements: a call for its effects (`xs.append(v)` rebinds a plain list: Calls.call). */
  run(e: Expr, frame: Frame): void {
    this.ev.eval(e, frame);
  }

  /**
   * `holder[key] = value`. A list named by `holder` is rebound with the item replaced (unknown where the index
   * is); a dict takes the key (any key, where it is not known); a ModuleList or Sequential the module at a
   * known position; a tensor written with another's values keeps what it was written with (Llama's
   * `self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk`, read back as the keys).
   */
  private setItem(holder: Expr, obj: Value, key: Value, value: Value, frame: Frame): void {
    switch (obj.t) {
      case 'dict':
        if (!(obj.fields instanceof Map)) return;
        if (key.t === 'str') this.ev.journal.set(this.fieldsOwner, obj.fields as Map<string, Value>, key.v, value);
        else if (key.t !== 'int' && key.t !== 'float' && key.t !== 'bool' && key.t !== 'none') this.ev.dicts.taint(obj);
        return;
      case 'seq': {
        if (holder.k !== 'name' && holder.k !== 'attr') return;
        // A comprehension's copies stand for several items each: positions among them are not known.
        const at = obj.items.some((i) => i.t === 'repeat') ? undefined : position(key, obj.items.length);
        this.assign(
          holder,
          at === undefined
            ? unknownOf(...obj.items, value)
            : { ...obj, items: obj.items.map((item, i) => (i === at ? value : item)) },
          frame,
        );
        return;
      }
      case 'module':
        if (key.t === 'str' && obj.tree.kind === 'ModuleDict') this.ev.torch.setMember(obj, key.v, value);
        else if (obj.tree.kind === 'ModuleList' || obj.tree.kind === 'Sequential') {
          const at = position(key, obj.tree.children.size);
          if (at !== undefined) this.ev.torch.setMember(obj, String(at), value);
          else
            this.ev.torch
              .owner(obj.tree)
              .differs(obj.tree.children as Map<string, unknown>, '', 'an item set at a position not known');
        }
        return;
      case 'tensor':
        if (value.t === 'tensor' && value.trace && (holder.k === 'name' || holder.k === 'attr'))
          this.assign(holder, { ...obj, trace: value.trace }, frame);
        return;
      default:
        return;
    }
  }

  /**
   * A method of a plain list named by `holder` (`xs`, `self.xs`), whose value is `list`: what the call gives,
   * the name rebound to the list it leaves (`ich = chans.pop()`: the last item, and `chans` without it). A
   * method not followed here leaves the list, and what it gives, not known.
   */
  listMethod(
    holder: Expr,
    list: Extract<Value, { t: 'seq' }>,
    method: string,
    args: readonly Value[],
    frame: Frame,
  ): Value {
    const python = this.ev.language === 'python';
    let after: Value = UNKNOWN;
    // Python's list methods give None but pop(); JavaScript's push() gives the new length, the others not followed.
    let result: Value = python && method !== 'pop' ? NONE : UNKNOWN;
    if (GROWING.has(method)) after = this.ev.torch.grown(list, method, args);
    else if (method === 'pop' && args.length <= (python ? 1 : 0)) {
      const repeated = list.items.some((i) => i.t === 'repeat');
      const at = repeated ? undefined : position(args[0] ?? int(-1), list.items.length);
      if (at !== undefined) {
        result = list.items[at];
        after = { ...list, items: list.items.filter((_, i) => i !== at) };
      } else result = unknownOf(...list.items);
    } else if (python && method === 'clear' && !args.length) after = { ...list, items: [] };
    else if (python && method === 'reverse' && !args.length) after = { ...list, items: [...list.items].reverse() };
    if (method === 'push' && after.t === 'seq' && !after.items.some((i) => i.t === 'repeat'))
      result = int(after.items.length);
    this.assign(holder, after, frame);
    return result;
  }
}
