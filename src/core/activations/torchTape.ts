/**
 * What each torch operation forward() may use becomes on the tape: tensor methods, `torch` and
 * `torch.nn.functional` functions, operators, indexing, catalog layers and weightless modules. Anything else
 * on a tensor ends the recording (the figure is then not known), so no operation is ever left out silently.
 */
import { Poly } from '../values/symbolic';
import type { Value } from '../values/value';
import type { Dim, Pointwise } from './program';
import { indexedShape } from './tapeShapes';
import { normalize } from './shapes';
import { TapeOps } from './tapeOps';
import type { Tape } from './tape';
import { dims, indexItem, inPlace, int, probability, truth, type Args, type Keywords } from './tapeArgs';

/** Element-wise functions by name, as methods, torch functions and torch.nn.functional functions. */
const ACTIVATIONS: Readonly<Record<string, Pointwise>> = {
  gelu: 'gelu',
  silu: 'silu',
  relu: 'relu',
  tanh: 'tanh',
  sigmoid: 'sigmoid',
};
const OPERATORS: Readonly<Record<string, Pointwise>> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' };
/** What describes a tensor without computing one. */
const INSPECT = new Set([
  'size',
  'dim',
  'numel',
  'stride',
  'element_size',
  'shape',
  'ndim',
  'device',
  'dtype',
  'is_cuda',
  'requires_grad',
]);
const COMPARE = new Set(['==', '!=', '<', '<=', '>', '>=']);

export class TorchTape extends TapeOps {
  uncertain(why: string): never {
    return this.tape.fail(why);
  }

  repeat(times: bigint): ReturnType<Tape['repeat']> {
    return this.tape.repeat(times);
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
        const out = t.make(
          order.map((d) => t.shape(id)[normalize(Number(d), rank)]),
          t.dtype(id),
          evaluated,
        );
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
      case 'sum':
      case 'mean':
        return this.reduce(
          name,
          x,
          positional[0] ?? keywords.get('dim'),
          positional[1] ?? keywords.get('keepdim'),
          keywords,
          evaluated,
        );
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
      if (torch && (name === 'arange' || name === 'ones' || name === 'zeros'))
        return this.factory(name, positional, keywords, evaluated);
      return this.inspected(evaluated, path);
    }
    if (!torch) return t.fail(`${path}() on a tensor`);
    const [x] = positional;
    if (ACTIVATIONS[name])
      return inPlace(keywords) ? t.fail(`${name} in place`) : this.pointwise(ACTIVATIONS[name], [x], evaluated);
    switch (name) {
      case 'softmax':
      case 'log_softmax':
        return this.softmax(x, keywords, evaluated);
      case 'dropout':
        return this.dropout(
          x,
          probability(positional[1] ?? keywords.get('p')),
          positional[2] ?? keywords.get('training'),
          inPlace(keywords) || truth(positional[3]) === true,
        );
      case 'matmul':
      case 'bmm':
        return this.matmul(x, positional[1], evaluated);
      case 'sum':
      case 'mean':
        return this.reduce(
          name,
          x,
          positional[1] ?? keywords.get('dim'),
          positional[2] ?? keywords.get('keepdim'),
          keywords,
          evaluated,
        );
      case 'transpose':
        return this.transpose(x, int(positional[1]), int(positional[2]));
      case 'reshape':
        return this.view(x, dims(positional.slice(1)), true);
      case 'linear':
        return this.linear(
          x,
          positional[1] ?? keywords.get('weight'),
          positional[2] ?? keywords.get('bias'),
          evaluated,
        );
      case 'layer_norm':
        return this.layerNorm(
          x,
          positional[1] ?? keywords.get('normalized_shape'),
          positional[2] ?? keywords.get('weight'),
          positional[3] ?? keywords.get('bias'),
          evaluated,
        );
      case 'cat':
      case 'concat':
      case 'concatenate': {
        const items = x?.t === 'seq' ? x.items.map((i) => t.id(i)) : t.fail('torch.cat of something not followed');
        const d = int(positional[1] ?? keywords.get('dim')) ?? 0;
        const shapes = items.map((i) => t.shape(i));
        const at = normalize(d, shapes[0].length);
        const size = shapes.reduce<Dim>((a, s) => (a && s[at] ? a.add(s[at]!) : undefined), Poly.ZERO);
        const out = t.make(
          shapes[0].map((s, j) => (j === at ? size : s)),
          t.dtype(items[0]),
          evaluated,
        );
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
  call(
    callee: Extract<Value, { t: 'layer' } | { t: 'module' }>,
    hasForward: boolean,
    positional: Args,
    keywords: Keywords,
    run: () => Value,
  ): Value {
    const t = this.tape;
    if (callee.t === 'layer')
      return t.within(callee, callee.layer.kind, () => this.layer(callee, callee.layer, positional, keywords, run));
    // A Sequential's layers come back here one by one.
    if (callee.items) return run();
    if (callee.cls && !hasForward && callee.layer)
      return t.within(callee, callee.cls.name, () =>
        this.layer(callee, callee.layer!.layer, positional, keywords, run),
      );
    if (callee.cls) return t.within(callee, callee.cls.name, () => this.checked(run()));
    const kind = callee.tree.kind;
    return t.within(callee, kind, () => this.weightless(kind, callee.fields, positional[0], run));
  }

  subscript(obj: Value, key: Value, evaluated: Value): Value {
    const t = this.tape;
    const id = t.id(obj);
    const items = (key.t === 'seq' && key.tuple ? key.items : [key]).map(
      (k) => indexItem(k) ?? t.fail('an index not followed'),
    );
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
}
