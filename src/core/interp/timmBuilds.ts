/**
 * timm's model builder, as timm 1.0 runs it. A `@register_model` factory calls `build_model_with_cfg(cls,
 * variant, pretrained, **kwargs)`, which fills `num_classes`, `in_chans` and, for a fixed input size,
 * `img_size` from the pretrained configuration the registry holds for the variant, then calls the class. The
 * registry is filled as each model module is imported (`register_model` reads the module's `default_cfgs`),
 * which no run here follows; so the builder is run as timm's code does it, reading the registration from the
 * module defining the registered function named `variant`. Where any of it is not known, the build is not.
 */
import type { Interp } from './interp';
import type { Expr } from '../ir/expr';
import type { Stmt } from '../ir/source';
import { MAYBE_MODULE, UNKNOWN, int, isTainted, truthy, type Value } from '../values/value';

type Dict = Extract<Value, { t: 'dict' }>;

/** PretrainedCfg's defaults of what the builder reads. */
const INPUT_SIZE: Value = { t: 'seq', items: [int(3), int(224), int(224)], tuple: true };
const NUM_CLASSES: Value = int(1000);

/** Where timm 1.0 defines what is run here, and the names `timm.models` gives them. */
const BUILD = new Set(['timm.models._builder.build_model_with_cfg', 'timm.models.build_model_with_cfg']);
const DEFAULT_CFGS = new Set(['timm.models._registry.generate_default_cfgs', 'timm.models.generate_default_cfgs']);
const REGISTER = new Set(['timm.models._registry.register_model', 'timm.models.register_model']);
const DEPRECATIONS = new Set([
  'timm.models._registry.register_model_deprecations',
  'timm.models.register_model_deprecations',
]);

/** PretrainedCfg's fields (timm/models/_pretrained.py): any other key raises a TypeError when it is built. */
const PRETRAINED_FIELDS = new Set([
  'url',
  'file',
  'state_dict',
  'hf_hub_id',
  'hf_hub_filename',
  'source',
  'architecture',
  'tag',
  'custom_load',
  'input_size',
  'test_input_size',
  'min_input_size',
  'fixed_input_size',
  'interpolation',
  'crop_pct',
  'test_crop_pct',
  'crop_mode',
  'mean',
  'std',
  'num_classes',
  'label_offset',
  'label_names',
  'label_descriptions',
  'pool_size',
  'test_pool_size',
  'first_conv',
  'classifier',
  'license',
  'description',
  'origin_url',
  'paper_name',
  'paper_ids',
  'notes',
]);

/** What generate_default_cfgs made: each architecture's DefaultCfg (its tags, default first, and their configurations). */
const generated = new WeakSet<object>();

/** The timm function `fn` is (a library path, or a function of a timm package in the workspace), if one run here. */
export function timmFunction(ev: Interp, fn: Value): 'build' | 'defaultCfgs' | undefined {
  if (fn.t === 'function' && fn.name !== 'build_model_with_cfg' && fn.name !== 'generate_default_cfgs')
    return undefined;
  const path = canonicalPath(ev, fn);
  return path === undefined
    ? undefined
    : BUILD.has(path)
      ? 'build'
      : DEFAULT_CFGS.has(path)
        ? 'defaultCfgs'
        : undefined;
}

/** Whether `fn` is timm's `register_model_deprecations`, which maps old model names to a current one and its tag. */
export function registersDeprecations(ev: Interp, fn: Value): boolean {
  if (fn.t === 'function' && fn.name !== 'register_model_deprecations') return false;
  const path = canonicalPath(ev, fn);
  return path !== undefined && DEPRECATIONS.has(path);
}

function canonicalPath(ev: Interp, fn: Value): string | undefined {
  if (fn.t === 'ref') return fn.path;
  if (fn.t !== 'function' || fn.self || fn.closure !== undefined) return undefined;
  const owner = ev.of(fn);
  return owner.scopeAt(fn.fragment, fn.scope).parent === -1 ? `${owner.moduleName}.${fn.name}` : undefined;
}

/**
 * `generate_default_cfgs(cfgs)`: by architecture, its tags (the default first: a tag-less configuration with
 * weights or the first tag ending in `*`, else the first with weights, else the first) and their configurations.
 */
