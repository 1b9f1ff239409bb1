/** `obj.id`: attributes of imports, dicts, classes, modules, layers, tensors, and JavaScript's `length`. */
import type { ModuleTree } from '../values/modules';
import type { Language } from '../ir/source';
import { shapeOf } from '../shapes/views';
import { torchNnClassName } from '../ir/imports';
import { int, MAYBE_MODULE, NONE, UNKNOWN, isTainted, type DefRef, type Value } from '../values/value';

/** What reading a member needs of the interpreter. */
export interface MemberContext {
  readonly language: Language;
  /** Set while forward() is followed for its activations (the module is then training). */
  readonly tape?: unknown;
  readonly names: { importedName(module: string, member: string): Value | undefined };
  readonly classes: {
    attribute(c: DefRef, name: string, instance: Value | undefined): Value | undefined;
    superAttribute(s: Extract<Value, { t: 'super' }>, name: string): Value | undefined;
    mro(c: DefRef): readonly (DefRef | { readonly path: string })[] | undefined;
  };
  readonly torch: { moduleOf(v: Value): ModuleTree | undefined; asValue(tree: ModuleTree): Value };
}

export function memberOf(ev: MemberContext, obj: Value, id: string): Value {
  if (id === '__name__' && ev.language === 'python') {
    const name = nameOf(obj);
    if (name !== undefined) return { t: 'str', v: name };
  }
  switch (obj.t) {
    case 'ref':
      // `blocks.FeedForward` after `import * as blocks from './blocks'`, `lora.Linear` after `import loralib as
      // lora`: the other file's own definition, where the workspace or an installed package holds it. torch's
      // and the builtins' names are the analysis's own.
      if (
        (ev.language === 'typescript' && obj.path.startsWith('.')) ||
        (ev.language === 'python' && !/^(torch|builtins)(\.|$)/.test(obj.path))
      ) {
        const found = ev.names.importedName(obj.path, id);
        if (found) return found;
      }
      return { t: 'ref', path: `${obj.path}.${id}` };
    case 'dict': {
      if (isTainted(obj)) return UNKNOWN;
      const field = obj.fields.get(id);
      if (field) return field;
      if (obj.cls) return ev.classes.attribute(obj.cls, id, obj) ?? mappedAttribute(ev, obj, id) ?? UNKNOWN;
      if (obj.origin) return { t: 'sym', name: `${obj.origin}.${id}` };
      // A property a JavaScript object literal does not have is undefined (`config.heads ?? 8` on `{}`).
      return ev.language === 'typescript' ? NONE : UNKNOWN;
    }
    case 'sym':
      return { t: 'sym', name: `${obj.name}.${id}` };
    case 'seq':
      // JavaScript's `xs.length` (copies a loop pushed leave it not known).
      return id === 'length' && ev.language === 'typescript' && !obj.items.some((i) => i.t === 'repeat')
        ? int(obj.items.length)
        : UNKNOWN;
    case 'class':
      return ev.classes.attribute(obj, id, undefined) ?? UNKNOWN;
    case 'module':
    case 'layer': {
      // The activations are those of train mode.
      if (id === 'training' && ev.tape) return { t: 'bool', v: true };
      const tree = ev.torch.moduleOf(obj)!;
      const field = obj.t === 'module' ? obj.fields.get(id) : undefined;
      if (
        field &&
        (field.t !== 'module' && field.t !== 'layer'
          ? !tree.children.has(id) && !tree.params.has(id)
          : ev.torch.moduleOf(field) === tree.children.get(id))
      )
        return field;
      const child = tree.children.get(id);
      if (child) return ev.torch.asValue(child);
      const kept = (obj.t === 'layer' ? obj.layer : obj.layer?.layer)?.attributes?.get(id);
      if (kept !== undefined && !field) return typeof kept === 'number' ? { t: 'float', v: kept } : int(kept);
      const p = tree.params.get(id);
      if (p) return { t: 'param', ref: p };
      if (field) return field;
      if (obj.t === 'module' && obj.cls) return ev.classes.attribute(obj.cls, id, obj) ?? UNKNOWN;
      return UNKNOWN;
    }
    case 'super':
      return ev.classes.superAttribute(obj, id) ?? UNKNOWN;
    case 'tensor':
      return id === 'shape' ? shapeOf(obj) : id === 'T' ? obj : UNKNOWN;
    case 'partial':
      return partialAttribute(obj, id);
    case 'unknown':
      // A part of what may be a module (`wrapper.encoder`) may be one.
      return obj.module ? MAYBE_MODULE : UNKNOWN;
    default:
      return UNKNOWN;
  }
}

/**
 * A class's or function's `__name__`, which type sets whatever its body binds (timm's
 * `norm_layer.__name__.lower()` looks up the norm-and-activation class of a norm class): of the workspace, and
 * of torch.nn (`nn.BatchNorm2d`), whose names are its classes'.
 */
function nameOf(obj: Value): string | undefined {
  if (obj.t === 'class' || obj.t === 'function') return obj.name;
  if (obj.t === 'lambda') return '<lambda>';
  return obj.t === 'ref' ? torchNnClassName(obj.path) : undefined;
}

/** `functools.partial`'s `func`, `args` and `keywords`, which timm's `get_norm_layer` takes apart to bind again. */
function partialAttribute(obj: Extract<Value, { t: 'partial' }>, id: string): Value {
  switch (id) {
    case 'func':
      return obj.fn;
    case 'args':
      return { t: 'seq', items: obj.positional, tuple: true };
    case 'keywords':
      return { t: 'dict', fields: obj.keywords, mapping: true };
    default:
      return UNKNOWN;
  }
}

/**
 * A Hugging Face configuration's `attribute_map` (`{"hidden_size": "n_embd"}`): PretrainedConfig reads the
 * attribute it names instead.
 */
function mappedAttribute(ev: MemberContext, obj: Extract<Value, { t: 'dict' }>, id: string): Value | undefined {
  const pretrained = ev.classes
    .mro(obj.cls!)
    ?.some((b) => ('path' in b ? b.path : b.name).endsWith('PretrainedConfig'));
  if (!pretrained) return undefined;
  const map = ev.classes.attribute(obj.cls!, 'attribute_map', undefined);
  const target = map?.t === 'dict' ? map.fields.get(id) : undefined;
  return target?.t === 'str' ? obj.fields.get(target.v) : undefined;
}
