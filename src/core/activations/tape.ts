/**
 * The recorder the interpreter reports every tensor operation to while it follows one forward() for the
 * activations: each tensor it meets has an id, each operation becomes an op of the program, with the part of
 * the model (the layer forward() called) that ran it. An operation it does not know, a tensor it did not see
 * made, or a path the interpreter cannot decide ends the recording: the figure is then not known.
 */
import type { Span } from '../ir/expr';
import type { ModuleTree } from '../values/modules';
import { Poly } from '../values/symbolic';
import type { GradOf } from '../values/modules';
import type { Value } from '../values/value';
import {
  BATCH_DIM,
  SEQUENCE_DIM,
  type Dim,
  type Dtype,
  type Op,
  type Operand,
  type Program,
  type Weights,
} from './program';
import { Unfollowed } from './shapes';

type TensorValue = Extract<Value, { t: 'tensor' }>;
type Recorded = Op extends infer O ? (O extends Op ? Omit<O, 'layer'> : never) : never;

/** The model input was token indices, and its first layer reads features of this width: try again with those. */
export class WantsFeatures extends Unfollowed {
  constructor(readonly width: bigint) {
    super('forward() reads features');
  }
}

/** What the tape needs from the interpreter. */
export interface TapeHost {
  moduleOf(v: Value): ModuleTree | undefined;
  /** Where a module or layer sits in the model followed, as `named_modules()` names it. */
  pathOf(v: Value): string | undefined;
  /** Where the layer or module is written in the file analysed, if it is. */
  spanOf(v: Value): Span | undefined;
  readonly grad: GradOf;
}

export class Tape {
  /** Where operations are recorded now: the program, or the body of the loop being recorded. */
  private ops: Op[] = [];
  private recorded = 0;
  private readonly layers: { path: string; kind: string; calls: number; at?: Span }[] = [];
  private readonly ids = new WeakMap<object, number>();
  private readonly shapes = new Map<number, readonly Dim[]>();
  private readonly dtypes = new Map<number, Dtype>();
  private next = 0;
  /** The layer the root's forward() is running now; -1 for the root's own code. */
  private layer = -1;
  /** How deep in module calls the run is: calls made at depth 0 are the layers figures are broken down by. */
  private depth = 0;
  private inputId = -1;

  constructor(
    readonly host: TapeHost,
    readonly input: Program['input'],
  ) {}

  /** How many operations were recorded: a loop pass that records some is not skipped as idle. */
  get size(): number {
    return this.recorded;
  }

  program(): Program {
    return {
      ops: this.ops,
      layers: this.layers.map(({ path, kind, calls, at }) => ({ path, kind, calls, ...(at ? { at } : {}) })),
      input: this.input,
    };
  }

  /** forward()'s argument: batch × sequence token indices, or batch × sequence × width features. */
  inputValue(): Value {
    const shape =
      this.input.kind === 'tokens' ? [BATCH_DIM, SEQUENCE_DIM] : [BATCH_DIM, SEQUENCE_DIM, Poly.int(this.input.width)];
    const dtype = this.input.kind === 'tokens' ? 'long' : 'float';
    const { value, id } = this.make(shape, dtype);
    this.inputId = id;
    this.record({ k: 'input', out: id, shape, dtype });
    return value;
  }

  /** A tensor made before forward() (a buffer): nothing in it trains, and its dtype is not followed. */
  constant(v: Value): void {
    if (v.t !== 'tensor' || this.ids.has(v)) return;
    const id = this.register(v, v.partial ? [undefined] : v.shape, 'unknown');
    this.record({ k: 'constant', out: id, shape: this.shape(id), dtype: 'unknown' });
  }

  fail(why: string): never {
    throw new Unfollowed(why);
  }

  record(op: Recorded): void {
    this.recorded++;
    this.ops.push({ ...op, layer: this.layer } as Op);
  }

  /**
   * Starts recording the body of a loop over `times` alike blocks (`for block in self.h:`), run once by the
   * interpreter; `end` makes it one op the replay runs `times` times. Each name the pass rebinds must be a
   * tensor handed to the next pass (`x = block(x)`) or one first bound in it; any other change, or a write
   * to the model, makes the passes differ and ends the recording.
   */
  repeat(times: bigint): {
    end(changed: ReadonlyMap<string, Value | undefined>, after: ReadonlyMap<string, Value>, wrote: boolean): void;
  } {
    if (times > 100_000n) this.fail('a loop of more blocks than followed');
    const outer = this.ops;
    const body: Op[] = [];
    this.ops = body;
    const calls = this.layers.map((l) => l.calls);
    return {
      end: (changed, after, wrote) => {
        this.ops = outer;
        if (wrote) this.fail('a loop whose passes write to the model');
        const carried: { slot: number; from: number; to: number }[] = [];
        const slots = new Map<number, number>();
        for (const [name, old] of changed) {
          const now = after.get(name);
          // A name first bound in the pass is bound again before any later pass reads it.
          if (now === undefined || old === now || old === undefined) continue;
          if (old?.t !== 'tensor' || now.t !== 'tensor') this.fail(`a loop whose passes change ${name}`);
          const from = this.id(old);
          const slot = this.register({}, this.shape(from), this.dtype(from));
          slots.set(from, slot);
          carried.push({ slot, from, to: this.id(now) });
        }
        // Each layer the body called is called once a pass.
        this.layers.forEach((l, i) => (l.calls += (l.calls - (calls[i] ?? 0)) * (Number(times) - 1)));
        this.record({ k: 'repeat', times: Number(times), body: body.map((op) => readingFrom(op, slots)), carried });
      },
    };
  }