export function generateDefaultCfgs(cfgs: Value | undefined): Value {
  if (cfgs?.t !== 'dict' || !cfgs.mapping || isTainted(cfgs)) return UNKNOWN;
  const out = new Map<string, { tags: string[]; cfgs: Map<string, Value>; pretrained: boolean }>();
  const defaultSet = new Set<string>();
  for (const [key, cfg] of cfgs.fields) {
    const fields = pretrainedCfg(cfg);
    if (!fields) return UNKNOWN;
    const hasWeights = weighted(fields);
    if (hasWeights === undefined) return UNKNOWN;
    const dot = key.indexOf('.');
    const model = dot < 0 ? key : key.slice(0, dot);
    const rawTag = dot < 0 ? '' : key.slice(dot + 1);
    const priority = (hasWeights && !rawTag) || (rawTag.endsWith('*') && !defaultSet.has(model));
    const tag = rawTag.replace(/^\*+|\*+$/g, '');
    let entry = out.get(model);
    if (!entry) out.set(model, (entry = { tags: [], cfgs: new Map(), pretrained: false }));
    if (priority) {
      entry.tags.unshift(tag);
      defaultSet.add(model);
    } else if (hasWeights && !entry.pretrained) entry.tags.unshift(tag);
    else entry.tags.push(tag);
    if (hasWeights) entry.pretrained = true;
    entry.cfgs.set(tag, cfg);
  }
  const fields = new Map<string, Value>();
  for (const [model, entry] of out) {
    const value: Dict = {
      t: 'dict',
      fields: new Map<string, Value>([
        ['tags', { t: 'seq', items: entry.tags.map((v) => ({ t: 'str', v })) }],
        ['cfgs', { t: 'dict', fields: entry.cfgs, mapping: true }],
        ['is_pretrained', { t: 'bool', v: entry.pretrained }],
      ]),
    };
    generated.add(value);
    fields.set(model, value);
  }
  return { t: 'dict', fields, mapping: true };
}

/** A configuration's fields as `PretrainedCfg(**cfg)` takes them; undefined where that is not known or raises. */
function pretrainedCfg(cfg: Value): Map<string, Value> | undefined {
  if (
    cfg.t !== 'dict' ||
    !cfg.mapping ||
    isTainted(cfg) ||
    [...cfg.fields.keys()].some((k) => !PRETRAINED_FIELDS.has(k))
  )
    return undefined;
  return new Map(cfg.fields);
}

/** `PretrainedCfg.has_weights`: `url or file or hf_hub_id`. */
function weighted(fields: ReadonlyMap<string, Value>): boolean | undefined {
  let known = true;
  for (const name of ['url', 'file', 'hf_hub_id']) {
    const v = fields.get(name);
    const t = v === undefined ? false : truthy(v);
    if (t === true) return true;
    if (t === undefined) known = false;
  }
  return known ? false : undefined;
}

/**
 * `build_model_with_cfg(model_cls, variant, pretrained, ..., **kwargs)` for `pretrained` weights or none (they
 * change no count): the class called with `kwargs`, its defaults filled from the variant's pretrained configuration.
 * `call(cls, keywords)` calls the class.
 */
export function buildModelWithCfg(
  ev: Interp,
  positional: readonly Value[],
  keywords: ReadonlyMap<string, Value>,
  call: (cls: Value, keywords: ReadonlyMap<string, Value>) => Value,
): Value {
  const names = ['model_cls', 'variant', 'pretrained'];
  const args = new Map(keywords);
  for (const [i, v] of positional.entries()) {
    if (i >= names.length || args.has(names[i])) return MAYBE_MODULE;
    args.set(names[i], v);
  }
  const cls = args.get('model_cls');
  const variant = args.get('variant');
  if (!cls || variant?.t !== 'str' || !args.has('pretrained')) return MAYBE_MODULE;
  const own = new Set([
    ...names,
    'pretrained_cfg',
    'pretrained_cfg_overlay',
    'model_cfg',
    'feature_cfg',
    'pretrained_strict',
    'pretrained_filter_fn',
    'cache_dir',
    'kwargs_filter',
  ]);
  const kwargs = new Map([...args].filter(([k]) => !own.has(k)));
  if (popTruthy(kwargs, 'pruned') !== false) return MAYBE_MODULE;
  const cfg = resolvePretrainedCfg(ev, variant.v, args.get('pretrained_cfg'), args.get('pretrained_cfg_overlay'));
  if (!cfg || !updateDefaultModelKwargs(cfg, kwargs) || !filterKwargs(kwargs, args.get('kwargs_filter')))
    return MAYBE_MODULE;
  // A features_only model is wrapped in a feature extractor, which drops the head: not followed here.
  if (popTruthy(kwargs, 'features_only') !== false) return MAYBE_MODULE;
  const modelCfg = args.get('model_cfg');
  if (modelCfg && modelCfg.t !== 'none') kwargs.set('cfg', modelCfg);
  return call(cls, kwargs);
}

