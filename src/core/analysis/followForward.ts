/**
 * Follows a model's forward() once more, in train mode, recording every tensor operation: the program the
 * activations of any batch size and sequence length are replayed from. forward() gets token indices
 * (batch × sequence); when its first layer reads features instead, it gets batch × sequence × that width.
 */
import type { Evaluator } from '../interp/evaluator';
import type { Span } from '../ir/expr';
import type { ModuleTree } from '../values/modules';
import type { GradOf } from '../values/modules';
import type { Value } from '../values/value';
import type { Activations, Program } from '../activations/program';
import { Unfollowed } from '../activations/shapes';
import { Tape, WantsFeatures } from '../activations/tape';
import { TorchTape } from '../activations/torchTape';

type ModuleValue = Extract<Value, { t: 'module' }>;

export function followActivations(ev: Evaluator, model: Value, grad: GradOf): Activations {
  if (ev.language !== 'python') return { unknown: 'followed for PyTorch models only' };
  if (model.t !== 'module' || !model.cls) return { unknown: 'the model has no forward() of its own' };
  const forward = ev.classes.method(model.cls, 'forward');
  const scope = forward && ev.of(forward).scopeAt(forward.fragment, forward.scope);
  if (!scope) return { unknown: 'the model has no forward() of its own' };
  const required = scope.params.slice(1).filter((p) => !p.default && !p.variadic);
  if (required.length !== 1)
    return { unknown: `forward() takes ${required.length} inputs without defaults; one is followed` };
  const first = attempt(ev, model, grad, { kind: 'tokens' });
  return first instanceof WantsFeatures
    ? settle(attempt(ev, model, grad, { kind: 'features', width: first.width }))
    : settle(first);
}

function settle(outcome: Program | Unfollowed): Activations {
  return outcome instanceof Unfollowed ? { unknown: outcome.message } : { program: outcome };
}

/** One run of forward() on the tape; whatever it writes is undone, so the analysis is as it was. */
function attempt(ev: Evaluator, model: ModuleValue, grad: GradOf, input: Program['input']): Program | Unfollowed {
  const tape = new Tape(
    {
      moduleOf: (v) => ev.torch.moduleOf(v),
      pathOf: (v) => ev.torch.pathIn(model.tree, v),
      spanOf: (v) => spanIn(ev, v),
      grad,
    },
    input,
  );
  const position = ev.journal.position;
  ev.shared.tape = new TorchTape(tape);
  try {
    const outcome = ev.guard(() => {
      try {
        for (const buffer of buffers(ev, model.tree)) tape.constant(buffer);
        ev.quietly(() => ev.flows.run(model, [tape.inputValue()]));
        return tape.program();
      } catch (e) {
        if (e instanceof Unfollowed) return e;
        throw e;
      }
    });
    return (
      outcome ??
      new Unfollowed(ev.budget.exhausted ? "beyond Attention Lens's work budget" : 'forward() could not be followed')
    );
  } finally {
    ev.shared.tape = undefined;
    ev.journal.rewind(position);
  }
}

/** A layer's call, or a module's class name when the class is this file's (an imported one has no place here). */
function spanIn(ev: Evaluator, v: Value): Span | undefined {
  if (v.t === 'layer') return v.span;
  if (v.t === 'module' && v.cls && ev.of(v.cls) === ev) return ev.scopeAt(v.cls.fragment, v.cls.scope).nameSpan;
  return undefined;
}

/** Tensors the model's modules hold besides parameters (`register_buffer`, plain attributes). */
function buffers(ev: Evaluator, root: ModuleTree): Value[] {
  const out: Value[] = [];
  const visited = new Set<ModuleTree>();
  const visit = (tree: ModuleTree) => {
    if (visited.has(tree)) return;
    visited.add(tree);
    const value = ev.torch.asValue(tree);
    if (value.t === 'module') for (const field of value.fields.values()) if (field.t === 'tensor') out.push(field);
    for (const child of tree.children.values()) visit(child);
  };
  visit(root);
  return out;
}
