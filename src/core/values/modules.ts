/**
 * Module trees, as `model.parameters()` sees them: parameters with an identity (so a tied weight or a
 * module kept under two names counts once), children, and repeated children (`12 × Block`, or `N ×`
 * when the count is symbolic: each copy holds its own parameters).
 */
import type { LayerInstance } from './layer';
import { Poly } from './symbolic';
import { born } from './births';

/** Whether a parameter trains: `requires_grad_(False)` and the like freeze it; set on a path not known to run, it is not known. */
export type GradState = 'trainable' | 'frozen' | 'unknown';
export type GradOf = (p: ParamRef) => GradState;

export interface ParamRef {
  readonly id: number;
  readonly shape: readonly Poly[];
  /** Its element count, the product of its shape: a model's total is walked several times over. */
  readonly numel: Poly;
  /** Set when its shape is not followed: its count is then a placeholder, not a formula of the user's names. */
  readonly unknown?: string;
}

export interface ModuleTree {
  readonly kind: string;
  readonly params: Map<string, ParamRef>;
  readonly children: Map<string, ModuleTree>;
  /** This node stands for `repeat` independent copies (a ModuleList built by a comprehension). */
  readonly repeat?: Poly;
  /** Set when some part cannot be followed: the total is then not known. */
  unknown?: string;
  /**
   * Attributes holding layers in a plain array (`this.blocks = [new nn.Linear(...)]`), with those layers'
   * trees: parameters() does not see them unless they are also registered as children.
   */
  arrays?: Map<string, unknown>;
  /**
   * A tf.layers.Layer subclass's fields holding layers it does not track, each with the weights those layers
   * created once applied (undefined while that is not known): real weights, outside countParams().
   */
  untracked?: Map<string, () => Poly | undefined>;
}

let nextId = 1;

class Param implements ParamRef {
  private size: Poly | undefined;

  constructor(
    readonly id: number,
    readonly shape: readonly Poly[],
    readonly unknown?: string,
  ) {}

  /** Worked out once, when first counted: a model is walked several times over for its totals. */
  get numel(): Poly {
    return (this.size ??= this.shape.reduce((a, d) => a.mul(d), Poly.ONE));
  }
}

export function param(shape: readonly Poly[], unknown?: string): ParamRef {
  return new Param(nextId++, shape, unknown);
}

export function emptyModule(kind: string): ModuleTree {
  return { kind, params: born(new Map()), children: born(new Map()) };
}

const STACKS: Readonly<Record<string, string>> = {
  'Transformer.encoder': 'TransformerEncoder',
  'Transformer.decoder': 'TransformerDecoder',
};
const STACK_LAYERS = new Set(['TransformerEncoder', 'TransformerDecoder']);

/** A catalog layer as a module tree: `out_proj.weight` becomes child `out_proj`, parameter `weight`. */
export function layerModule(layer: LayerInstance): ModuleTree {
  const root = emptyModule(layer.kind);
  if (layer.rejected)
    root.unknown = `${layer.framework === 'pytorch' ? 'nn.' : ''}${layer.kind} would raise: ${layer.rejected}`;
  else if (layer.params === undefined && layer.unknownReason) root.unknown = layer.unknownReason;
  for (const t of layer.tensors) {
    const path = t.name.split('.');
    let node = root;
    let owner = root;
    for (const segment of path.slice(0, -1)) {
      let child = node.children.get(segment);
      if (!child) {
        // nn.Transformer's encoder and decoder, and the copies a stack of them holds (`layers.{i}`), are named as PyTorch names their classes.
        const kind =
          segment === '{i}'
            ? STACK_LAYERS.has(owner.kind)
              ? `${owner.kind}Layer`
              : ''
            : (STACKS[`${layer.kind}.${segment}`] ?? '');
        child = { kind, params: new Map(), children: new Map(), repeat: segment === '{i}' ? t.repeat : undefined };
        node.children.set(segment, child);
      }
      if (child.kind) owner = child;
      node = child;
    }
    node.params.set(path[path.length - 1], param(t.shape));
  }
  return root;
}

/** `copy.deepcopy`: the same structure with parameters of their own (shared parts stay shared, as deepcopy's memo keeps them). */
export function deepCopy(m: ModuleTree, repeat = m.repeat, nodes = new Map<ModuleTree, ModuleTree>()): ModuleTree {
  const copies = new Map<number, ParamRef>();
  const copy = (n: ModuleTree, r: Poly | undefined): ModuleTree => {
    const known = nodes.get(n);
    if (known) return known;
    const out: ModuleTree = { kind: n.kind, params: new Map(), children: new Map(), repeat: r, unknown: n.unknown };
    nodes.set(n, out);
    ORIGINALS.set(out, ORIGINALS.get(n) ?? n);
    for (const [k, p] of n.params) {
      let c = copies.get(p.id);
      if (!c) copies.set(p.id, (c = param(p.shape)));
      out.params.set(k, c);
    }
    for (const [k, c] of n.children) out.children.set(k, copy(c, c.repeat));
    return out;
  };
  return copy(m, repeat);
}

