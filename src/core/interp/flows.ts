/**
 * Tensors through calls: a module's forward(), a Sequential's layers in order, a layer's own rule, TF.js
 * `apply`/`call` and `tf.sequential` / `model.add` chains, and following forward() for hints and checks.
 */
import type { Arg, Expr, Span } from '../ir/expr';
import type { Interp } from './interp';
import { appliedTensors } from '../shapes/flow';
import type { Poly } from '../values/symbolic';
import { TfjsModels } from './tfjsModels';
import { unknownIn } from '../values/modules';
import { OPAQUE } from '../shapes/tensors';
import { NONE, UNKNOWN, type Core, type Value } from '../values/value';
import type { Frame } from './frame';
import { softmaxed } from '../shapes/trace';
import { WEIGHTLESS, type AttentionEvents } from './shapeChecks';
import type { CallExpr } from '../values/bound';

type ModuleValue = Extract<Value, { t: 'module' }>;

export class Flows {
  readonly tfjs: TfjsModels;
  /** The modules whose forward() is running, innermost last. */
  private readonly running: ModuleValue[] = [];
  /** The module whose forward() made each attention core. */
  private readonly cores = new WeakMap<Core, ModuleValue>();

  constructor(private readonly ev: Interp) {
    this.tfjs = new TfjsModels(
      (f) => {
        if (ev.quiet === 0) ev.hooks.report(f);
      },
      (layer, input) => ev.tfjsLayers.added(layer, input),
      ev.lineName,
      (layer, inputs) => ev.hooks.apply?.(layer, inputs, true),
    );
  }

  /** An attention core belongs to the module whose forward() makes it; its output projection must be applied there too. */
  readonly attention: AttentionEvents = {
    core: (core) => {
      const module = this.running[this.running.length - 1];
      if (!module || this.ev.tape) return;
      this.cores.set(core, module);
      this.ev.hooks.attention?.(module, { core });
    },
    output: (core, layer) => {
      const module = this.running[this.running.length - 1];
      if (module && !this.ev.tape && this.cores.get(core) === module)
        this.ev.hooks.attention?.(module, { core, output: layer });
    },
  };

  /** Runs `module`'s forward(). */
  private forward(module: ModuleValue, run: () => Value): Value {
    this.running.push(module);
    try {
      return run();
    } finally {
      this.running.pop();
    }
  }

  /** `layer.apply(x)` / `mha.call(q, {value})` / `model.add(layer)`: the shapes that flow through. */
  flowCall(target: Value, method: string, args: readonly Arg[], frame: Frame, span: Span): Value | undefined {
    if (target.t !== 'model' && target.t !== 'layer' && target.t !== 'op') return undefined;
    const values = args.map((a) => this.ev.eval(a.value, frame));
    if (method === 'add') {
      if (target.t !== 'model' || !values[0]) return undefined;
      this.tfjs.add(target.id, values[0], span, this.ev.shared.unsure > 0);
      return NONE;
    }
    if (target.t === 'model') return undefined;
    const inputs = appliedTensors(values);
    const out = inputs && this.tfjs.apply(target, inputs, span);
    if (!out) return UNKNOWN;
    // A dense layer projects the last axis: its output is traced to it, for attention written by hand.
    return target.t === 'layer' && target.layer.kind === 'dense' && out.t === 'tensor'
      ? this.ev.checks.traced(target, inputs[0], out)
      : out;
  }

  /** Runs a tf.layers.Layer subclass's call() as its forward(): the attention it computes is its own. */
  within(module: Value, run: () => Value): Value {
    return module.t === 'module' ? this.forward(module, run) : run();
  }

  /** `tf.sequential({layers: [...]})`: each layer is fed what the one before it produces. */
  sequential(config: Value | undefined, call: CallExpr): Value {
    const layers = config?.t === 'dict' ? config.fields.get('layers') : undefined;
    const model = this.tfjs.create(layers?.t === 'seq' ? layers.items : undefined, call.span);
    this.ev.hooks.model?.(call, 'Sequential', model.tree);
    return model.value;
  }

  /** `tf.model({inputs, outputs})`: the layers between them. */
  functional(config: Value | undefined, call: CallExpr): Value {
    const tree = this.tfjs.functional(config?.t === 'dict' ? config.fields.get('outputs') : undefined);
    this.ev.hooks.model?.(call, 'LayersModel', tree);
    return UNKNOWN;
  }