/** `kwargs.pop(name, False)`, as a truth value; undefined where it is not known. */
function popTruthy(kwargs: Map<string, Value>, name: string): boolean | undefined {
  const v = kwargs.get(name);
  kwargs.delete(name);
  return v === undefined ? false : truthy(v);
}

/** `resolve_pretrained_cfg(variant, pretrained_cfg, pretrained_cfg_overlay).to_dict()`: the fields set. */
function resolvePretrainedCfg(
  ev: Interp,
  variant: string,
  given: Value | undefined,
  overlay: Value | undefined,
): Map<string, Value> | undefined {
  let cfg: Map<string, Value> | undefined;
  let name = variant;
  const givenTruth = given === undefined ? false : truthy(given);
  if (givenTruth === undefined) return undefined;
  if (givenTruth && given?.t === 'dict') cfg = pretrainedCfg(given);
  else if (givenTruth && given?.t === 'str') name = `${variant}.${given.v}`;
  else if (givenTruth) return undefined;
  if (!cfg) {
    const registered = registeredCfg(ev, name);
    if (registered === undefined) return undefined;
    cfg = registered ?? new Map();
  }
  if (overlay && truthy(overlay) !== false) {
    const fields = overlay.t === 'dict' && overlay.mapping ? pretrainedCfg(overlay) : undefined;
    if (!fields) return undefined;
    for (const [k, v] of fields) cfg.set(k, v);
  }
  if (!cfg.has('input_size')) cfg.set('input_size', INPUT_SIZE);
  if (!cfg.has('num_classes')) cfg.set('num_classes', NUM_CLASSES);
  // to_dict() leaves out the fields that are None.
  for (const [k, v] of cfg) if (v.t === 'none') cfg.delete(k);
  return cfg;
}

/**
 * `get_pretrained_cfg(name)`: the configuration registered for `arch` or `arch.tag`, null for an architecture
 * registered without one (the builder then takes PretrainedCfg's defaults), undefined where the registration
 * is not found or not known, or the tag is not one of the architecture's (timm raises).
 */
function registeredCfg(ev: Interp, name: string): Map<string, Value> | null | undefined {
  const dot = name.indexOf('.');
  const arch = dot < 0 ? name : name.slice(0, dot);
  const tag = dot < 0 ? '' : name.slice(dot + 1);
  const found = registration(ev, arch);
  if (!found) return undefined;
  const table = registeredTable(found.module, found.fragment);
  if (table === null) return null;
  if (table?.t !== 'dict' || !table.mapping || isTainted(table)) return undefined;
  const entry = table.fields.get(arch);
  if (entry === undefined) return null;
  if (!generated.has(entry)) return tag ? undefined : (pretrainedCfg(entry) ?? undefined);
  if (entry.t !== 'dict') return undefined;
  const tags = entry.fields.get('tags');
  const cfgs = entry.fields.get('cfgs');
  if (tags?.t !== 'seq' || cfgs?.t !== 'dict') return undefined;
  const first = tags.items[0];
  const cfg = tag ? cfgs.fields.get(tag) : first?.t === 'str' ? cfgs.fields.get(first.v) : undefined;
  return cfg ? (pretrainedCfg(cfg) ?? undefined) : undefined;
}

/**
 * The function registering `arch`: of the files defining a function being run and the one calling the builder,
 * the one whose top-level function `arch` is decorated with timm's `@register_model`, with the statement defining it.
 */
