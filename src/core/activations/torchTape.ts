/**
 * What each torch operation forward() may use becomes on the tape: tensor methods, `torch` and
 * `torch.nn.functional` functions, operators, indexing, catalog layers and weightless modules. Anything else
 * on a tensor ends the recording (the figure is then not known), so no operation is ever left out silently.
 */
import type { LayerInstance } from '../layer';
import { Poly } from '../symbolic';
import { asPoly, type Value } from '../value';
import type { Dim, Dtype, IndexItem, Operand, Pointwise } from './program';
import { broadcast, indexedShape, partCount, productShape, swapped, viewed } from './tapeShapes';
import { normalize } from './shapes';
import type { Tape } from './tape';

type Args = readonly Value[];
type Keywords = ReadonlyMap<string, Value>;

/** Element-wise functions by name, as methods, torch functions and torch.nn.functional functions. */
const ACTIVATIONS: Readonly<Record<string, Pointwise>> = { gelu: 'gelu', silu: 'silu', relu: 'relu', tanh: 'tanh', sigmoid: 'sigmoid' };
const MODULES: Readonly<Record<string, Pointwise>> = { GELU: 'gelu', SiLU: 'silu', ReLU: 'relu', Tanh: 'tanh', Sigmoid: 'sigmoid' };
const OPERATORS: Readonly<Record<string, Pointwise>> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' };
/** What describes a tensor without computing one. */
const INSPECT = new Set(['size', 'dim', 'numel', 'stride', 'element_size', 'shape', 'ndim', 'device', 'dtype', 'is_cuda', 'requires_grad']);
const COMPARE = new Set(['==', '!=', '<', '<=', '>', '>=']);

export class TorchTape {
  constructor(readonly tape: Tape) {}

  uncertain(why: string): never {
    return this.tape.fail(why);
  }

  /** `x.view(...)`, `x.softmax(-1)`, ... */
  method(obj: Value, name: string, positional: Args, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    if (INSPECT.has(name)) return this.inspected(evaluated);
    const x = obj;
    const id = t.id(x);
    const rank = t.shape(id).length;
    switch (name) {
      case 'view':
      case 'reshape':
        return this.view(x, dims(positional), name === 'reshape');
      case 'flatten': {
        const shape = t.shape(id);
        const start = normalize(int(positional[0] ?? keywords.get('start_dim')) ?? 0, rank);
        const end = normalize(int(positional[1] ?? keywords.get('end_dim')) ?? -1, rank);
        const merged = shape.slice(start, end + 1).reduce<Dim>((a, d) => (a && d ? a.mul(d) : undefined), Poly.ONE);
        return this.view(x, [...shape.slice(0, start), merged, ...shape.slice(end + 1)], true);
      }
      case 'transpose':
      case 'swapaxes':
        return this.transpose(x, int(positional[0]), int(positional[1]));
      case 'permute': {
        const order = dims(positional).map((d) => d?.constant);
        if (order.some((d) => d === undefined) || order.length !== rank) return t.fail('a permute not followed');
        const out = t.make(order.map((d) => t.shape(id)[normalize(Number(d), rank)]), t.dtype(id), evaluated);
        t.record({ k: 'permute', in: id, out: out.id, dims: order.map(Number) });
        return out.value;
      }
      case 'unsqueeze': {
        const d = normalize(int(positional[0] ?? keywords.get('dim')) ?? NaN, rank + 1);
        const shape = [...t.shape(id)];
        shape.splice(d, 0, Poly.ONE);
        const out = t.make(shape, t.dtype(id), evaluated);
        t.record({ k: 'unsqueeze', in: id, out: out.id, dim: d });
        return out.value;
      }
      case 'split':
      case 'chunk':
        return this.split(x, name, positional, keywords, evaluated);
      case 'unbind': {
        const d = normalize(int(positional[0] ?? keywords.get('dim')) ?? 0, rank);
        const n = t.shape(id)[d]?.constant;
        if (n === undefined || n > 64n) return t.fail('an unbind into a number of parts not known');
        const shape = t.shape(id).filter((_, j) => j !== d);
        const outs = Array.from({ length: Number(n) }, () => t.make(shape, t.dtype(id), evaluated));
        t.record({ k: 'unbind', in: id, outs: outs.map((o) => o.id), dim: d });
        return { t: 'seq', items: outs.map((o) => o.value), tuple: true };
      }
      case 'contiguous':
      case 'detach': {
        const out = t.make(t.shape(id), t.dtype(id), evaluated);
        t.record({ k: name, in: id, out: out.id });
        return out.value;
      }
      case 'softmax':
      case 'log_softmax':
        return this.softmax(x, keywords, evaluated);
      case 'masked_fill': {
        const mask = t.id(positional[0] ?? keywords.get('mask'));
        if (t.isTensor(positional[1] ?? keywords.get('value'))) return t.fail('masked_fill with a tensor value');
        const out = t.make(t.shape(id), t.dtype(id), evaluated);
        t.record({ k: 'maskedFill', in: id, mask, out: out.id });
        return out.value;
      }
      case 'matmul':
        return this.matmul(x, positional[0], evaluated);
      default:
        return ACTIVATIONS[name] ? this.pointwise(ACTIVATIONS[name], [x], evaluated) : t.fail(`Tensor.${name}()`);
    }
  }

