/**
 * Subclasses of `tf.layers.Layer` as tfjs-layers 4.22 treats them. Their weights are what
 * `this.addWeight(name, shape, ...)` creates (trainable or not: countParams() counts both); layers kept in
 * their fields are not tracked, so those layers' weights are not the class's. `apply(x)` runs
 * `build(inputShape)` on the first call, then `call(x)` (`tf.sequential` builds it and reads
 * computeOutputShape() instead); until then countParams() throws, so the total is not known.
 */
import type { Interp } from './interp';
import { param, type ModuleTree } from '../values/modules';
import type { Poly } from '../values/symbolic';
import { NONE, UNKNOWN, asPoly, type DefRef, type Shape, type Value } from '../values/value';
import type { Frame } from './frame';
import { mergeHistory } from '../shapes/flow';
import { plain, type CallExpr } from '../values/bound';

type ModuleValue = Extract<Value, { t: 'module' }>;

export const NOT_BUILT = 'TF.js creates its weights on the first apply(): countParams() throws before that';

export class TfjsLayerClasses {
  /** The instances whose build() has run. */
  private readonly built = new WeakSet<ModuleTree>();

  constructor(private readonly ev: Interp) {}

  /** Whether `cls` extends `tf.layers.Layer` (and so tracks no fields). */
  is(cls: DefRef | undefined): boolean {
    return (
      !!cls &&
      this.ev.language === 'typescript' &&
      !!this.ev.classes.mro(cls)?.some((b) => 'path' in b && b.path === 'tfjs.layers.Layer')
    );
  }

  /** `this.addWeight(...)`, `layer.apply(x)`, `layer.call(x)` on such an instance; undefined for any other call. */
  method(obj: Value, method: string, e: CallExpr, frame: Frame): Value | undefined {
    if (obj.t !== 'module' || !this.is(obj.cls) || (method !== 'addWeight' && method !== 'apply' && method !== 'call'))
      return undefined;
    const cls = obj.cls!;
    // A method the class writes itself runs as written.
    if (method !== 'call' && this.ev.classes.method(cls, method)) return undefined;
    const bound = this.ev.calls.bind(e.args, frame);
    if (!bound) return UNKNOWN;
    const positional = bound.positional.map((p) => p.value);
    const keywords = plain(bound.keywords);
    if (method === 'addWeight') return this.addWeight(obj, positional);
    const input = positional[0];
    if (method === 'apply' && !this.built.has(obj.tree))
      this.build(obj, input?.t === 'tensor' && !input.partial ? shapeValue(input.shape) : UNKNOWN);
    const call = this.ev.classes.method(cls, 'call');
    // Layer.call() of the base returns its inputs.
    if (!call) return positional[0] ?? UNKNOWN;
    // Each tensor given is an input of its own, by the parameter that receives it: keys computed from the
    // second of `[text, audio]` make cross attention.
    const name = this.ev.of(call).scopeAt(call.fragment, call.scope).params[0]?.name;
    const args = name && input ? [named(input, name), ...positional.slice(1)] : positional;
    const out = this.ev.flows.within(obj, () => this.ev.of(call).functions.callFunction(call, args, keywords, obj));
    return method === 'apply' ? asOneLayer(obj, input, out) : out;
  }

  /**
   * Such a layer added to `tf.sequential`: the model applies it to a symbolic input, which builds it and
   * takes its output shape from computeOutputShape() (the input's shape when the class has none); call() is
   * not run. Undefined for any other value.
   */
  added(layer: Value, input: Shape | undefined): { tree: ModuleTree; shape: Shape | undefined } | undefined {
    if (layer.t !== 'module' || !this.is(layer.cls)) return undefined;
    const shape = input ? shapeValue(input) : UNKNOWN;
    if (!this.built.has(layer.tree)) this.build(layer, shape);
    const compute = this.ev.classes.method(layer.cls!, 'computeOutputShape');
    if (!compute) return { tree: layer.tree, shape: input };
    const out = this.ev.of(compute).functions.callFunction(compute, [shape], new Map(), layer);
    const dims = out.t === 'seq' ? out.items.map((d) => (d.t === 'none' ? undefined : asPoly(d))) : undefined;
    return { tree: layer.tree, shape: dims };
  }

  /** The first apply(): build(inputShape) with the input's shape, its dimensions null where not known. */
  private build(obj: ModuleValue, shape: Value): void {
    this.built.add(obj.tree);
    if (obj.tree.unknown === NOT_BUILT) obj.tree.unknown = undefined;
    const build = this.ev.classes.method(obj.cls!, 'build');
    if (build) this.ev.of(build).functions.callFunction(build, [shape], new Map(), obj);
  }

  /** `addWeight(name, shape, dtype?, initializer?, regularizer?, trainable?)`: a weight of the layer's own. */
  private addWeight(obj: ModuleValue, [name, shape]: readonly Value[]): Value {
    const dims = shape?.t === 'seq' ? shape.items.map((d) => asPoly(d)) : undefined;
    const tree = obj.tree;
    if (!dims || dims.some((d) => d === undefined)) {
      tree.unknown ??=
        name?.t === 'str' ? `the shape of weight ${name.v} is not known` : 'the shape of a weight is not known';
      return UNKNOWN;
    }
    const ref = param(dims as Poly[]);
    const base = name?.t === 'str' ? name.v : 'weight';
    let key = base;
    for (let i = 1; tree.params.has(key); i++) key = `${base}_${i}`;
    this.ev.journal.set(this.ev.torch.owner(tree), tree.params, key, ref);
    return { t: 'param', ref };
  }
}

/** A shape as TF.js hands it to build() and computeOutputShape(): an array, null where a size is not known. */
function shapeValue(shape: Shape): Value {
  return { t: 'seq', items: shape.map((d): Value => (d ? { t: 'int', p: d } : NONE)) };
}

/** `input` traced to the argument `name` (`inputs[1]` for the second of a list), where nothing traces it yet. */
function named(input: Value, name: string): Value {
  const tag = (v: Value, id: string): Value =>
    v.t === 'tensor' && !v.trace ? { ...v, trace: { source: { input: id } } } : v;
  return input.t === 'seq' ? { ...input, items: input.items.map((v, i) => tag(v, `${name}[${i}]`)) } : tag(input, name);
}

/**
 * What apply() returns, as a model reads it: the layer itself, not the layers its call() applied, which it
 * does not track (a model holding it counts its own weights only, as countParams() does).
 */
function asOneLayer(obj: ModuleValue, input: Value | undefined, out: Value): Value {
  const inputs = input?.t === 'seq' ? input.items : input ? [input] : [];
  if (out.t !== 'tensor' || !out.history || !inputs.every((i) => i.t === 'tensor')) return out;
  const history = mergeHistory(inputs.map((i) => (i as Extract<Value, { t: 'tensor' }>).history));
  return { ...out, history: history && mergeHistory([history, [{ layer: obj, tree: obj.tree }]]) };
}
