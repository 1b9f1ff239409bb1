/**
 * Preset tables: a function or a class's classmethod that builds a model from a name it looks up in a table
 * the code states, run once for each name. nanoGPT's `GPT.from_pretrained(model_type)` indexes a dict of the
 * four GPT-2 sizes with it; gpt-fast's `Transformer.from_name(name)` passes it to `ModelArgs.from_name`, which
 * tests it against `transformer_configs`. The names are found by running the function once with its
 * parameter as a probe (interp/probes.ts), which adds nothing to the analysis; each name's run is then a
 * context of its own, `GPT.from_pretrained('gpt2')`, kept when it builds a model with a total.
 */
import { definitions } from '../ir/moduleNames';
import type { Scope, SourceModel } from '../ir/source';
import type { Evaluator } from '../interp/evaluator';
import type { Probe } from '../interp/hooks';
import type { Value } from '../values/value';
import { eachExpr, requiredParams } from './configParameter';
import { classKey, hasTotal } from './runs';
import { pythonString } from './documented';

/** Names a table may hold: more is a registry (timm's every model), not a table of sizes. */
const MAX_PRESETS = 32;

interface Candidate {
  readonly key: string;
  /** `GPT.from_pretrained` or `build_model`. */
  readonly name: string;
  readonly fragment: number;
  readonly scope: number;
  /** The class a classmethod or staticmethod belongs to. */
  readonly owner?: number;
  readonly param: string;
}

/**
 * Runs every preset function of the file for each name its table holds; returns the contexts of the runs
 * that built a model, in the order of the text. `each` may replay a function's runs from the last version,
 * given the contexts they gave (joined by newlines); `tentative` keeps what a run adds only if it built one.
 */
export function runPresets(
  evaluator: Evaluator,
  model: SourceModel,
  each: (key: string, run: () => string | undefined) => string | undefined,
  tentative: <T>(work: () => T, keep: (result: T) => boolean) => T,
  muted: <T>(work: () => T) => T,
): string[] {
  const contexts: string[] = [];
  for (const c of candidates(model)) {
    if (evaluator.budget.exhausted) break;
    const ran = each(`presets ${c.key}`, () => {
      const call = callOf(evaluator, c);
      if (!call) return undefined;
      const names = muted(() => probe(evaluator, c, call));
      const built: string[] = [];
      for (const name of names) {
        if (evaluator.budget.exhausted) break;
        const label = `${c.name}(${pythonString(name)})`;
        const result = tentative(
          () => evaluator.guard(() => evaluator.inContext(label, undefined, () => call({ t: 'str', v: name }))),
          hasTotal,
        );
        if (hasTotal(result)) built.push(label);
      }
      return built.length ? built.join('\n') : undefined;
    });
    if (ran) contexts.push(...ran.split('\n'));
  }
  return contexts;
}

/** The names the function looks its parameter up among, when they are a table's few. */
function probe(evaluator: Evaluator, c: Candidate, call: (arg: Value) => Value): string[] {
  const found: Probe = { value: { t: 'sym', name: c.param }, names: new Set() };
  evaluator.shared.probe = found;
  try {
    evaluator.quietly(() => evaluator.guard(() => call(found.value)));
  } finally {
    evaluator.shared.probe = undefined;
  }
  return found.names.size <= MAX_PRESETS ? [...found.names] : [];
}

/** Calls the function with one argument; a classmethod on its class. */
function callOf(evaluator: Evaluator, c: Candidate): ((arg: Value) => Value) | undefined {
  const fn = evaluator.names.definition(c.fragment, c.scope, undefined);
  if (fn.t !== 'function') return undefined;
  const owner = c.owner === undefined ? undefined : evaluator.names.definition(c.fragment, c.owner, undefined);
  if (c.owner !== undefined && owner?.t !== 'class') return undefined;
  const classmethod = evaluator.scopeAt(c.fragment, c.scope).decorators.includes('classmethod');
  return (arg) => evaluator.functions.callFunction(fn, [arg], new Map(), classmethod ? owner : undefined);
}

/**
 * Public top-level functions, and classmethods and staticmethods of top-level classes, that take one argument
 * and look it up (`TABLE[name]`, `name in TABLE`, `name == '7B'`), or, a method, pass it on
 * (`cls(ModelArgs.from_name(name))`).
 */
function candidates(model: SourceModel): Candidate[] {
  const found: Candidate[] = [];
  const add = (fi: number, si: number, name: string, owner?: number) => {
    const scope = model.fragments[fi].scopes[si];
    // A private helper (timm's `_create_vision_transformer(variant, ...)`) is run by the factories that call it.
    if (scope.name.startsWith('_')) return;
    const param = onlyParam(scope, owner !== undefined && scope.decorators.includes('classmethod'));
    if (param && looksUp(model, scope, param, owner !== undefined))
      found.push({ key: classKey(model, fi, si), name, fragment: fi, scope: si, owner, param });
  };
  for (const d of definitions(model, 'function')) add(d.fragment, d.scope, d.name);
  for (const d of definitions(model, 'class')) {
    const { scopes } = model.fragments[d.fragment];
    scopes.forEach((s, si) => {
      if (
        s.parent === d.scope &&
        s.kind === 'function' &&
        (s.decorators.includes('classmethod') || s.decorators.includes('staticmethod'))
      )
        add(d.fragment, si, `${d.name}.${s.name}`, d.scope);
    });
  }
  return found.sort((a, b) => a.fragment - b.fragment || a.scope - b.scope);
}

/** The one parameter a call must give (after `cls`), if there is exactly one. */
function onlyParam(scope: Scope, bound: boolean): string | undefined {
  const required = requiredParams(scope, bound ? 1 : 0);
  return required.length === 1 ? required[0].name : undefined;
}

/** Whether the function looks its parameter up, or, a method, passes it on (to a configuration's classmethod). */
function looksUp(model: SourceModel, scope: Scope, param: string, method: boolean): boolean {
  const isParam = (e: { k: string; id?: string }) => e.k === 'name' && e.id === param;
  let found = false;
  eachExpr(model, scope.body, (e) => {
    found ||=
      (e.k === 'index' && isParam(e.index)) ||
      (e.k === 'compare' &&
        (((e.op === 'in' || e.op === 'not in') && isParam(e.left)) ||
          ((e.op === '==' || e.op === '!=') && (isParam(e.left) || isParam(e.right))))) ||
      (method && e.k === 'call' && e.args.some((a) => isParam(a.value)));
  });
  return found;
}