  /** `torch.*` and `torch.nn.functional.*` calls; library calls without tensors pass. */
  library(path: string, positional: Args, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    const args = [...positional, ...keywords.values()];
    const name = path.slice(path.lastIndexOf('.') + 1);
    const torch = path === `torch.${name}` || path === `torch.nn.functional.${name}`;
    // Built-ins read tensors (`len(x)`, `isinstance(x, torch.Tensor)`) without computing one.
    if (path.startsWith('builtins.')) return this.inspected(evaluated, path);
    if (!args.some((a) => t.isTensor(a))) {
      if (torch && (name === 'arange' || name === 'ones' || name === 'zeros')) return this.factory(name, positional, keywords, evaluated);
      return this.inspected(evaluated, path);
    }
    if (!torch) return t.fail(`${path}() on a tensor`);
    const [x] = positional;
    if (ACTIVATIONS[name]) return inPlace(keywords) ? t.fail(`${name} in place`) : this.pointwise(ACTIVATIONS[name], [x], evaluated);
    switch (name) {
      case 'softmax':
      case 'log_softmax':
        return this.softmax(x, keywords, evaluated);
      case 'dropout':
        return this.dropout(x, probability(positional[1] ?? keywords.get('p')), positional[2] ?? keywords.get('training'), inPlace(keywords) || truth(positional[3]) === true);
      case 'matmul':
      case 'bmm':
        return this.matmul(x, positional[1], evaluated);
      case 'transpose':
        return this.transpose(x, int(positional[1]), int(positional[2]));
      case 'reshape':
        return this.view(x, dims(positional.slice(1)), true);
      case 'linear':
        return this.linear(x, positional[1] ?? keywords.get('weight'), positional[2] ?? keywords.get('bias'), evaluated);
      case 'layer_norm':
        return this.layerNorm(x, positional[1] ?? keywords.get('normalized_shape'), positional[2] ?? keywords.get('weight'), positional[3] ?? keywords.get('bias'), evaluated);
      case 'cat':
      case 'concat':
      case 'concatenate': {
        const items = x?.t === 'seq' ? x.items.map((i) => t.id(i)) : t.fail('torch.cat of something not followed');
        const d = int(positional[1] ?? keywords.get('dim')) ?? 0;
        const shapes = items.map((i) => t.shape(i));
        const at = normalize(d, shapes[0].length);
        const size = shapes.reduce<Dim>((a, s) => (a && s[at] ? a.add(s[at]!) : undefined), Poly.ZERO);
        const out = t.make(shapes[0].map((s, j) => (j === at ? size : s)), t.dtype(items[0]), evaluated);
        t.record({ k: 'cat', ins: items, dim: at, out: out.id });
        return out.value;
      }
      case 'tril':
      case 'triu':
        return this.pointwise('mask', [x], evaluated);
      default:
        return t.fail(`torch.${name}()`);
    }
  }

  /** `layer(x)` / `module(x)`; `run` is what the interpreter does for it (a module's forward()). */
  call(callee: Extract<Value, { t: 'layer' } | { t: 'module' }>, hasForward: boolean, positional: Args, keywords: Keywords, run: () => Value): Value {
    const t = this.tape;
    if (callee.t === 'layer') return t.within(callee, callee.layer.kind, () => this.layer(callee, callee.layer, positional, keywords, run));
    // A Sequential's layers come back here one by one.
    if (callee.items) return run();
    if (callee.cls && !hasForward && callee.layer) return t.within(callee, callee.cls.name, () => this.layer(callee, callee.layer!.layer, positional, keywords, run));
    if (callee.cls) return t.within(callee, callee.cls.name, () => this.checked(run()));
    const kind = callee.tree.kind;
    return t.within(callee, kind, () => this.weightless(kind, callee.fields, positional[0], run));
  }

