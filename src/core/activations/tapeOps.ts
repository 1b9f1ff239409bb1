/**
 * The operations of the tape built from what forward() wrote: element-wise functions, views, splits, softmax,
 * dropout, products, linear layers and norms, embeddings, weightless modules, and the constants forward()
 * makes. Each records one op and gives the interpreter the tensor it returns.
 */
import { computesAs, type LayerInstance } from '../values/layer';
import { Poly } from '../values/symbolic';
import { asPoly, type Value } from '../values/value';
import type { Dim, Dtype, Operand, Pointwise } from './program';
import { broadcast, partCount, productShape, swapped, viewed } from './tapeShapes';
import { normalize } from './shapes';
import type { Tape } from './tape';
import { multiheadAttention } from './multihead';
import { dims, int, probability, truth, type Args, type Keywords } from './tapeArgs';

const MODULES: Readonly<Record<string, Pointwise>> = {
  GELU: 'gelu',
  SiLU: 'silu',
  ReLU: 'relu',
  Tanh: 'tanh',
  Sigmoid: 'sigmoid',
};
/** The catalog layers whose steps are followed. */
const FOLLOWED = new Set(['Linear', 'LayerNorm', 'Embedding', 'MultiheadAttention']);

export class TapeOps {
  constructor(readonly tape: Tape) {}

  protected pointwise(fn: Pointwise, args: Args, evaluated: Value): Value {
    const t = this.tape;
    const ops = args.map((a) => t.operand(a));
    const shape = broadcast(ops.map((o) => t.operandShape(o)));
    const tensors = ops
      .filter((o): o is Extract<Operand, { t: 'tensor' }> => o.t === 'tensor')
      .map((o) => t.dtype(o.id));
    const dtype: Dtype =
      fn === 'compare'
        ? 'bool'
        : tensors.includes('float') || ops.some((o) => o.t === 'param')
          ? 'float'
          : tensors.length === ops.length
            ? tensors[0]
            : 'unknown';
    const out = t.make(shape, dtype, evaluated);
    t.record({ k: 'pointwise', fn, args: ops, out: out.id });
    return out.value;
  }

  protected view(x: Value, shape: readonly Dim[], copies: boolean): Value {
    const t = this.tape;
    const id = t.id(x);
    const out = t.make(viewed(t.shape(id), shape), t.dtype(id), x);
    t.record({ k: 'view', in: id, out: out.id, shape, copies });
    return out.value;
  }

  protected transpose(x: Value, a: number | undefined, b: number | undefined): Value {
    const t = this.tape;
    const id = t.id(x);
    if (a === undefined || b === undefined) return t.fail('a transpose of dimensions not known');
    const out = t.make(swapped(t.shape(id), a, b), t.dtype(id), x);
    t.record({ k: 'transpose', in: id, out: out.id, a, b });
    return out.value;
  }

  protected split(x: Value, name: 'split' | 'chunk', positional: Args, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    const id = t.id(x);
    const shape = t.shape(id);
    const d = normalize(int(positional[1] ?? keywords.get('dim')) ?? 0, shape.length);
    const arg = positional[0] ?? keywords.get(name === 'split' ? 'split_size_or_sections' : 'chunks');
    const size = name === 'split' ? (arg ? asPoly(arg) : undefined) : undefined;
    const chunks = name === 'chunk' ? int(arg) : undefined;
    if ((name === 'split' && !size) || (name === 'chunk' && !chunks)) return t.fail(`a ${name} not followed`);
    const count = partCount(shape[d], size, chunks);
    const part =
      size ??
      (chunks && shape[d]?.constant !== undefined
        ? Poly.int((shape[d]!.constant! + BigInt(chunks) - 1n) / BigInt(chunks))
        : undefined);
    const outs = Array.from({ length: count }, (_, i) => {
      const last =
        i === count - 1 && shape[d]?.constant !== undefined && part?.constant !== undefined
          ? Poly.int(shape[d]!.constant! - part.constant * BigInt(count - 1))
          : part;
      return t.make(
        shape.map((s, j) => (j === d ? last : s)),
        t.dtype(id),
        evaluated.t === 'seq' ? evaluated.items[i] : undefined,
      );
    });
    t.record({ k: 'split', in: id, outs: outs.map((o) => o.id), dim: d, size, chunks });
    return { t: 'seq', items: outs.map((o) => o.value), tuple: true };
  }

