/**
 * TF.js models as tfjs-layers builds them: `tf.sequential` (its layers, and those `model.add` appends) and
 * `tf.model({inputs, outputs})` (every layer between them, a shared layer once). Their total is what
 * `countParams()` reports, summed over the layers as they were built. Applying a layer checks what TF.js
 * checks, in its own words: the rank a layer needs, and the last axis of a layer already built.
 */
import type { Span } from '../ir/expr';
import { mergeHistory, feed } from '../shapes/flow';
import type { Finding, LayerInstance } from '../values/layer';
import { container, layerModule, type ModuleTree } from '../values/modules';
import type { Poly } from '../values/symbolic';
import type { LayerUse, Shape, Value } from '../values/value';
import type { LineName } from '../ir/source';
import { tfjsInputMismatch } from '../findings/messages';

type TensorValue = Extract<Value, { t: 'tensor' }>;

/** A tf.layers.Layer subclass a model adds: its tree, and the shape it gives for `input` (built for it). */
export type CustomLayer = (
  layer: Value,
  input: Shape | undefined,
) => { tree: ModuleTree; shape: Shape | undefined } | undefined;

interface ModelState {
  /** Catalog layers as built, and the trees of the file's own Layer subclasses, in the order added. */
  layers: LayerUse[];
  shape: Shape | undefined;
  unknown?: string;
}

/** The rank each kind needs (batch axis included), as its inputSpec says. */
const NDIM: Record<string, number> = {
  lstm: 3,
  gru: 3,
  simpleRNN: 3,
  conv1d: 3,
  conv2d: 4,
  bidirectional: 3,
  timeDistributed: 3,
};
/** Kinds whose weights fix the last axis of what they read, once built. */
const LAST_AXIS = new Set(['dense', 'lstm', 'gru', 'simpleRNN', 'batchNormalization', 'layerNormalization']);

const shapeText = (s: Shape) =>
  `[${s.map((d) => (d?.constant === undefined ? 'null' : String(d.constant))).join(',')}]`;

export class TfjsModels {
  private readonly models = new Map<number, ModelState>();
  /** The shape each layer was first applied to: TF.js builds its weights for it. */
  private readonly firstShapes = new WeakMap<object, Shape>();
  /** Each layer as its first apply() built it. */
  private readonly firstBuilds = new WeakMap<object, LayerInstance>();

  constructor(
    private readonly report: (f: Finding) => void,
    private readonly custom: CustomLayer,
    private readonly lineName: LineName,
    /** A layer built for the inputs it is applied to: TF.js sizes its weights by them. */
    private readonly build: (
      layer: Extract<Value, { t: 'layer' }>,
      inputs: readonly Shape[],
    ) => LayerInstance | undefined,
  ) {}

  /** A new model; its module tree is read once the run is over (`model.add` may still extend it). */
  create(layers: readonly Value[] | undefined, span: Span): { value: Value; tree: () => ModuleTree } {
    const id = this.models.size;
    const state: ModelState = { layers: [], shape: undefined };
    this.models.set(id, state);
    for (const layer of layers ?? []) this.add(id, layer, span);
    return { value: { t: 'model', id }, tree: () => this.tree(state, 'Sequential') };
  }

  /** `tf.model({inputs, outputs})`: the layers the outputs went through. */
  functional(outputs: Value | undefined): () => ModuleTree {
    const list = outputs?.t === 'seq' ? outputs.items : outputs ? [outputs] : [];
    const history = list.every((o) => o.t === 'tensor')
      ? mergeHistory(list.map((o) => (o as TensorValue).history))
      : undefined;
    const state: ModelState = {
      layers: history ?? [],
      shape: undefined,
      unknown: history ? undefined : 'its outputs cannot be followed back to its inputs',
    };
    return () => this.tree(state, 'LayersModel');
  }

  /** The script stopped (it threw): no model made so far gets the layers it would have added after. */
  stopped(why: string): void {
    for (const state of this.models.values()) state.unknown ??= why;
  }