  subscript(obj: Value, key: Value, evaluated: Value): Value {
    const t = this.tape;
    const id = t.id(obj);
    const items = (key.t === 'seq' && key.tuple ? key.items : [key]).map((k) => indexItem(k) ?? t.fail('an index not followed'));
    const out = t.make(indexedShape(t.shape(id), items), t.dtype(id), evaluated);
    t.record({ k: 'index', in: id, out: out.id, items });
    return out.value;
  }

  binary(op: string, l: Value, r: Value, inPlace: boolean, evaluated: Value): Value {
    const t = this.tape;
    if (inPlace) return t.fail(`an in-place ${op}= on a tensor`);
    if (op === '@') return this.matmul(l, r, evaluated);
    if (op === '/' && !t.isTensor(l)) return t.fail('a number divided by a tensor');
    return OPERATORS[op] ? this.pointwise(OPERATORS[op], [l, r], evaluated) : t.fail(`the operator ${op} on a tensor`);
  }

  unary(op: string, v: Value, evaluated: Value): Value {
    if (op === '+') return v;
    return op === '-' ? this.pointwise('neg', [v], evaluated) : this.tape.fail(`the operator ${op} on a tensor`);
  }

  compare(op: string, l: Value, r: Value, evaluated: Value): Value {
    if (op === 'is' || op === 'is not') return evaluated;
    return COMPARE.has(op) ? this.pointwise('compare', [l, r], evaluated) : this.tape.fail(`${op} on a tensor`);
  }

  member(obj: Value, id: string, evaluated: Value): Value {
    if (INSPECT.has(id)) return this.inspected(evaluated);
    if (obj.t === 'tensor' && (id === 'T' || id === 'mT')) {
      const rank = this.tape.shape(this.tape.id(obj)).length;
      if (id === 'T' && rank !== 2) return this.tape.fail('.T of a tensor that is not a matrix');
      return this.transpose(obj, -2, -1);
    }
    return this.inspected(evaluated, `.${id}`);
  }

  /** A call on tensors whose callee is not followed. */
  opaque(args: Args): void {
    if (args.some((a) => this.tape.isTensor(a))) this.tape.fail('a function not followed applied to a tensor');
  }

  /** A value computed without an operation followed: fine unless it is a tensor. */
  private inspected(evaluated: Value, what = 'an attribute'): Value {
    return this.tape.isTensor(evaluated) ? this.tape.fail(`a tensor from ${what}`) : evaluated;
  }

  /** What a module's forward() returned: every tensor in it must be one the tape made. */
  private checked(out: Value): Value {
    if (out.t === 'seq') out.items.forEach((i) => this.checked(i));
    else if (out.t === 'tensor') this.tape.id(out);
    return out;
  }

  private pointwise(fn: Pointwise, args: Args, evaluated: Value): Value {
    const t = this.tape;
    const ops = args.map((a) => t.operand(a));
    const shape = broadcast(ops.map((o) => t.operandShape(o)));
    const tensors = ops.filter((o): o is Extract<Operand, { t: 'tensor' }> => o.t === 'tensor').map((o) => t.dtype(o.id));
    const dtype: Dtype = fn === 'compare' ? 'bool' : tensors.includes('float') || ops.some((o) => o.t === 'param') ? 'float' : tensors.length === ops.length ? tensors[0] : 'unknown';
    const out = t.make(shape, dtype, evaluated);
    t.record({ k: 'pointwise', fn, args: ops, out: out.id });
    return out.value;
  }

  private view(x: Value, shape: readonly Dim[], copies: boolean): Value {
    const t = this.tape;
    const id = t.id(x);
    const out = t.make(viewed(t.shape(id), shape), t.dtype(id), x);
    t.record({ k: 'view', in: id, out: out.id, shape, copies });
    return out.value;
  }

  private transpose(x: Value, a: number | undefined, b: number | undefined): Value {
    const t = this.tape;
    const id = t.id(x);
    if (a === undefined || b === undefined) return t.fail('a transpose of dimensions not known');
    const out = t.make(swapped(t.shape(id), a, b), t.dtype(id), x);
    t.record({ k: 'transpose', in: id, out: out.id, a, b });
    return out.value;
  }