  protected softmax(x: Value | undefined, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    if (keywords.has('dtype')) return t.fail('a softmax that changes the dtype');
    const id = t.id(x);
    const out = t.make(t.shape(id), t.dtype(id), evaluated);
    t.record({ k: 'softmax', in: id, out: out.id });
    return out.value;
  }

  protected dropout(x: Value | undefined, p: number, training: Value | undefined, inPlace: boolean): Value {
    const t = this.tape;
    if (inPlace) return t.fail('dropout in place');
    const id = t.id(x);
    // The figures are for train mode: `training=self.training` is True there.
    if (training && truth(training) === undefined) return t.fail('dropout whose training flag is not known');
    if (truth(training) === false || p === 0) return x!;
    const out = t.make(t.shape(id), t.dtype(id), x);
    t.record({ k: 'dropout', in: id, out: out.id, p });
    return out.value;
  }

  /** `x.sum(dim)`, `x.mean(dim, keepdim=True)`: all dimensions when none is given. */
  protected reduce(
    fn: 'sum' | 'mean',
    x: Value | undefined,
    dim: Value | undefined,
    keepdim: Value | undefined,
    keywords: Keywords,
    evaluated: Value,
  ): Value {
    const t = this.tape;
    const id = t.id(x);
    const shape = t.shape(id);
    if (keywords.has('dtype') || (keepdim && truth(keepdim) === undefined)) return t.fail('a reduction not followed');
    const all = dim === undefined || dim.t === 'none';
    const picked = all ? shape.map((_, i) => i) : (dim.t === 'seq' ? dim.items : [dim]).map((d) => int(d));
    if (picked.some((d) => d === undefined)) return t.fail('a reduction over dimensions not known');
    const dims = picked.map((d) => normalize(d!, shape.length));
    const kept = truth(keepdim) === true;
    const out = t.make(
      kept ? shape.map((s, i) => (dims.includes(i) ? Poly.ONE : s)) : shape.filter((_, i) => !dims.includes(i)),
      t.dtype(id),
      evaluated,
    );
    t.record({ k: 'reduce', fn, in: id, out: out.id, dims: all ? undefined : dims, keepdim: kept });
    return out.value;
  }

  protected matmul(a: Value | undefined, b: Value | undefined, evaluated: Value): Value {
    const t = this.tape;
    const [oa, ob] = [t.operand(a), t.operand(b)];
    if (oa.t === 'scalar' || ob.t === 'scalar') return t.fail('a matrix product with a number');
    const out = t.make(productShape(t.operandShape(oa), t.operandShape(ob)), 'float', evaluated);
    t.record({ k: 'matmul', a: oa, b: ob, out: out.id });
    return out.value;
  }

  protected linear(x: Value | undefined, weight: Value | undefined, bias: Value | undefined, evaluated: Value): Value {
    const t = this.tape;
    if (weight?.t !== 'param' || (bias && bias.t !== 'param' && bias.t !== 'none'))
      return t.fail('F.linear with weights that are not parameters');
    const [outF, inF] = weight.ref.shape;
    const id = t.features(x, inF);
    const out = t.make([...t.shape(id).slice(0, -1), outF], 'float', evaluated);
    const withBias = bias?.t === 'param';
    t.record({
      k: 'linear',
      in: id,
      out: out.id,
      shape: [outF, inF],
      bias: withBias,
      grads: { weight: t.trains(weight.ref), bias: withBias ? t.trains(bias.ref) : undefined },
    });
    return out.value;
  }

  protected layerNorm(
    x: Value | undefined,
    normalized: Value | undefined,
    weight: Value | undefined,
    bias: Value | undefined,
    evaluated: Value,
  ): Value {
    const t = this.tape;
    const count = normalized?.t === 'seq' ? normalized.items.length : normalized?.t === 'int' ? 1 : 0;
    const affine = (v: Value | undefined) =>
      v?.t === 'param'
        ? t.trains(v.ref)
        : v === undefined || v.t === 'none'
          ? undefined
          : t.fail('F.layer_norm with weights that are not parameters');
    if (!count) return t.fail('F.layer_norm over sizes not known');
    const id = t.features(x, undefined);
    const out = t.make(t.shape(id), 'float', evaluated);
    t.record({
      k: 'layerNorm',
      in: id,
      out: out.id,
      normalized: count,
      grads: { weight: affine(weight), bias: affine(bias) },
    });
    return out.value;
  }

