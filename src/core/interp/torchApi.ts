/**
 * The parts of torch.nn that decide what `model.parameters()` holds: `nn.Module.__setattr__` registering
 * submodules and parameters, containers (`Sequential`, `ModuleList`, `ModuleDict`) and their `append`,
 * `add_module`, `register_parameter`, `nn.Parameter`, `copy.deepcopy`, tensors and weightless layers.
 */
import type { Interp } from './interp';
import {
  container,
  deepCopy,
  emptyModule,
  layerModule,
  outsideArrays,
  param,
  pathTo,
  summarize,
  unknownIn,
  type ModuleTree,
} from '../values/modules';
import { Poly } from '../values/symbolic';
import { totalParams, type Finding } from '../values/layer';
import { NONE, SCALAR, UNKNOWN, asPoly, int, isTainted, type Shape, type Value } from '../values/value';
import type { Owner } from './journal';
import { LIMITS } from '../limits/budget';
import { WEIGHTLESS, type LayerValue } from './shapeChecks';
import { weightlessFields } from './weightlessArgs';
import { born } from '../values/births';

type ModuleValue = Extract<Value, { t: 'module' }>;

const TENSOR_FACTORIES = new Set([
  'zeros',
  'ones',
  'randn',
  'rand',
  'empty',
  'full',
  'tensor',
  'arange',
  'eye',
  'linspace',
  'logspace',
]);
/** Methods of nn.Module that return the module itself. */
const FLUENT = new Set([
  'to',
  'cuda',
  'cpu',
  'train',
  'eval',
  'requires_grad_',
  'float',
  'half',
  'bfloat16',
  'double',
  'apply',
  'type',
]);
/** The other methods of nn.Module and its containers that moduleMethod follows. */
const METHODS = new Set([
  'parameters',
  'named_parameters',
  'append',
  'extend',
  'add_module',
  'register_module',
  'register_parameter',
  'register_buffer',
  'children',
  'modules',
  'state_dict',
  'get_submodule',
]);

/**
 * `copy.deepcopy` of a plain value: dicts (config objects too) and lists copied all the way down, so that a write
 * to the copy (`c = copy.deepcopy(cfg); c['hf_hub_id'] = ...`) leaves the original as it was. Too deep: not known.
 */
function plainCopy(v: Value, depth: number): Value {
  if (depth > 32) return UNKNOWN;
  if (v.t === 'seq') return { ...v, items: v.items.map((item) => plainCopy(item, depth + 1)) };
  if (v.t !== 'dict') return v;
  if (isTainted(v)) return UNKNOWN;
  const fields = born(new Map<string, Value>());
  for (const [k, item] of v.fields) fields.set(k, plainCopy(item, depth + 1));
  return { ...v, fields };
}

/** `torch.arange(end)`, `(start, end)`, `(start, end, step)`: its length where the bounds are known integers. */
function arange(positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
  const bound = (v: Value | undefined) => (v?.t === 'int' ? v.p.constant : undefined);
  const given = positional.length === 1 ? [int(0), positional[0]] : positional;
  const start = bound(given[0] ?? keywords.get('start') ?? int(0));
  const end = bound(given[1] ?? keywords.get('end'));
  const step = bound(given[2] ?? keywords.get('step') ?? int(1));
  if (start === undefined || end === undefined || !step) return { t: 'tensor', shape: [undefined], partial: true };
  const span = end - start;
  const n = span / step + (span % step !== 0n && span > 0n === step > 0n ? 1n : 0n);
  return { t: 'tensor', shape: [Poly.int(n > 0n ? n : 0n)] };
}

/** Layers of libraries beside torch.nn without weights, by the paths their packages give them. */
const LIBRARY_WEIGHTLESS = new Set([
  'einops.layers.torch.Rearrange',
  'einops.layers.torch.Reduce',
  ...['timm.layers', 'timm.layers.drop', 'timm.models.layers', 'timm.models.layers.drop'].map((at) => `${at}.DropPath`),
]);

export class TorchApi {
  private readonly values = new WeakMap<ModuleTree, Value>();
  private readonly layerModules = new WeakMap<object, ModuleTree>();
  private readonly owners = new WeakMap<ModuleTree, Owner>();
  /** `unregistered-layers` warnings of a module being built: reported once its constructor is over, for the layers it did not register another way. */
  private readonly unregistered = new WeakMap<ModuleTree, Map<string, Finding>>();