  private split(x: Value, name: 'split' | 'chunk', positional: Args, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    const id = t.id(x);
    const shape = t.shape(id);
    const d = normalize(int(positional[1] ?? keywords.get('dim')) ?? 0, shape.length);
    const arg = positional[0] ?? keywords.get(name === 'split' ? 'split_size_or_sections' : 'chunks');
    const size = name === 'split' ? (arg ? asPoly(arg) : undefined) : undefined;
    const chunks = name === 'chunk' ? int(arg) : undefined;
    if ((name === 'split' && !size) || (name === 'chunk' && !chunks)) return t.fail(`a ${name} not followed`);
    const count = partCount(shape[d], size, chunks);
    const part = size ?? (chunks && shape[d]?.constant !== undefined ? Poly.int((shape[d]!.constant! + BigInt(chunks) - 1n) / BigInt(chunks)) : undefined);
    const outs = Array.from({ length: count }, (_, i) => {
      const last = i === count - 1 && shape[d]?.constant !== undefined && part?.constant !== undefined ? Poly.int(shape[d]!.constant! - part.constant * BigInt(count - 1)) : part;
      return t.make(shape.map((s, j) => (j === d ? last : s)), t.dtype(id), evaluated.t === 'seq' ? evaluated.items[i] : undefined);
    });
    t.record({ k: 'split', in: id, outs: outs.map((o) => o.id), dim: d, size, chunks });
    return { t: 'seq', items: outs.map((o) => o.value), tuple: true };
  }

  private softmax(x: Value | undefined, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    if (keywords.has('dtype')) return t.fail('a softmax that changes the dtype');
    const id = t.id(x);
    const out = t.make(t.shape(id), t.dtype(id), evaluated);
    t.record({ k: 'softmax', in: id, out: out.id });
    return out.value;
  }

