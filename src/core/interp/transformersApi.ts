/**
 * What the Hugging Face base classes do that changes a model's count, as transformers 4.57 does it:
 * `PretrainedConfig.__init__` keeps its keyword arguments and gives its own defaults (`tie_word_embeddings`
 * True, two labels); `PreTrainedModel.__init__` keeps the config; `post_init()` (and `tie_weights()`) ties
 * the output embeddings to the input embeddings, so `T5ForConditionalGeneration`'s lm_head shares the
 * shared embedding's weight and PyTorch counts it once. scripts/ground-truth/pytorch_common.py builds the
 * fixtures with the same semantics.
 */
import type { Interp } from './interp';
import { NONE, UNKNOWN, int, type DefRef, type Value } from '../values/value';
import type { BoundCall } from '../values/bound';

type ModuleValue = Extract<Value, { t: 'module' }>;

/** PretrainedConfig's own defaults that decide what a model builds. */
const CONFIG_DEFAULTS: readonly [string, Value][] = [
  ['tie_word_embeddings', { t: 'bool', v: true }],
  ['is_encoder_decoder', { t: 'bool', v: false }],
  ['is_decoder', { t: 'bool', v: false }],
  ['add_cross_attention', { t: 'bool', v: false }],
  ['tie_encoder_decoder', { t: 'bool', v: false }],
  ['torchscript', { t: 'bool', v: false }],
  // `num_labels` is the length of id2label, which has two entries unless told otherwise.
  ['num_labels', int(2)],
];

const named = (path: string, name: string) => path === name || path.endsWith(`.${name}`);

/** `super().__init__(...)` reaching a transformers base: what it sets; undefined for other bases. */
export function transformersInit(ev: Interp, base: string, self: Value, bound: BoundCall): Value | undefined {
  if (named(base, 'PretrainedConfig') && self.t === 'dict' && self.fields instanceof Map) {
    const set = (k: string, v: Value) =>
      ev.journal.set(ev.assignments.fieldsOwner, self.fields as Map<string, Value>, k, v);
    for (const [k, v] of CONFIG_DEFAULTS) set(k, v);
    // The attention a model of transformers 4.36 to 4.47 builds (`LLAMA_ATTENTION_CLASSES[config._attn_implementation]`):
    // "eager" unless given, as those versions' property gives it; every implementation has the same weights.
    set('_attn_implementation', bound.keywords.get('attn_implementation')?.value ?? { t: 'str', v: 'eager' });
    for (const [k, { value }] of bound.keywords) set(k, value);
    return NONE;
  }
  if (named(base, 'PreTrainedModel') && self.t === 'module') {
    const config = bound.keywords.get('config')?.value ?? bound.positional[0]?.value;
    if (!config) return undefined;
    ev.journal.set(ev.assignments.fieldsOwner, self.fields, 'config', config);
    return NONE;
  }
  return undefined;
}

/**
 * `CLIPTextModel._from_config(config)`, the class method transformers builds a part with: the class built with
 * that configuration. `build` instantiates a class; undefined for any other call.
 */
export function transformersClassMethod(
  ev: Interp,
  cls: Value,
  method: string,
  bound: BoundCall,
  build: (cls: Extract<Value, { t: 'class' }>, bound: BoundCall) => Value,
): Value | undefined {
  if (
    cls.t !== 'class' ||
    method !== '_from_config' ||
    ev.classes.attribute(cls, method, undefined) ||
    !preTrainedClass(ev, cls)
  )
    return undefined;
  return build(cls, { positional: bound.positional.slice(0, 1), keywords: new Map() });
}

/** The methods of PreTrainedModel that change what a model holds. */
export const TRANSFORMERS_METHODS = new Set(['post_init', 'tie_weights', '_tie_or_clone_weights']);

/** A method of PreTrainedModel the class does not write itself; undefined for any other call. */
export function transformersMethod(
  ev: Interp,
  obj: Value,
  method: string,
  positional: readonly Value[],
): Value | undefined {
  if (obj.t !== 'module' || !obj.cls || !isPreTrained(ev, obj) || ev.classes.method(obj.cls, method)) return undefined;
  switch (method) {
    case 'post_init':
    case 'tie_weights':
      tieWeights(ev, obj);
      return NONE;
    case '_tie_or_clone_weights':
      if (positional[0] && positional[1]) tie(ev, obj, positional[0], positional[1]);
      return NONE;
    default:
      return undefined;
  }
}