function registration(ev: Interp, arch: string): { module: Interp; fragment: number } | undefined {
  const files = new Set([ev.file, ...ev.shared.running.map((r) => r.file)]);
  const found: { module: Interp; fragment: number }[] = [];
  for (const file of files) {
    const module = ev.of({ file });
    const fn = module.names.lookup(arch, module.moduleFrame);
    if (fn.t !== 'function' || fn.file !== module.file || fn.closure !== undefined) continue;
    const scope = module.scopeAt(fn.fragment, fn.scope);
    if (scope.parent !== -1) continue;
    const registered = scope.decorators.some((d) => {
      if (!/^[A-Za-z_]\w*$/.test(d)) return false;
      const path = canonicalPath(module, module.names.lookup(d, module.moduleFrame));
      return path !== undefined && REGISTER.has(path);
    });
    if (registered) found.push({ module, fragment: fn.fragment });
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The module's `default_cfgs` as `register_model` read it, when the function at statement `fragment` was
 * defined: null where nothing assigned it before; undefined where a statement from there on may assign it too.
 */
function registeredTable(module: Interp, fragment: number): Value | null | undefined {
  const assigning = assigningDefaultCfgs(module);
  if (assigning.some((fi) => fi >= fragment)) return undefined;
  return assigning.length ? (module.moduleFrame.vars.get('default_cfgs') ?? undefined) : null;
}

/** The module's statements assigning `default_cfgs`, found once for the file: every registered build asks. */
const defaultCfgsStatements = new WeakMap<object, readonly number[]>();

function assigningDefaultCfgs(module: Interp): readonly number[] {
  let found = defaultCfgsStatements.get(module.model);
  if (!found) {
    found = [...module.model.fragments.entries()]
      .filter(([, f]) => f.body.some((s) => assigns(module, s, 'default_cfgs')))
      .map(([fi]) => fi);
    defaultCfgsStatements.set(module.model, found);
  }
  return found;
}

/** Whether `s`, or a statement in it, assigns the name or an item or attribute of it. */
function assigns(module: Interp, s: Stmt, name: string): boolean {
  if (s.k === 'assign' || s.k === 'aug')
    return (s.k === 'assign' ? s.targets : [s.target]).some((t) => writes(module.expr(t), name));
  return Object.values(s).some(
    (v) =>
      Array.isArray(v) &&
      v.some(
        (inner) => typeof inner === 'object' && inner !== null && 'k' in inner && assigns(module, inner as Stmt, name),
      ),
  );
}

function writes(target: Expr, name: string): boolean {
  switch (target.k) {
    case 'name':
      return target.id === name;
    case 'list':
      return target.items.some((item) => writes(item, name));
    case 'attr':
    case 'index':
      return writes(target.object, name);
    default:
      return false;
  }
}

/** `_update_default_model_kwargs`: num_classes, in_chans and (for a fixed input size) img_size, unless given. */
function updateDefaultModelKwargs(cfg: ReadonlyMap<string, Value>, kwargs: Map<string, Value>): boolean {
  const inputSize = cfg.get('input_size');
  const fixed = truthy(cfg.get('fixed_input_size') ?? { t: 'bool', v: false });
  const numClasses = cfg.get('num_classes');
  if (fixed === undefined || (inputSize && (inputSize.t !== 'seq' || inputSize.items.length !== 3))) return false;
  if (numClasses && !kwargs.has('num_classes')) {
    const n = numClasses.t === 'int' ? numClasses.p.constant : undefined;
    if (n === undefined) return false;
    if (n >= 0n) kwargs.set('num_classes', numClasses);
  }
  if (inputSize?.t !== 'seq') return true;
  if (!kwargs.has('in_chans')) kwargs.set('in_chans', inputSize.items[0]);
  if (fixed && !kwargs.has('img_size')) kwargs.set('img_size', { ...inputSize, items: inputSize.items.slice(1) });
  return true;
}

/** `_filter_kwargs(kwargs, names=kwargs_filter)`. */
function filterKwargs(kwargs: Map<string, Value>, filter: Value | undefined): boolean {
  if (!filter || filter.t === 'none') return true;
  if (filter.t !== 'seq' || filter.items.some((n) => n.t !== 'str')) return false;
  for (const n of filter.items) if (n.t === 'str') kwargs.delete(n.v);
  return true;
}