  constructor(private readonly ev: Interp) {}

  /** The module tree of a module or layer value, the same tree for the same value. */
  moduleOf(v: Value): ModuleTree | undefined {
    if (v.t === 'module') return v.tree;
    if (v.t !== 'layer') return undefined;
    let tree = this.layerModules.get(v);
    if (!tree) this.layerModules.set(v, (tree = layerModule(v.layer)));
    return tree;
  }

  /** Where `v` sits inside `root`, as `named_modules()` names it (`attn.c_attn`); undefined when it is not in it. */
  pathIn(root: ModuleTree, v: Value): string | undefined {
    const target = this.moduleOf(v);
    return target && pathTo(root, target);
  }

  /** Makes `tree` the module tree of a layer value (a copy of another layer's tree). */
  adoptTree(layer: LayerValue, tree: ModuleTree): void {
    this.layerModules.set(layer, tree);
  }

  /** A value as a child module: modules, layers, and `repeat` (n copies, one node with a count). */
  childTree(v: Value): ModuleTree | undefined {
    if (v.t === 'repeat') {
      const item = this.childTree(v.item);
      if (!item) return undefined;
      const copy = deepCopy(item, v.count);
      // The copies run the item's forward(): reading `self.blocks[0]` or iterating gives its instance back.
      this.registerCopy(item, copy);
      return copy;
    }
    return this.moduleOf(v);
  }

  /** Remembers the value a tree belongs to, so that reading `self.block` gives back the instance (and its forward()). */
  register(tree: ModuleTree, value: Value): void {
    this.values.set(tree, value);
  }

  /** After `deepCopy(original)`: each copied module answers as the value its original was (its class, its fields). */
  registerCopy(original: ModuleTree, copy: ModuleTree, visited = new Set<ModuleTree>()): void {
    if (visited.has(original)) return;
    visited.add(original);
    this.ev.grads.copyFlags(original, copy);
    const value = this.values.get(original);
    if (value?.t === 'module') {
      // A copied subclass of a catalog layer is its own layer too, whose tree is the copy.
      const layer = value.layer && { ...value.layer };
      if (layer) this.adoptTree(layer, copy);
      this.register(copy, { ...value, tree: copy, layer });
    } else if (value?.t === 'layer') {
      // A copied layer is another object with parameters of its own.
      const clone = { ...value };
      this.adoptTree(clone, copy);
      this.register(copy, clone);
    }
    for (const [k, child] of original.children) {
      const copied = copy.children.get(k);
      if (copied) this.registerCopy(child, copied, visited);
    }
  }

  /** `copy.deepcopy(module)`, with the copy of each module of its tree. */
  deepCopied(module: ModuleValue): {
    readonly value: ModuleValue;
    readonly trees: ReadonlyMap<ModuleTree, ModuleTree>;
  } {
    const trees = new Map<ModuleTree, ModuleTree>();
    const copy = deepCopy(module.tree, module.tree.repeat, trees);
    this.registerCopy(module.tree, copy);
    return { value: { ...module, tree: copy, fields: new Map(module.fields) }, trees };
  }

  asValue(tree: ModuleTree): Value {
    return this.values.get(tree) ?? { t: 'module', tree, fields: new Map() };
  }

  /** A module whose parts two branches set differently has no known total. */
  owner(tree: ModuleTree): Owner {
    let o = this.owners.get(tree);
    if (!o) this.owners.set(tree, (o = { differs: (_map, _key, reason) => void (tree.unknown ??= reason) }));
    return o;
  }

  /** Keeps the warning for layers `self.name` holds in a plain list or dict until the constructor is over. */
  holdsUnregistered(tree: ModuleTree, name: string, finding: Finding): void {
    let pending = this.unregistered.get(tree);
    if (!pending) this.unregistered.set(tree, (pending = new Map()));
    pending.set(name, finding);
  }

  /** The warnings for plain lists and dicts whose layers the finished module does not hold (`add_module` registers them too). */
  unregisteredAfterBuild(tree: ModuleTree): Finding[] {
    const pending = this.unregistered.get(tree);
    // A part not followed (`add_module` under a name not known) may be what registers them.
    if (!pending || tree.unknown) return [];
    const outside = new Set(outsideArrays(tree) ?? []);
    return [...pending].filter(([name]) => outside.has(name)).map(([, f]) => f);
  }