  private dropout(x: Value | undefined, p: number, training: Value | undefined, inPlace: boolean): Value {
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

  private matmul(a: Value | undefined, b: Value | undefined, evaluated: Value): Value {
    const t = this.tape;
    const [oa, ob] = [t.operand(a), t.operand(b)];
    if (oa.t === 'scalar' || ob.t === 'scalar') return t.fail('a matrix product with a number');
    const out = t.make(productShape(t.operandShape(oa), t.operandShape(ob)), 'float', evaluated);
    t.record({ k: 'matmul', a: oa, b: ob, out: out.id });
    return out.value;
  }

  private linear(x: Value | undefined, weight: Value | undefined, bias: Value | undefined, evaluated: Value): Value {
    const t = this.tape;
    if (weight?.t !== 'param' || (bias && bias.t !== 'param' && bias.t !== 'none')) return t.fail('F.linear with weights that are not parameters');
    const [outF, inF] = weight.ref.shape;
    const id = t.features(x, inF);
    const out = t.make([...t.shape(id).slice(0, -1), outF], 'float', evaluated);
    const withBias = bias?.t === 'param';
    t.record({ k: 'linear', in: id, out: out.id, shape: [outF, inF], bias: withBias, grads: { weight: t.trains(weight.ref), bias: withBias ? t.trains(bias.ref) : undefined } });
    return out.value;
  }

  private layerNorm(x: Value | undefined, normalized: Value | undefined, weight: Value | undefined, bias: Value | undefined, evaluated: Value): Value {
    const t = this.tape;
    const count = normalized?.t === 'seq' ? normalized.items.length : normalized?.t === 'int' ? 1 : 0;
    const affine = (v: Value | undefined) => (v?.t === 'param' ? t.trains(v.ref) : v === undefined || v.t === 'none' ? undefined : t.fail('F.layer_norm with weights that are not parameters'));
    if (!count) return t.fail('F.layer_norm over sizes not known');
    const id = t.features(x, undefined);
    const out = t.make(t.shape(id), 'float', evaluated);
    t.record({ k: 'layerNorm', in: id, out: out.id, normalized: count, grads: { weight: affine(weight), bias: affine(bias) } });
    return out.value;
  }

  /** A catalog layer applied: nn.Linear, nn.LayerNorm, nn.Embedding; any other is not followed. */
  private layer(value: Value, layer: LayerInstance, positional: Args, keywords: Keywords, run: () => Value): Value {
    const t = this.tape;
    const x = positional[0] ?? keywords.get('input');
    const weight = layer.tensors.find((w) => w.name === 'weight');
    const grads = t.weights(value);
    const evaluated = layer.framework === 'pytorch' && (layer.kind === 'Linear' || layer.kind === 'LayerNorm' || layer.kind === 'Embedding') ? run() : undefined;
    if (!evaluated || !weight) return t.fail(`${layer.framework === 'pytorch' ? 'nn.' : ''}${layer.kind}`);
    if (layer.kind === 'Linear') {
      const [outF, inF] = weight.shape;
      const id = t.features(x, inF);
      const out = t.make([...t.shape(id).slice(0, -1), outF], 'float', evaluated);
      t.record({ k: 'linear', in: id, out: out.id, shape: [outF, inF], bias: grads.bias !== undefined, grads });
      return out.value;
    }
    if (layer.kind === 'LayerNorm') {
      const id = t.features(x, weight.shape.at(-1));
      const out = t.make(t.shape(id), 'float', evaluated);
      t.record({ k: 'layerNorm', in: id, out: out.id, normalized: weight.shape.length, grads });
      return out.value;
    }
    const id = t.id(x);
    if (t.dtype(id) !== 'long') return t.fail('an embedding given something other than indices');
    const out = t.make([...t.shape(id), weight.shape[1]], 'float', evaluated);
    t.record({ k: 'embedding', in: id, out: out.id, dim: weight.shape[1], grads });
    return out.value;
  }

  /** nn.Dropout, activations, nn.Softmax and nn.Identity, with the arguments they were built with. */
  private weightless(kind: string, fields: ReadonlyMap<string, Value>, x: Value | undefined, run: () => Value): Value {
    const t = this.tape;
    const evaluated = run();
    if (truth(fields.get('inplace'))) return t.fail(`nn.${kind}(inplace=True)`);
    if (kind === 'Identity') return x ?? t.fail('nn.Identity without an input');
    if (kind === 'Dropout') return this.dropout(x, probability(fields.get('p')), undefined, false);
    if (kind === 'Softmax' || kind === 'LogSoftmax') return this.softmax(x, new Map(), evaluated);
    return MODULES[kind] ? this.pointwise(MODULES[kind], [x ?? t.fail(`nn.${kind} without an input`)], evaluated) : t.fail(`nn.${kind}`);
  }

  /** `torch.arange(T)`, `torch.ones(n, n)`: constants of forward()'s own. */
  private factory(name: string, positional: Args, keywords: Keywords, evaluated: Value): Value {
    const t = this.tape;
    const ints = positional.map((v) => (v.t === 'int' ? v.p : undefined));
    let shape: Dim[];
    let dtype: Dtype = 'float';
    if (name === 'arange') {
      if (ints.some((d) => !d) || !ints.length || ints.length > 2 || keywords.has('step')) return t.fail('torch.arange not followed');
      shape = [ints.length === 1 ? ints[0] : ints[1]!.sub(ints[0]!)];
      dtype = 'long';
    } else shape = positional.length === 1 && positional[0].t === 'seq' ? dims([positional[0]]) : ints;
    const requested = keywords.get('dtype');
    if (requested) dtype = requested.t === 'ref' && /\.(long|int64)$/.test(requested.path) ? 'long' : requested.t === 'ref' && /\.bool$/.test(requested.path) ? 'bool' : requested.t === 'ref' && /\.(float|float32)$/.test(requested.path) ? 'float' : 'unknown';
    const out = t.make(shape, dtype, evaluated);
    t.record({ k: 'constant', out: out.id, shape, dtype });
    return out.value;
  }
}

function int(v: Value | undefined): number | undefined {
  const c = v ? asPoly(v)?.constant : undefined;
  return c === undefined ? undefined : Number(c);
}

/** Dropout's p: 0.5 when not given; NaN (refused by the replay) when given but not known. */
function probability(v: Value | undefined): number {
  if (v === undefined) return 0.5;
  return (v.t === 'float' ? v.v : int(v)) ?? NaN;
}

function truth(v: Value | undefined): boolean | undefined {
  return v?.t === 'bool' ? v.v : v === undefined || v.t === 'none' ? undefined : int(v) === undefined ? undefined : int(v) !== 0;
}

function inPlace(keywords: Keywords): boolean {
  return truth(keywords.get('inplace')) === true;
}

/** `view(B, T, -1)` or `view((B, T, -1))`: sizes that are not numbers stay not known. */
function dims(positional: Args): Dim[] {
  const items = positional.length === 1 && positional[0].t === 'seq' ? positional[0].items : positional;
  return items.map((v) => asPoly(v));
}

function indexItem(k: Value): IndexItem | undefined {
  if (k.t === 'none') return { k: 'none' };
  if (k.t === 'int') return { k: 'int', i: k.p };
  if (k.t === 'seq' && !k.tuple && k.items.every((i) => i.t === 'int')) return { k: 'list', length: k.items.length };
  if (k.t !== 'slice') return undefined;
  const bound = (v: Value) => (v.t === 'none' ? undefined : v.t === 'int' ? v.p : null);
  const [start, stop, step] = [bound(k.lower), bound(k.upper), bound(k.step)];
  if (start === null || stop === null || step === null || (step !== undefined && step.constant === undefined)) return undefined;
  return { k: 'slice', start, stop, step };
}
