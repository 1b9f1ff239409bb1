/**
 * Which parameters train: `module.requires_grad_(False)`, `p.requires_grad = False` and `p.requires_grad_(False)`
 * (also over `for p in module.parameters():`), `nn.Parameter(t, requires_grad=False)`, and `copy.deepcopy`
 * keeping each copy's flag. `parameters()` and `named_parameters()` give each parameter once, as PyTorch does.
 */
import type { GradState, ModuleTree, ParamRef } from '../values/modules';
import type { Value } from '../values/value';
import type { Shared } from './hooks';
import type { Owner } from './journal';

type ParamValue = Extract<Value, { t: 'param' }>;

/** Each parameter once with its name as `named_parameters()` gives it, and the repeated node it sits in. */
export function namedParams(root: ModuleTree): { name: string; ref: ParamRef; repeat?: ModuleTree['repeat'] }[] {
  const out: { name: string; ref: ParamRef; repeat?: ModuleTree['repeat'] }[] = [];
  const seen = new Set<number>();
  const visited = new Set<ModuleTree>();
  const visit = (n: ModuleTree, prefix: string, repeat: ModuleTree['repeat']) => {
    if (visited.has(n)) return;
    visited.add(n);
    const times = n.repeat ? (repeat ? repeat.mul(n.repeat) : n.repeat) : repeat;
    for (const [name, ref] of n.params) {
      if (seen.has(ref.id)) continue;
      seen.add(ref.id);
      out.push({ name: prefix + name, ref, repeat: times });
    }
    for (const [name, c] of n.children) visit(c, `${prefix}${name}.`, times);
  };
  visit(root, '', undefined);
  return out;
}

export class RequiresGrad {
  /** A flag two branches set differently is not known. */
  private readonly owner: Owner = { differs: (map, key) => void map.set(key, 'unknown') };

  constructor(private readonly shared: Shared) {}

  /** `p.requires_grad = flag`: a flag that is not a known bool leaves the parameter's state unknown. */
  set(ref: ParamRef, flag: Value | undefined): void {
    const state: GradState =
      flag === undefined ? 'trainable' : flag.t === 'bool' ? (flag.v ? 'trainable' : 'frozen') : 'unknown';
    this.shared.journal.set(this.owner, this.shared.grad, String(ref.id), state);
  }

  /** `module.requires_grad_(flag)`: every parameter under it. */
  setAll(tree: ModuleTree, flag: Value | undefined): void {
    for (const p of namedParams(tree)) this.set(p.ref, flag);
  }

  /** `m.parameters()` / `m.named_parameters()`; a parameter of a repeated block stands for all its copies. */
  parameters(tree: ModuleTree, named: boolean): Value {
    const items = namedParams(tree).map(({ name, ref, repeat }): Value => {
      const p: ParamValue = { t: 'param', ref };
      const item: Value = named ? { t: 'seq', items: [{ t: 'str', v: name }, p], tuple: true } : p;
      return repeat ? { t: 'repeat', item, count: repeat } : item;
    });
    return { t: 'seq', items };
  }

  /** After `copy.deepcopy`, for one copied module: each parameter keeps the flag of its original. */
  copyFlags(original: ModuleTree, copy: ModuleTree): void {
    for (const [k, p] of original.params) {
      const state = this.shared.grad.get(String(p.id));
      const q = copy.params.get(k);
      if (state && q && q !== p) this.shared.journal.set(this.owner, this.shared.grad, String(q.id), state);
    }
  }

  /** `p.requires_grad = flag` on a value: a parameter, or one standing for a repeated block's copies. */
  assign(target: Value, name: string, value: Value): boolean {
    const p = target.t === 'repeat' ? target.item : target;
    if (p.t !== 'param' || name !== 'requires_grad') return false;
    this.set(p.ref, value);
    return true;
  }

  /** `p.requires_grad_(flag)`, which returns the parameter; undefined for any other method. */
  method(
    target: Value,
    method: string,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
  ): Value | undefined {
    const p = target.t === 'repeat' ? target.item : target;
    if (p.t !== 'param' || method !== 'requires_grad_') return undefined;
    this.set(p.ref, positional[0] ?? keywords.get('requires_grad'));
    return target;
  }
}