  /** A new tensor value for the interpreter, with the trace of what it computed (for attention written by hand). */
  make(shape: readonly Dim[], dtype: Dtype, like?: Value): { value: TensorValue; id: number } {
    const value: TensorValue = {
      t: 'tensor',
      shape,
      ...(like?.t === 'tensor' ? { origin: like.origin, trace: like.trace } : {}),
    };
    return { value, id: this.register(value, shape, dtype) };
  }

  private register(v: object, shape: readonly Dim[], dtype: Dtype): number {
    const id = this.next++;
    this.ids.set(v, id);
    this.shapes.set(id, shape);
    this.dtypes.set(id, dtype);
    return id;
  }

  /** A value for the interpreter standing for tensor `id`, one a layer made among its own steps. */
  valueOf(id: number, like?: Value): TensorValue {
    const value: TensorValue = {
      t: 'tensor',
      shape: this.shape(id),
      ...(like?.t === 'tensor' ? { origin: like.origin, trace: like.trace } : {}),
    };
    this.ids.set(value, id);
    return value;
  }

  isTensor(v: Value | undefined): boolean {
    return v?.t === 'tensor' || v?.t === 'param' || (v?.t === 'seq' && v.items.some((i) => this.isTensor(i)));
  }

  id(v: Value | undefined): number {
    const id = v?.t === 'tensor' ? this.ids.get(v) : undefined;
    if (id === undefined)
      this.fail(
        v?.t === 'tensor'
          ? 'a tensor computed in a way not followed'
          : 'an operation on something that is not a tensor followed',
      );
    return id;
  }

  shape(id: number): readonly Dim[] {
    return this.shapes.get(id)!;
  }

  dtype(id: number): Dtype {
    return this.dtypes.get(id)!;
  }

  /** A floating-point tensor a layer reads: the model's token input here means forward() wants features. */
  features(v: Value | undefined, width: Dim): number {
    const id = this.id(v);
    if (this.dtype(id) === 'long' && id === this.inputId && width?.constant !== undefined)
      throw new WantsFeatures(width.constant);
    if (this.dtype(id) !== 'float') this.fail('a layer given indices where it reads features');
    const last = this.shape(id).at(-1);
    if (width?.constant !== undefined && last?.constant !== undefined && last.constant !== width.constant)
      this.fail('a layer given another feature size than it reads');
    return id;
  }

  operand(v: Value | undefined): Operand {
    if (v?.t === 'tensor') return { t: 'tensor', id: this.id(v) };
    if (v?.t === 'int' || v?.t === 'float' || v?.t === 'bool') return { t: 'scalar' };
    if (v?.t === 'param') {
      const shape = v.ref.shape;
      if (shape.some((d) => d.constant === undefined)) this.fail('a parameter whose size is not known');
      return { t: 'param', shape, grad: this.trains(v.ref) };
    }
    return this.fail('an operation on something that is not a tensor followed');
  }

  operandShape(o: Operand): readonly Dim[] {
    return o.t === 'tensor' ? this.shape(o.id) : o.t === 'param' ? o.shape : [];
  }

  trains(ref: Parameters<GradOf>[0]): boolean {
    const state = this.host.grad(ref);
    if (state === 'unknown') this.fail('whether a parameter trains is not known');
    return state === 'trainable';
  }

  /** Whether a layer's weight and bias train. */
  weights(layer: Value): Weights {
    return { weight: this.trainsAt(layer, 'weight'), bias: this.trainsAt(layer, 'bias') };
  }

  /** Whether the parameter at `path` in a layer (`out_proj.weight`) trains; undefined when it has none there. */
  trainsAt(layer: Value, path: string): boolean | undefined {
    const segments = path.split('.');
    let tree = this.host.moduleOf(layer);
    for (const s of segments.slice(0, -1)) tree = tree?.children.get(s);
    const ref = tree?.params.get(segments[segments.length - 1]);
    return ref ? this.trains(ref) : undefined;
  }

  /** Runs a module forward() calls; calls from the root's own forward() are the layers of the breakdown. */
  within<T>(module: Value, kind: string, run: () => T): T {
    if (this.depth > 0) return run();
    const path = this.host.pathOf(module);
    const before = this.layer;
    if (path !== undefined) {
      let index = this.layers.findIndex((l) => l.path === path);
      if (index < 0) index = this.layers.push({ path, kind, calls: 0, at: this.host.spanOf(module) }) - 1;
      this.layers[index].calls++;
      this.layer = index;
    }
    this.depth++;
    try {
      return run();
    } finally {
      this.depth--;
      this.layer = before;
    }
  }
}

/** `op` reading each tensor of `slots`' keys from its slot instead: the body of a loop, from the tensor its pass is handed. */
function readingFrom(op: Op, slots: ReadonlyMap<number, number>): Op {
  const id = (n: number) => slots.get(n) ?? n;
  const operand = (o: Operand): Operand => (o.t === 'tensor' ? { t: 'tensor', id: id(o.id) } : o);
  switch (op.k) {
    case 'input':
    case 'constant':
      return op;
    case 'pointwise':
      return { ...op, args: op.args.map(operand) };
    case 'matmul':
      return { ...op, a: operand(op.a), b: operand(op.b) };
    case 'cat':
      return { ...op, ins: op.ins.map(id) };
    case 'maskedFill':
      return { ...op, in: id(op.in), mask: id(op.mask) };
    case 'repeat':
      return {
        ...op,
        body: op.body.map((b) => readingFrom(b, slots)),
        carried: op.carried.map((c) => ({ ...c, from: id(c.from) })),
      };
    default:
      return { ...op, in: id(op.in) };
  }
}