  /** `self.name = value` on a module: a parameter, a submodule, or a plain attribute. */
  setMember(obj: ModuleValue, name: string, value: Value): void {
    const { journal } = this.ev;
    const tree = obj.tree;
    const owner = this.owner(tree);
    journal.set(this.ev.assignments.fieldsOwner, obj.fields, name, value);
    // A tf.layers.Layer subclass tracks none of its fields: its weights are what addWeight() creates. The
    // layers a field holds still create theirs when call() applies them: kept aside, for the summary to say.
    if (this.ev.tfjsLayers.is(obj.cls)) {
      const held = value.t === 'layer' || value.t === 'module' ? [value] : heldLayers(value);
      if (held.length) (tree.untracked ??= new Map()).set(name, () => this.createdWeights(held));
      else tree.untracked?.delete(name);
      return;
    }
    // Layers kept in a plain list or dict are no children: parameters() does not see them (the class hover
    // and an unregistered-layers warning say so). A comprehension's list is one too, however many it holds.
    const held = heldLayers(value)
      .map((i) => this.moduleOf(i))
      .filter((t) => t !== undefined);
    if (held.length) journal.set(this.ev.assignments.fieldsOwner, (tree.arrays ??= new Map()), name, held);
    else if (tree.arrays?.has(name)) journal.delete(this.ev.assignments.fieldsOwner, tree.arrays, name);
    if (value.t === 'param') {
      journal.delete(owner, tree.children, name);
      journal.set(owner, tree.params, name, value.ref);
      if (value.ref.unknown)
        owner.differs(tree.params as Map<string, unknown>, name, `${name} is ${value.ref.unknown}`);
      return;
    }
    if (value.t === 'none' && tree.params.has(name)) {
      journal.delete(owner, tree.params, name);
      return;
    }
    const child = value.t === 'repeat' ? undefined : this.childTree(value);
    if (child) {
      journal.delete(owner, tree.params, name);
      journal.set(owner, tree.children, name, child);
      if (value.t === 'module' || value.t === 'layer') this.register(child, value);
    } else if (tree.children.has(name) || tree.params.has(name)) {
      // Assigning a plain value over a submodule: PyTorch raises; the total is not known.
      owner.differs(
        tree.children as Map<string, unknown>,
        name,
        `self.${name} is reassigned with a value Attention Lens cannot follow`,
      );
    }
  }

  /** The weights `layers` created: each catalog layer as its first apply() built it, each own layer's total. */
  private createdWeights(layers: readonly Value[]): Poly | undefined {
    const created = (l: Value): Poly | undefined => {
      // A layer never applied here has created nothing yet, or was applied where the run could not follow.
      if (l.t === 'layer') return this.ev.flows.tfjs.built(l)?.params;
      if (l.t !== 'module') return undefined;
      const s = summarize(l.tree);
      return s.untracked ? s.untracked.params && s.params?.add(s.untracked.params) : s.params;
    };
    let sum: Poly | undefined = Poly.ZERO;
    for (const l of layers) {
      const p = created(l);
      sum = p?.isConstant && sum ? sum.add(p) : undefined;
    }
    return sum;
  }

  /** Adds items to a container module (`append`, `extend`); under a loop counted only, as repeated copies. */
  private addChildren(obj: ModuleValue, items: readonly Value[] | undefined): void {
    const tree = obj.tree;
    const owner = this.owner(tree);
    if (!items) {
      owner.differs(tree.children as Map<string, unknown>, '', 'an appended item cannot be followed');
      return;
    }
    const times = this.ev.repeats.reduce((a, r) => a.mul(r), Poly.ONE);
    for (const item of items) {
      const child = this.childTree(item);
      if (!child) {
        owner.differs(
          tree.children as Map<string, unknown>,
          '',
          'an appended item is not a module Attention Lens can follow',
        );
        continue;
      }
      const placed = this.ev.repeats.length ? deepCopy(child, child.repeat ? child.repeat.mul(times) : times) : child;
      if (placed !== child) this.registerCopy(child, placed);
      else if (item.t === 'module' || item.t === 'layer') this.register(placed, item);
      this.ev.journal.set(owner, tree.children, String(tree.children.size), placed, true);
    }
  }