  /** A catalog layer applied: nn.Linear, nn.LayerNorm, nn.Embedding, nn.MultiheadAttention; any other is not followed. */
  protected layer(value: Value, layer: LayerInstance, positional: Args, keywords: Keywords, run: () => Value): Value {
    const t = this.tape;
    const x = positional[0] ?? keywords.get('input');
    const weight = layer.tensors.find((w) => w.name === 'weight');
    const grads = t.weights(value);
    const kind = computesAs(layer.kind);
    const evaluated = layer.framework === 'pytorch' && FOLLOWED.has(kind) ? run() : undefined;
    if (evaluated && layer.kind === 'MultiheadAttention')
      return multiheadAttention(t, value, layer, positional, keywords, evaluated);
    if (!evaluated || !weight) return t.fail(`${layer.framework === 'pytorch' ? 'nn.' : ''}${layer.kind}`);
    if (kind === 'Linear') {
      const [outF, inF] = weight.shape;
      const id = t.features(x, inF);
      const out = t.make([...t.shape(id).slice(0, -1), outF], 'float', evaluated);
      t.record({ k: 'linear', in: id, out: out.id, shape: [outF, inF], bias: grads.bias !== undefined, grads });
      return out.value;
    }
    if (kind === 'LayerNorm') {
      const id = t.features(x, weight.shape.at(-1));
      const out = t.make(t.shape(id), 'float', evaluated);
      t.record({ k: 'layerNorm', in: id, out: out.id, normalized: weight.shape.length, grads });
      return out.value;
    }
    const id = t.id(x);
    if (t.dtype(id) !== 'long') return t.fail('an embedding given something other than indices');
    const out = t.make([...t.shape(id), weight.shape[1]], 'float', evaluated);
    t.record({ k: 'embedding', in: id, out: out.id, rows: weight.shape[0], dim: weight.shape[1], grads });
    return out.value;
  }

  /** nn.Dropout, activations, nn.Softmax and nn.Identity, with the arguments they were built with. */
  protected weightless(
    kind: string,
    fields: ReadonlyMap<string, Value>,
    x: Value | undefined,
    run: () => Value,
  ): Value {
    const t = this.tape;
    const evaluated = run();
    if (truth(fields.get('inplace'))) return t.fail(`nn.${kind}(inplace=True)`);
    if (kind === 'Identity') return x ?? t.fail('nn.Identity without an input');
    if (kind === 'Dropout') return this.dropout(x, probability(fields.get('p')), undefined, false);
    if (kind === 'Softmax' || kind === 'LogSoftmax') return this.softmax(x, new Map(), evaluated);
    return MODULES[kind]
      ? this.pointwise(MODULES[kind], [x ?? t.fail(`nn.${kind} without an input`)], evaluated)
      : t.fail(`nn.${kind}`);
  }

  /** `torch.arange(T)`, `torch.ones(n, n)`: constants of forward()'s own. */
  protected factory(name: string, positional: Args, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    const ints = positional.map((v) => (v.t === 'int' ? v.p : undefined));
    let shape: Dim[];
    let dtype: Dtype = 'float';
    let upTo: Dim;
    if (name === 'arange') {
      if (ints.some((d) => !d) || !ints.length || ints.length > 2 || keywords.has('step'))
        return t.fail('torch.arange not followed');
      shape = [ints.length === 1 ? ints[0] : ints[1]!.sub(ints[0]!)];
      upTo = ints[ints.length - 1];
      dtype = 'long';
    } else shape = positional.length === 1 && positional[0].t === 'seq' ? dims([positional[0]]) : ints;
    const requested = keywords.get('dtype');
    if (requested)
      dtype =
        requested.t === 'ref' && /\.(long|int64)$/.test(requested.path)
          ? 'long'
          : requested.t === 'ref' && /\.bool$/.test(requested.path)
            ? 'bool'
            : requested.t === 'ref' && /\.(float|float32)$/.test(requested.path)
              ? 'float'
              : 'unknown';
    const out = t.make(shape, dtype, evaluated);
    t.record({ k: 'constant', out: out.id, shape, dtype, upTo });
    return out.value;
  }
}
