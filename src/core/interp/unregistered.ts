/**
 * Layers a model keeps where its framework does not look. PyTorch registers a submodule only when it is
 * assigned directly or inside nn.ModuleList / nn.ModuleDict: one kept in a plain list or dict is missing from
 * parameters(), .to(), the optimizer and state_dict(). A tf.layers.Layer subclass tracks none of its fields:
 * a layer kept in one creates its weights when call() applies it, but countParams(), trainableWeights,
 * getWeights() and save() leave them out (tfjs issue #8253) unless the class lists them itself.
 */
import type { Expr } from '../ir/expr';
import type { Finding, Fix } from '../values/layer';
import type { Language } from '../ir/source';
import type { DefRef, Value } from '../values/value';
import { heldLayers } from './torchApi';
import { unregisteredLayers, untrackedSublayers } from '../findings/messages';

/** What the warning needs of the interpreter: the file it analyses, and how its classes are made. */
export interface TrackingContext {
  readonly file: number;
  readonly language: Language;
  /** Above 0 while a run's findings are not reported. */
  readonly quiet: number;
  readonly classes: { method(c: DefRef, name: string): DefRef | undefined };
  readonly tfjsLayers: { is(cls: DefRef | undefined): boolean };
}

/** The warning for `self.name = value` on `obj`, where `value` holds layers the framework will not track. */
export function unregisteredFinding(
  ev: TrackingContext,
  obj: Value,
  name: string,
  value: Value,
  written: Expr | undefined,
  target: Expr,
): Finding | undefined {
  if (obj.t !== 'module' || !obj.cls || obj.cls.file !== ev.file || ev.quiet > 0) return undefined;
  // The whole assignment, `self.blocks = [...]`.
  const span = written
    ? { ...target.span, end: written.span.end, endLine: written.span.endLine, endChar: written.span.endChar }
    : target.span;
  if (ev.tfjsLayers.is(obj.cls)) {
    if (value.t !== 'layer' && value.t !== 'module' && !heldLayers(value).length) return undefined;
    // A class listing its sublayers' weights itself tracks them.
    if (ev.classes.method(obj.cls, 'getWeights') || ev.classes.method(obj.cls, 'trainableWeights')) return undefined;
    return {
      code: 'untracked-sublayers',
      severity: 'warning',
      span,
      fixes: [],
      message: untrackedSublayers(name, obj.cls.name),
    };
  }
  if (ev.language !== 'python' || !heldLayers(value).length) return undefined;
  const container = value.t === 'dict' ? 'ModuleDict' : 'ModuleList';
  return {
    code: 'unregistered-layers',
    severity: 'warning',
    span,
    fixes: wrapFix(written, container),
    message: unregisteredLayers(name, value.t === 'dict' ? 'dict' : 'list', container),
  };
}

/** `[...]` or `{...}` written in the assignment, wrapped in nn.ModuleList / nn.ModuleDict as its layers name nn. */
function wrapFix(written: Expr | undefined, container: string): Fix[] {
  if (
    !written ||
    (written.k !== 'list' && written.k !== 'comprehension' && written.k !== 'dict') ||
    (written.k === 'list' && written.tuple)
  )
    return [];
  const prefix = moduleOfCalls(written);
  if (!prefix) return [];
  const at = (offset: number, line: number, char: number) => ({
    start: offset,
    end: offset,
    startLine: line,
    startChar: char,
    endLine: line,
    endChar: char,
  });
  const s = written.span;
  return [
    {
      title: `Wrap in ${prefix}.${container}(…)`,
      edits: [
        { span: at(s.start, s.startLine, s.startChar), text: `${prefix}.${container}(` },
        { span: at(s.end, s.endLine, s.endChar), text: ')' },
      ],
    },
  ];
}

/** `nn` for `nn.Linear(...)`, `torch.nn` for `torch.nn.Linear(...)`: the name the file reaches torch.nn by. */
function moduleOfCalls(e: Expr): string | undefined {
  const call =
    e.k === 'comprehension'
      ? e.element
      : e.k === 'list'
        ? e.items[0]
        : e.k === 'dict'
          ? e.entries[0]?.value
          : undefined;
  if (call?.k !== 'call' || call.callee.k !== 'attr') return undefined;
  const text = (x: Expr): string | undefined =>
    x.k === 'name' ? x.id : x.k === 'attr' ? text(x.object) && `${text(x.object)}.${x.id}` : undefined;
  const prefix = text(call.callee.object);
  return prefix === 'nn' || prefix?.endsWith('.nn') ? prefix : undefined;
}