  /** A plain list grown by `append` / `extend` / `insert` (under a counted loop, by repeated copies). */
  grown(list: Extract<Value, { t: 'seq' }>, method: string, args: readonly Value[]): Value {
    const times = this.ev.repeats.reduce((a, r) => a.mul(r), Poly.ONE);
    const wrap = (v: Value): Value => (this.ev.repeats.length ? { t: 'repeat', item: v, count: times } : v);
    if (method === 'append' && args[0]) return { t: 'seq', items: [...list.items, wrap(args[0])] };
    if (method === 'push' && list.items.length + args.length <= LIMITS.listItems)
      return { t: 'seq', items: [...list.items, ...args.map(wrap)] };
    if (method === 'insert' && args[1])
      return this.ev.repeats.length ? UNKNOWN : { t: 'seq', items: [...list.items, args[1]] };
    if (method === 'extend' && args[0]) {
      const more = args[0].t === 'seq' ? args[0].items : args[0].t === 'repeat' ? [args[0]] : undefined;
      if (!more || list.items.length + more.length > LIMITS.listItems) return UNKNOWN;
      return { t: 'seq', items: [...list.items, ...more.map(wrap)] };
    }
    return UNKNOWN;
  }

  handles(method: string): boolean {
    return FLUENT.has(method) || METHODS.has(method);
  }

  /** Methods of modules with an effect on the parameters; undefined for the others (user methods). */
  moduleMethod(
    obj: ModuleValue | Extract<Value, { t: 'layer' }>,
    method: string,
    positional: readonly Value[],
  ): Value | undefined {
    const tree = this.moduleOf(obj)!;
    if (method === 'requires_grad_') this.ev.grads.setAll(tree, positional[0]);
    if (FLUENT.has(method)) return obj;
    // A module with a part not followed may hold parameters not listed.
    if (method === 'parameters' || method === 'named_parameters')
      return unknownIn(tree) ? UNKNOWN : this.ev.grads.parameters(tree, method === 'named_parameters');
    if (obj.t !== 'module') return undefined;
    const [a, b] = positional;
    switch (method) {
      case 'append':
        this.addChildren(obj, a ? [a] : undefined);
        return NONE;
      case 'extend':
        this.addChildren(obj, a?.t === 'seq' ? a.items : a?.t === 'repeat' ? [a] : undefined);
        return NONE;
      case 'add_module':
      case 'register_module':
        if (a?.t === 'str' && b && !(b.t === 'unknown' && !b.scalar)) this.setMember(obj, a.v, b);
        else
          this.owner(obj.tree).differs(
            obj.tree.children as Map<string, unknown>,
            '',
            a?.t === 'str'
              ? `the module added as ${a.v} cannot be followed`
              : 'a module added under a name that is not known',
          );
        return NONE;
      case 'register_parameter':
        if (a?.t === 'str' && b) this.setMember(obj, a.v, b);
        else
          this.owner(obj.tree).differs(
            obj.tree.children as Map<string, unknown>,
            '',
            'a parameter registered under a name that is not known',
          );
        return NONE;
      case 'register_buffer':
        // Buffers are state, not parameters.
        if (a?.t === 'str') this.ev.journal.set(this.ev.assignments.fieldsOwner, obj.fields, a.v, b ?? UNKNOWN);
        return NONE;
      case 'children':
      case 'modules':
      case 'state_dict':
        return UNKNOWN;
      case 'get_submodule':
        return UNKNOWN;
      default:
        return undefined;
    }
  }