  /** `model(x)`: a module runs its forward(); a Sequential applies its layers in order; a layer its rule. */
  applyCallable(
    callee: Extract<Value, { t: 'layer' } | { t: 'module' }>,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    span: Span,
  ): Value {
    const forward = callee.t === 'module' && callee.cls ? this.ev.classes.method(callee.cls, 'forward') : undefined;
    const run = () => this.applied(callee, forward, positional, keywords, span);
    return this.ev.tape ? this.ev.tape.call(callee, forward !== undefined, positional, keywords, run) : run();
  }

  private applied(
    callee: Extract<Value, { t: 'layer' } | { t: 'module' }>,
    forward: ReturnType<Interp['classes']['method']>,
    positional: readonly Value[],
    keywords: ReadonlyMap<string, Value>,
    span: Span,
  ): Value {
    if (callee.t === 'layer') return this.ev.checks.applyLayer(callee, positional, keywords, span);
    if (callee.items) {
      // Between its own layers a Sequential is checked where it is built (sequential-mismatch); here only
      // what enters it.
      return callee.items.reduce<Value>((x, layer, i) => {
        if (layer.t !== 'layer' && layer.t !== 'module') return UNKNOWN;
        if (i === 0) return this.applyCallable(layer, [x], new Map(), span);
        return this.ev.quietly(() => this.applyCallable(layer, [x], new Map(), span));
      }, positional[0] ?? UNKNOWN);
    }
    if (callee.cls) {
      if (forward) {
        const out = this.forward(callee, () =>
          this.ev.of(forward).functions.callFunction(forward, positional, keywords, callee),
        );
        // A subclass of a catalog layer with a forward() of its own (whisper's Linear casting its weights) is
        // still that layer to what follows: its output is the layer's.
        return callee.layer && out.t !== 'seq' ? this.ev.checks.layerOutput(callee.layer, positional[0], out) : out;
      }
      if (callee.layer) return this.ev.checks.applyLayer(callee.layer, positional, keywords, span);
      return UNKNOWN;
    }
    const input = positional[0];
    if (input?.t !== 'tensor' || !WEIGHTLESS.has(callee.tree.kind) || callee.tree.kind === 'Flatten') return UNKNOWN;
    return callee.tree.kind === 'Softmax' ? softmaxed(input) : input;
  }

  /** Runs `instance`'s forward() on `inputs`. */
  run(instance: ModuleValue, inputs: readonly Value[]): Value | undefined {
    const forward = instance.cls && this.ev.classes.method(instance.cls, 'forward');
    if (!forward) return undefined;
    return this.forward(instance, () =>
      this.ev.of(forward).functions.callFunction(forward, inputs, new Map(), instance),
    );
  }

  /**
   * Follows a model instance's forward() with its inputs unknown: shape errors go to the hooks, and the
   * feature size known after each assignment of this file that the run reaches is returned, for inlay hints.
   */
  followForward(instance: Value): { at: Expr; features: Poly }[] {
    if (instance.t !== 'module' || !instance.cls) return [];
    const forward = this.ev.classes.method(instance.cls, this.ev.tfjsLayers.is(instance.cls) ? 'call' : 'forward');
    if (!forward) return [];
    // A model whose build took paths that are not known (`if self.depth > 0:` with the depth a name) may
    // hold parts no real build holds together: following it finds its attention, but no error and no size.
    const uncertain = unknownIn(instance.tree) !== undefined;
    const sizes: { at: Expr; features: Poly }[] = [];
    this.ev.assigned = (value, expr) => {
      if (uncertain) return;
      const f = value.t === 'tensor' ? value.shape[value.shape.length - 1] : undefined;
      if (f?.constant !== undefined) sizes.push({ at: expr, features: f });
    };
    try {
      const scope = this.ev.of(forward).scopeAt(forward.fragment, forward.scope);
      // Each input is traced by its name: keys from another input than the queries make cross attention.
      const inputs = scope.params
        .slice(this.ev.language === 'python' ? 1 : 0)
        .filter((p) => !p.default && !p.variadic)
        .map((p): Value => ({ ...OPAQUE, lead: p.name, trace: { source: { input: p.name } } }));
      this.ev.checks.forgetLeads();
      const run = () =>
        this.ev.guard(() =>
          this.forward(instance, () =>
            this.ev.of(forward).functions.callFunction(forward, inputs, new Map(), instance),
          ),
        );
      if (uncertain) this.ev.quietly(run);
      else run();
    } finally {
      this.ev.assigned = undefined;
    }
    return sizes;
  }
}