function isPreTrained(ev: Interp, obj: ModuleValue): boolean {
  return !!obj.cls && preTrainedClass(ev, obj.cls);
}

function preTrainedClass(ev: Interp, cls: DefRef): boolean {
  return !!ev.classes.mro(cls)?.some((b) => 'path' in b && named(b.path, 'PreTrainedModel'));
}

/** `tie_weights()`: lm_head (or what get_output_embeddings() returns) takes the input embeddings' weight. */
function tieWeights(ev: Interp, obj: ModuleValue): void {
  const config = obj.fields.get('config');
  const flag = config?.t === 'dict' ? (config.fields.get('tie_word_embeddings') ?? { t: 'bool', v: true }) : UNKNOWN;
  if (flag.t !== 'bool' || flag.v) {
    const output = outputEmbeddings(ev, obj);
    if (output && output.t !== 'none') {
      if (flag.t !== 'bool')
        unknown(
          ev,
          obj,
          'post_init() ties the output embeddings to the input embeddings when config.tie_word_embeddings is set, which is not known here',
        );
      else {
        const input = inputEmbeddings(ev, obj);
        if (input) tie(ev, obj, output, input);
        else unknown(ev, obj, 'post_init() ties the output embeddings to input embeddings Attention Lens cannot find');
      }
    }
  }
  const custom = ev.classes.attribute(obj.cls!, '_tie_weights', obj);
  if (custom?.t === 'function') ev.of(custom).functions.callFunction(custom, [], new Map(), obj);
}

/** `_tie_or_clone_weights(output, input)`: the output module's weight is the input's (a clone under torchscript). */
function tie(ev: Interp, obj: ModuleValue, output: Value, input: Value): void {
  const config = obj.fields.get('config');
  const torchscript = config?.t === 'dict' ? config.fields.get('torchscript') : undefined;
  if (torchscript?.t === 'bool' && torchscript.v) return;
  const weight = ev.member(input, 'weight');
  if (weight.t !== 'param' || (output.t !== 'module' && output.t !== 'layer')) {
    unknown(ev, obj, 'post_init() ties weights Attention Lens cannot follow');
    return;
  }
  ev.assignments.setAttribute(output, 'weight', weight);
}

/** get_output_embeddings(): the class's own, else transformers' default, `self.lm_head`. */
function outputEmbeddings(ev: Interp, obj: ModuleValue): Value | undefined {
  const own = ev.classes.attribute(obj.cls!, 'get_output_embeddings', obj);
  if (own?.t === 'function') return ev.of(own).functions.callFunction(own, [], new Map(), obj);
  const head = ev.member(obj, 'lm_head');
  return head.t === 'module' || head.t === 'layer' || head.t === 'none' ? head : undefined;
}

/**
 * get_input_embeddings(): the class's own, else transformers' default: `self.embed_tokens` (or the attribute
 * `_input_embed_layer` names), `self.model.embed_tokens`, then the base model's (`base_model_prefix`).
 */
function inputEmbeddings(ev: Interp, obj: Value, depth = 0): Value | undefined {
  if (obj.t !== 'module' || !obj.cls || depth > 4) return undefined;
  const own = ev.classes.attribute(obj.cls, 'get_input_embeddings', obj);
  if (own?.t === 'function') return ev.of(own).functions.callFunction(own, [], new Map(), obj);
  const layerName = ev.classes.attribute(obj.cls, '_input_embed_layer', undefined);
  const direct = ev.member(obj, layerName?.t === 'str' ? layerName.v : 'embed_tokens');
  if (direct.t === 'module' || direct.t === 'layer') return direct;
  const inner = ev.member(ev.member(obj, 'model'), 'embed_tokens');
  if (inner.t === 'module' || inner.t === 'layer') return inner;
  const prefix = ev.classes.attribute(obj.cls, 'base_model_prefix', undefined);
  const base = prefix?.t === 'str' ? ev.member(obj, prefix.v) : undefined;
  return base && base !== obj && base.t === 'module' ? inputEmbeddings(ev, base, depth + 1) : undefined;
}

function unknown(ev: Interp, obj: ModuleValue, reason: string): void {
  ev.torch.owner(obj.tree).differs(obj.tree.children as Map<string, unknown>, 'weight', reason);
}