/** Each copy deepCopy made, with the tree it copies (the first, for a copy of a copy). */
const ORIGINALS = new WeakMap<ModuleTree, ModuleTree>();

/** The tree `m` is a copy of (a block of `12 × Block`, copied from the one built), or itself. */
export function originalOf(m: ModuleTree): ModuleTree {
  return ORIGINALS.get(m) ?? m;
}

/** A container (Sequential, ModuleList, ModuleDict) of the given children. */
export function container(kind: string, children: Iterable<[string, ModuleTree]>): ModuleTree {
  const m = emptyModule(kind);
  for (const [k, c] of children) {
    m.children.set(k, c);
    if (c.unknown) m.unknown ??= c.unknown;
  }
  return m;
}

/** Every distinct parameter once, each counted for every copy its repeated ancestors stand for. */
export function totalOf(m: ModuleTree): Poly {
  const seen = new Map<number, Poly>();
  // A module held twice (or holding itself) is one module: `parameters()` yields its tensors once.
  const visited = new Set<ModuleTree>();
  const visit = (n: ModuleTree, times: Poly) => {
    if (visited.has(n)) return;
    visited.add(n);
    const here = n.repeat ? times.mul(n.repeat) : times;
    for (const p of n.params.values())
      if (!seen.has(p.id)) seen.set(p.id, here === Poly.ONE ? p.numel : here.mul(p.numel));
    for (const c of n.children.values()) visit(c, here);
  };
  visit(m, Poly.ONE);
  let total = Poly.ZERO;
  for (const v of seen.values()) total = total.add(v);
  return total;
}

/** Where `target` sits inside `root`, as `named_modules()` names it (`attn.c_attn`), breadth first. */
export function pathTo(root: ModuleTree, target: ModuleTree): string | undefined {
  const visited = new Set<ModuleTree>();
  const queue: [ModuleTree, string][] = [[root, '']];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [node, path] = next;
    if (visited.has(node)) continue;
    visited.add(node);
    for (const [name, child] of node.children) {
      const here = path ? `${path}.${name}` : name;
      if (child === target) return here;
      queue.push([child, here]);
    }
  }
  return undefined;
}

/** Whether anything inside could not be followed. */
export function unknownIn(m: ModuleTree, visited = new Set<ModuleTree>()): string | undefined {
  if (m.unknown) return m.unknown;
  visited.add(m);
  for (const c of m.children.values()) {
    const u = visited.has(c) ? undefined : unknownIn(c, visited);
    if (u) return u;
  }
  return undefined;
}

export interface ChildSummary {
  readonly name: string;
  readonly kind: string;
  /** Only a count when `unknown` is unset: a part not known would be dropped from it. */
  readonly params: Poly;
  readonly repeat?: Poly;
  /** Why the child's count is not known (a bias behind a flag not known, a parameter not followed). */
  readonly unknown?: string;
}

/** A model's total and what it is made of, for the class lens, hover and the CLI. */
export interface ModuleSummary {
  /** Undefined when some part is not known (`reason` says what). */
  readonly params?: Poly;
  readonly reason?: string;
  readonly children: readonly ChildSummary[];
  /** The largest stack of repeated blocks: `12 × Block`. */
  readonly stack?: { readonly count: Poly; readonly kind: string };
  /** Parameters held under two names (weight tying): [where it was set last, where it first is]. */
  readonly tied: readonly (readonly [string, string])[];
  /** Attributes holding layers in a plain array: not in the total, as parameters() does not return them. */
  readonly arrays?: readonly string[];
  /** Fields of a tf.layers.Layer subclass holding layers it does not track, and the weights they created (not in the total). */
  readonly untracked?: { readonly fields: readonly string[]; readonly params?: Poly };
}

function tiedParams(m: ModuleTree): [string, string][] {
  const first = new Map<number, string>();
  const tied: [string, string][] = [];
  // Each module once, as `named_parameters()` walks them: a module held under a second name adds no tensors.
  const visited = new Set<ModuleTree>();
  const visit = (n: ModuleTree, prefix: string) => {
    visited.add(n);
    for (const [name, p] of n.params) {
      const path = prefix + name;
      const seen = first.get(p.id);
      if (seen === undefined) first.set(p.id, path);
      else tied.push([seen, path]);
    }
    for (const [name, c] of n.children) if (!visited.has(c)) visit(c, `${prefix}${name}.`);
  };
  visit(m, '');
  return tied;
}

