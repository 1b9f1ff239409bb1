/**
 * peft's LoRA as `get_peft_model(model, LoraConfig(...))` applies it (peft 0.21): each module whose name is one
 * of `target_modules` (or ends with `.` and one) and is a linear layer (torch's, bitsandbytes' quantised ones)
 * or an embedding is wrapped, its base layer kept, with `lora_A.default` [r, in] and `lora_B.default` [out, r]
 * (`lora_embedding_A`/`_B` for an embedding); every other parameter is frozen (biases too, unless `bias` says
 * otherwise). The model given holds the adapters afterwards, as in Python; the PeftModel the call returns is
 * listed as a model of its own, with its trainable and frozen parameters. What peft decides from more than the code
 * shows (no `target_modules`, `all-linear`, a regular expression, per-module ranks, DoRA, modules to save, a
 * `task_type`, whose PeftModel subclasses read a transformers model's methods) leaves the model not known.
 */
import type { CallExpr } from '../values/bound';
import { container, emptyModule, param, type ModuleTree } from '../values/modules';
import { Poly } from '../values/symbolic';
import { asPoly, MAYBE_MODULE, NONE, type Value } from '../values/value';
import type { Frame } from './frame';
import type { Interp } from './interp';
import { namedParams } from './requiresGrad';

const CONFIG = 'peft.LoraConfig';
const CONFIG_PATHS = new Set([CONFIG, 'peft.tuners.lora.LoraConfig', 'peft.tuners.lora.config.LoraConfig']);
const GET_PEFT_MODEL = new Set([
  'peft.get_peft_model',
  'peft.mapping.get_peft_model',
  'peft.mapping_func.get_peft_model',
]);
/** The base layers peft's LoRA wraps as linear layers: torch's, and bitsandbytes' quantised ones (QLoRA). */
const LINEAR = new Set(['Linear', 'Linear8bitLt', 'Linear4bit', 'LinearNF4', 'LinearFP4']);
/** Options that change which modules are wrapped, or how, beyond what is followed here: their defaults only. */
const DEFAULT_ONLY: Readonly<Record<string, (v: Value) => boolean>> = {
  exclude_modules: (v) => v.t === 'none',
  layers_to_transform: (v) => v.t === 'none',
  layers_pattern: (v) => v.t === 'none',
  modules_to_save: (v) => v.t === 'none',
  target_parameters: (v) => v.t === 'none',
  use_dora: (v) => v.t === 'bool' && !v.v,
  rank_pattern: (v) => v.t === 'dict' && v.fields.size === 0,
  alpha_pattern: (v) => v.t === 'dict' && v.fields.size === 0,
};

type ConfigValue = Extract<Value, { t: 'dict' }>;

/** `LoraConfig(...)`, `get_peft_model(model, config)`; undefined for any other path. */
export function peftCall(
  ev: Interp,
  path: string,
  positional: readonly Value[],
  keywords: ReadonlyMap<string, Value>,
  call: CallExpr,
  frame: Frame,
): Value | undefined {
  if (CONFIG_PATHS.has(path))
    return positional.length ? MAYBE_MODULE : { t: 'dict', fields: new Map(keywords), origin: CONFIG };
  if (!GET_PEFT_MODEL.has(path)) return undefined;
  const model = positional[0] ?? keywords.get('model');
  const config = positional[1] ?? keywords.get('peft_config');
  if (model?.t !== 'module' || config?.t !== 'dict' || config.origin !== CONFIG) return MAYBE_MODULE;
  const tree = applyLora(ev, model.tree, config);
  const value: Value = { t: 'module', tree, fields: new Map() };
  if (frame.isModule) ev.hooks.model?.(call, tree.kind, () => tree, value);
  return value;
}

function option(config: ConfigValue, name: string, fallback: Value): Value {
  return config.fields.get(name) ?? fallback;
}

/** The names `target_modules` gives, or why they are not followed. */
function targets(config: ConfigValue): Set<string> | string {
  const v = option(config, 'target_modules', NONE);
  if (v.t === 'none') return 'peft picks the target modules from the model type when target_modules is None';
  if (v.t === 'str')
    return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(v.v) && v.v !== 'all-linear'
      ? new Set([v.v])
      : `target_modules '${v.v}' is matched as peft matches it, which is not followed here`;
  if ((v.t === 'seq' || v.t === 'set') && v.items.every((i) => i.t === 'str'))
    return new Set(v.items.map((i) => (i as { v: string }).v));
  return 'target_modules is not known here';
}

/** A task type makes a PeftModelForCausalLM (and the like), which reads generation methods of a transformers model. */
function taskClass(config: ConfigValue): string | undefined {
  return option(config, 'task_type', NONE).t === 'none' ? 'PeftModel' : undefined;
}

function notKnown(kind: string, reason: string): ModuleTree {
  return { ...emptyModule(kind), unknown: `get_peft_model: ${reason}` };
}