  /** Containers, parameters, tensors and weightless layers of torch; undefined for the catalog's layers. */
  construct(path: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value | undefined {
    const first = positional[0];
    switch (path) {
      case 'copy.deepcopy': {
        if (first?.t === 'module') return this.deepCopied(first).value;
        const tree = first && this.moduleOf(first);
        if (!tree) return first ? plainCopy(first, 0) : UNKNOWN;
        const copy = deepCopy(tree);
        this.registerCopy(tree, copy);
        return this.asValue(copy);
      }
      case 'torch.nn.Parameter':
      case 'torch.nn.parameter.Parameter': {
        const data = first ?? keywords.get('data');
        const shape = data?.t === 'tensor' && !data.partial ? data.shape : undefined;
        // A parameter of unknown shape is still one: the module holding it says its total is not known.
        const known = shape?.every((d) => d !== undefined);
        const ref = param(
          shape?.map((d) => d ?? Poly.symbol('size')) ?? [Poly.symbol('size')],
          known ? undefined : 'a parameter whose shape is not followed',
        );
        const grad = keywords.get('requires_grad') ?? positional[1];
        if (grad) this.ev.grads.set(ref, grad);
        return { t: 'param', ref };
      }
      case 'torch.nn.utils.weight_norm':
      case 'torch.nn.utils.parametrizations.weight_norm':
        return first?.t === 'layer'
          ? weightNorm(
              first,
              path.includes('parametrizations'),
              keywords.get('name') ?? positional[1],
              keywords.get('dim') ?? positional[2],
            )
          : UNKNOWN;
      case 'collections.OrderedDict': {
        if (!first) return { t: 'dict', fields: born(new Map()) };
        if (first.t !== 'seq') return UNKNOWN;
        const fields = born(new Map<string, Value>());
        for (const pair of first.items) {
          if (pair.t !== 'seq' || pair.items[0]?.t !== 'str' || !pair.items[1]) return UNKNOWN;
          fields.set(pair.items[0].v, pair.items[1]);
        }
        return { t: 'dict', fields };
      }
      case 'torch.nn.Sequential':
      case 'torch.nn.ModuleList':
      case 'torch.nn.ModuleDict':
        return this.container(path.slice('torch.nn.'.length), positional);
      // A bare module used as a namespace (`self.mid = nn.Module(); self.mid.block_1 = ...`): what is set on it
      // are its parts.
      case 'torch.nn.Module':
        return positional.length || keywords.size
          ? UNKNOWN
          : { t: 'module', tree: emptyModule('Module'), fields: new Map() };
      default:
        break;
    }
    const name = path.slice(path.lastIndexOf('.') + 1);
    // dinov2's drop-path rates: `np.linspace(0, drop_path_rate, depth).tolist()` (num is 50 when not given).
    if (path === 'numpy.linspace' || path === 'numpy.logspace') {
      const num = asPoly(positional[2] ?? keywords.get('num') ?? int(50));
      return { t: 'tensor', shape: [num?.constant !== undefined && num.constant >= 0n ? num : undefined] };
    }
    if (path === `torch.${name}` && TENSOR_FACTORIES.has(name)) {
      // torch.zeros(1, 1, d) or torch.zeros((1, 1, d)); torch.full takes its shape first, then the value.
      if (name === 'arange') return arange(positional, keywords);
      // timm's drop-path rates: `torch.linspace(0, drop_path_rate, depth)`, as many numbers as its steps.
      if (name === 'linspace' || name === 'logspace') {
        const steps = asPoly(positional[2] ?? keywords.get('steps') ?? UNKNOWN);
        return { t: 'tensor', shape: [steps?.constant !== undefined && steps.constant >= 0n ? steps : undefined] };
      }
      if (name === 'tensor') return { t: 'tensor', shape: [undefined], partial: true };
      if (name === 'eye')
        return {
          t: 'tensor',
          shape: [first, positional[1] ?? keywords.get('m') ?? first].map((d) => (d ? asPoly(d) : undefined)),
        };
      return { t: 'tensor', shape: factoryShape(name === 'full' ? positional.slice(0, 1) : positional, keywords) };
    }
    if (
      (path === `torch.nn.${name}` || path === `jspytorch.torch.nn.${name}`) &&
      /^[A-Z]/.test(name) &&
      !this.ev.isCatalogLayer(path)
    ) {
      if (WEIGHTLESS.has(name))
        return { t: 'module', tree: emptyModule(name), fields: weightlessFields(name, positional, keywords) };
      return {
        t: 'module',
        tree: { ...emptyModule(name), unknown: `nn.${name} is not in Attention Lens's catalog yet` },
        fields: new Map(),
      };
    }
    // einops' layers reshape and reduce without weights (its EinMix has some, and is not followed); timm's
    // stochastic depth drops a sample's branch, without weights either.
    if (LIBRARY_WEIGHTLESS.has(path)) return { t: 'module', tree: emptyModule(name), fields: new Map() };
    if (path.startsWith('torch.nn.init.') || path === 'torch.manual_seed') return SCALAR;
    return undefined;
  }

  private container(kind: string, positional: readonly Value[]): Value {
    const first = positional[0];
    const items: [string, Value][] =
      first?.t === 'dict'
        ? [...first.fields]
        : kind === 'Sequential'
          ? positional.map((v, i) => [v.t === 'repeat' ? '{i}' : String(i), v])
          : first?.t === 'seq'
            ? first.items.map((v, i) => [String(i), v])
            : first?.t === 'repeat'
              ? [['{i}', first]]
              : [];
    if (first && kind !== 'Sequential' && first.t !== 'dict' && first.t !== 'seq' && first.t !== 'repeat') {
      return {
        t: 'module',
        tree: { ...emptyModule(kind), unknown: `the ${kind} contents cannot be followed` },
        fields: new Map(),
      };
    }
    const children: [string, ModuleTree][] = [];
    for (const [k, v] of items) {
      const child = this.childTree(v);
      if (!child)
        return {
          t: 'module',
          tree: { ...emptyModule(kind), unknown: `an item of the ${kind} is not a module Attention Lens can follow` },
          fields: new Map(),
        };
      children.push([k, child]);
      if (v.t === 'module' || v.t === 'layer') this.register(child, v);
    }
    if (kind === 'Sequential') this.ev.checks.checkChain(positional);
    const value: Value = {
      t: 'module',
      tree: container(kind, children),
      fields: new Map(),
      items: kind === 'Sequential' ? positional : undefined,
    };
    this.register(value.tree, value);
    return value;
  }
}

/** The shape of `torch.zeros(1, 1, d)`, `torch.zeros((1, 1, d))`, `torch.empty(size=(n, m))` or `w.new_zeros((r, n))`. */
export function factoryShape(positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Shape {
  const [first] = positional;
  const size = keywords.get('size');
  const dims =
    first?.t === 'seq' ? first.items : !first && size ? (size.t === 'seq' ? size.items : [size]) : positional;
  return dims.map(asPoly);
}

/**
 * `weight_norm(layer)`: `weight` becomes a direction `weight_v` of its shape and a magnitude `weight_g` of size 1
 * except along `dim` (a scalar for `dim=None` or -1); parametrizations name them `original1` and `original0`.
 */
function weightNorm(
  v: Extract<Value, { t: 'layer' }>,
  parametrized: boolean,
  nameArg: Value | undefined,
  dimArg: Value | undefined,
): Value {
  const name = nameArg?.t === 'str' ? nameArg.v : nameArg ? undefined : 'weight';
  const weight = v.layer.tensors.find((t) => t.name === name);
  const dim = dimArg?.t === 'none' ? null : dimArg ? asPoly(dimArg)?.constant : 0n;
  if (!weight || dim === undefined) return UNKNOWN;
  // PyTorch reads dim=-1 as dim=None, the norm of the whole tensor, not as the last axis.
  const axis = dim === null || dim === -1n ? undefined : dim;
  if (axis !== undefined && (axis < 0n || axis >= BigInt(weight.shape.length))) return UNKNOWN;
  const g = axis === undefined ? [] : weight.shape.map((d, i) => (BigInt(i) === axis ? d : Poly.ONE));
  const [gName, vName] = parametrized
    ? [`parametrizations.${name}.original0`, `parametrizations.${name}.original1`]
    : [`${name}_g`, `${name}_v`];
  const tensors = [
    ...v.layer.tensors.filter((t) => t !== weight),
    { name: gName, shape: g },
    { name: vName, shape: weight.shape },
  ];
  return { ...v, layer: { ...v.layer, tensors, params: v.layer.params && totalParams(tensors) }, build: undefined };
}

/** The layers a plain list or dict holds (one for a comprehension's copies): none of them is registered. */
export function heldLayers(value: Value): Value[] {
  const items =
    value.t === 'seq'
      ? value.items
      : value.t === 'dict' && value.fields instanceof Map
        ? [...value.fields.values()]
        : value.t === 'repeat'
          ? [value]
          : [];
  return items.map((i) => (i.t === 'repeat' ? i.item : i)).filter((i) => i.t === 'layer' || i.t === 'module');
}