function largestStack(
  m: ModuleTree,
  totalIn: (n: ModuleTree) => Poly,
): { count: Poly; kind: string; size: Poly } | undefined {
  let best: { count: Poly; kind: string; size: Poly } | undefined;
  const visited = new Set<ModuleTree>();
  const visit = (n: ModuleTree) => {
    if (visited.has(n)) return;
    visited.add(n);
    if (n.repeat) {
      // Every copy holds the same tensors: the node's own total counts each of them `repeat` times.
      const size = totalIn(n);
      const c = size.constant;
      if (!best || (c !== undefined && best.size.constant !== undefined && c > best.size.constant))
        best = { count: n.repeat, kind: n.kind, size };
    }
    for (const c of n.children.values()) visit(c);
  };
  visit(m);
  return best;
}

/**
 * Every module's total (what totalOf gives it) in one walk, for a tree that holds no module and no parameter
 * twice, as most do; undefined for one that does, where each total is worked out alone.
 */
function treeTotals(m: ModuleTree): Map<ModuleTree, Poly> | undefined {
  const totals = new Map<ModuleTree, Poly>();
  const params = new Set<number>();
  let shared = false;
  const visit = (n: ModuleTree): Poly => {
    if (totals.has(n)) {
      shared = true;
      return Poly.ZERO;
    }
    totals.set(n, Poly.ZERO);
    let sum = Poly.ZERO;
    for (const p of n.params.values()) {
      if (params.has(p.id)) shared = true;
      params.add(p.id);
      sum = sum.add(p.numel);
    }
    for (const c of n.children.values()) sum = sum.add(visit(c));
    const total = n.repeat ? sum.mul(n.repeat) : sum;
    totals.set(n, total);
    return total;
  };
  visit(m);
  return shared ? undefined : totals;
}

export function summarize(m: ModuleTree): ModuleSummary {
  const reason = unknownIn(m);
  const walked = treeTotals(m);
  const totals = walked ?? new Map<ModuleTree, Poly>();
  const totalIn = (n: ModuleTree) => {
    let t = totals.get(n);
    if (!t) totals.set(n, (t = totalOf(n)));
    return t;
  };
  const total = totalIn(m);
  const children: ChildSummary[] = [
    ...[...m.params].map(([name, p]) => ({ name, kind: 'Parameter', params: p.numel, unknown: p.unknown })),
    ...[...m.children].map(([name, c]) => ({
      name,
      kind: c.kind,
      params: totalIn(c),
      repeat: c.repeat,
      unknown: unknownIn(c),
    })),
  ];
  const stack = largestStack(m, totalIn);
  return {
    params: reason === undefined ? total : undefined,
    reason: reason ?? (total.isConstant ? undefined : `the total depends on ${total.symbols.join(', ')}`),
    children,
    stack: stack && { count: stack.count, kind: stack.kind },
    // Weights held under two names are a tree holding a parameter twice.
    tied: walked ? [] : tiedParams(m),
    arrays: outsideArrays(m),
    untracked: untrackedWeights(m),
  };
}

/** The weights the layers in a tf.layers.Layer subclass's fields created: the sum, if each is known. */
function untrackedWeights(m: ModuleTree): ModuleSummary['untracked'] {
  if (!m.untracked?.size) return undefined;
  let params: Poly | undefined = Poly.ZERO;
  for (const created of m.untracked.values()) {
    const p = created();
    params = p?.isConstant && params ? params.add(p) : undefined;
  }
  return { fields: [...m.untracked.keys()], params };
}

/** The attributes whose plain array holds a layer that is no child of the module: parameters() misses it. */
export function outsideArrays(m: ModuleTree): string[] | undefined {
  if (!m.arrays?.size) return undefined;
  const reached = new Set<ModuleTree>();
  const visit = (n: ModuleTree) => {
    if (reached.has(n)) return;
    reached.add(n);
    for (const c of n.children.values()) visit(c);
  };
  visit(m);
  // A value that is no list of trees is one two branches left differently: nothing is claimed about it.
  const names = [...m.arrays]
    .filter(([, trees]) => Array.isArray(trees) && trees.some((t: ModuleTree) => !reached.has(t)))
    .map(([name]) => name);
  return names.length ? names : undefined;
}