  /** `model.add(layer)`, or a layer of `tf.sequential({layers})`. */
  add(id: number, layer: Value, span: Span, unsure = false): void {
    const state = this.models.get(id);
    if (!state) return;
    if (unsure) state.unknown ??= 'a layer is added on a path that may not run';
    const own = layer.t === 'module' ? this.custom(layer, state.shape) : undefined;
    if (own) {
      state.layers.push({ layer, tree: own.tree });
      state.shape = own.shape;
      return;
    }
    if (layer.t !== 'layer' && layer.t !== 'op') {
      state.unknown ??= 'a layer added to it cannot be followed';
      state.shape = undefined;
      return;
    }
    // TF.js throws at the layer's construction: the model it was meant for is never built.
    if (layer.t === 'layer' && layer.layer.rejected)
      state.unknown ??= `${layer.layer.kind} (${this.lineName(layer.span.startLine)}) would throw: ${layer.layer.rejected}`;
    const input: TensorValue[] = state.shape ? [{ t: 'tensor', shape: state.shape }] : [];
    if (input[0] && layer.t === 'layer') this.check(layer, input[0], span, true);
    const out = feed(layer, input, this.build);
    state.shape = out?.shape;
    if (layer.t === 'layer') state.layers.push({ layer, built: out?.built ?? layer.layer });
  }

  /** `layer.apply(x)`: the tensor it returns, which remembers the layer as it was built. */
  apply(layer: Value, inputs: readonly TensorValue[], span: Span): Value | undefined {
    if (layer.t === 'layer' && inputs[0]) this.check(layer, inputs[0], span, false);
    const out = feed(layer, inputs, this.build);
    if (!out) return undefined;
    const history = mergeHistory(inputs.map((i) => i.history));
    if (layer.t === 'layer' && out.built && !this.firstBuilds.has(layer)) this.firstBuilds.set(layer, out.built);
    const use = layer.t === 'layer' && out.built ? [{ layer, built: out.built }] : [];
    return {
      t: 'tensor',
      shape: out.shape,
      history: history && mergeHistory([history, use]),
      origin:
        layer.t === 'layer'
          ? { label: `${layer.layer.kind} (${this.lineName(layer.span.startLine)})`, span: layer.span }
          : inputs[0]?.origin,
    };
  }

  /** `layer` with the weights its first apply() created, when it was applied. */
  built(layer: Value): LayerInstance | undefined {
    return this.firstBuilds.get(layer);
  }

  private check(layer: Extract<Value, { t: 'layer' }>, input: TensorValue, span: Span, inSequential: boolean): void {
    const kind = layer.layer.kind;
    const name = `${kind} (${this.lineName(layer.span.startLine)})`;
    const code = inSequential ? 'sequential-mismatch' : 'feature-mismatch';
    const at = inSequential ? layer.span : span;
    const ndim = NDIM[kind];
    if (ndim !== undefined && !input.partial && input.shape.length !== ndim) {
      this.report({
        code,
        severity: 'error',
        span: at,
        fixes: [],
        message: tfjsInputMismatch({
          of: 'rank',
          layer: name,
          kind,
          ndim,
          shape: shapeText(input.shape),
          got: input.shape.length,
        }),
      });
      return;
    }
    const first = this.firstShapes.get(layer);
    if (!first) {
      this.firstShapes.set(layer, input.shape);
      return;
    }
    const was: Poly | undefined = first[first.length - 1];
    const now = input.shape[input.shape.length - 1];
    if (
      LAST_AXIS.has(kind) &&
      was?.constant !== undefined &&
      now?.constant !== undefined &&
      was.constant !== now.constant
    ) {
      this.report({
        code,
        severity: 'error',
        span: at,
        fixes: [],
        message: tfjsInputMismatch({
          of: 'features',
          layer: name,
          kind,
          was: was.constant,
          now: now.constant,
          shape: shapeText(input.shape),
        }),
      });
    }
  }

  private tree(state: ModelState, kind: string): ModuleTree {
    const tree = container(
      kind,
      state.layers.map((u, i): [string, ModuleTree] =>
        'built' in u ? [`${u.built.kind}_${i + 1}`, layerModule(u.built)] : [`${u.tree.kind}_${i + 1}`, u.tree],
      ),
    );
    if (state.unknown) tree.unknown ??= state.unknown;
    return tree;
  }
}