/** The PeftModel around `base`, whose targets it wraps in place; a tree not known where peft is not followed. */
function applyLora(ev: Interp, base: ModuleTree, config: ConfigValue): ModuleTree {
  const kind = taskClass(config);
  if (!kind)
    return notKnown('PeftModel', 'a task_type makes the PeftModel of a transformers model, which is not followed here');
  const names = targets(config);
  if (typeof names === 'string') return notKnown(kind, names);
  for (const [name, isDefault] of Object.entries(DEFAULT_ONLY))
    if (config.fields.has(name) && !isDefault(config.fields.get(name)!))
      return notKnown(kind, `${name} is not followed here`);
  const r = asPoly(option(config, 'r', { t: 'int', p: Poly.int(8) }));
  const bias = option(config, 'bias', { t: 'str', v: 'none' });
  const loraBias = option(config, 'lora_bias', { t: 'bool', v: false });
  if (!r || r.constant === undefined || r.constant <= 0n) return notKnown(kind, 'its rank r is not known here');
  if (bias.t !== 'str' || !['none', 'all', 'lora_only'].includes(bias.v) || loraBias.t !== 'bool')
    return notKnown(kind, 'its bias options are not known here');
  const dropout = option(config, 'lora_dropout', { t: 'float', v: 0 });
  const wrap = new Wrapper(ev, r, loraBias.v, dropout.t === 'float' && dropout.v === 0 ? 'Identity' : 'Dropout', names);
  wrap.find(base, '');
  if (wrap.reason) return notKnown(kind, wrap.reason);
  if (!wrap.hasTargets)
    return notKnown(kind, `peft raises: no module of the model is one of target_modules (${[...names].join(', ')})`);
  wrap.wrapAll();
  // peft's _mark_only_adapters_as_trainable: a parameter whose name holds no `lora_` is frozen; `bias='all'` turns
  // back on each whose name holds `bias`, `'lora_only'` the bias of each wrapped layer.
  const wrappedBiases = new Set(wrap.wrapped.flatMap((w) => (w.params.has('bias') ? [w.params.get('bias')!.id] : [])));
  for (const { name, ref } of namedParams(base)) {
    if (name.includes('lora_')) continue;
    const keep = (bias.v === 'all' && name.includes('bias')) || (bias.v === 'lora_only' && wrappedBiases.has(ref.id));
    ev.grads.set(ref, { t: 'bool', v: keep });
  }
  return container(kind, [['base_model', container('LoraModel', [['model', base]])]]);
}

/**
 * Walks the model as peft's named_modules() does (a module reached twice, once), wrapping each target in place
 * as peft replaces it in its parent: the model given holds the adapters afterwards, as in Python.
 */
class Wrapper {
  readonly wrapped: ModuleTree[] = [];
  reason: string | undefined;
  private readonly targets: [ModuleTree, string, ModuleTree][] = [];

  get hasTargets(): boolean {
    return this.targets.length > 0;
  }

  constructor(
    private readonly ev: Interp,
    private readonly r: Poly,
    private readonly loraBias: boolean,
    private readonly dropout: string,
    private readonly names: ReadonlySet<string>,
  ) {}

  private matches(key: string): boolean {
    return this.names.has(key) || [...this.names].some((t) => key.endsWith(`.${t}`));
  }

  /** Finds the targets, and says why where peft would not wrap one; wraps nothing. */
  find(node: ModuleTree, key: string, visited = new Set<ModuleTree>()): void {
    for (const [name, child] of node.children) {
      if (visited.has(child) || this.reason) continue;
      visited.add(child);
      const at = key ? `${key}.${name}` : name;
      if (!this.matches(at)) {
        this.find(child, at, visited);
        continue;
      }
      const weight = child.params.get('weight');
      if (!weight || weight.shape.length !== 2 || !(LINEAR.has(child.kind) || child.kind === 'Embedding'))
        this.reason = `peft does not wrap ${at} (${child.kind || 'a module'}) as LoRA here`;
      this.targets.push([node, name, child]);
    }
  }

  wrapAll(): void {
    for (const [parent, name, node] of this.targets)
      this.ev.journal.set(this.ev.torch.owner(parent), parent.children, name, this.wrap(node));
  }

  private adapter(params: [string, Poly[]][]): ModuleTree {
    const node = emptyModule('Linear');
    for (const [name, shape] of params) node.params.set(name, param(shape));
    return node;
  }

  private parameters(shape?: Poly[]): ModuleTree {
    const d = emptyModule('ParameterDict');
    if (shape) d.params.set('default', param(shape));
    return d;
  }

  private wrap(node: ModuleTree): ModuleTree {
    this.wrapped.push(node);
    const embedding = node.kind === 'Embedding';
    const r = this.r;
    const [rows, cols] = node.params.get('weight')!.shape;
    const bias: [string, Poly[]][] = this.loraBias ? [['bias', [rows]]] : [];
    // A layer standing for copies (`{i}` of a ModuleList built by a comprehension): each copy is wrapped.
    const wrapper = container(embedding ? 'lora.Embedding' : 'lora.Linear', [
      ['base_layer', node.repeat ? { ...node, repeat: undefined } : node],
      ['lora_dropout', container('ModuleDict', [['default', emptyModule(this.dropout)]])],
      ['lora_A', container('ModuleDict', embedding ? [] : [['default', this.adapter([['weight', [r, cols]]])]])],
      [
        'lora_B',
        container('ModuleDict', embedding ? [] : [['default', this.adapter([['weight', [rows, r]], ...bias])]]),
      ],
      ['lora_embedding_A', this.parameters(embedding ? [r, rows] : undefined)],
      ['lora_embedding_B', this.parameters(embedding ? [cols, r] : undefined)],
      ['lora_magnitude_vector', container('ModuleDict', [])],
    ]);
    return node.repeat ? { ...wrapper, repeat: node.repeat } : wrapper;
  }
}
