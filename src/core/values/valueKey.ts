/**
 * A module-level value as text that two versions of a document can compare: a run that read `X` from the
 * module frame still holds when `X` has the same key in the next version, even though every value there
 * is a new object and a statement unchanged in itself (`X = width()`) may bind another value.
 */
import type { SourceModel } from '../ir/source';
import type { Poly } from './symbolic';
import { isTainted, type DefRef, type Value } from './value';

/** What a key needs of the interpreter: the file that defines a class or function, by module name and text. */
export interface DefiningFiles {
  of(def: DefRef): { readonly moduleName: string; readonly model: SourceModel };
}

/** Keys longer than this are not kept: such a read counts as changed. */
const MAX_KEY = 4096;

/**
 * The key of `v`; undefined when it has none (an instance, a layer, a tensor, a lambda, a dict whose
 * content is not known): a run that read such a value is run again in the next version.
 */
export function valueKey(ev: DefiningFiles, v: Value): string | undefined {
  // Most module values are numbers and imports: their key is made without walking.
  if (v.t === 'int') return intKey(v.p);
  if (v.t === 'ref') return `r${v.path}`;
  const parts: string[] = [];
  let size = 0;
  const add = (s: string) => {
    parts.push(s);
    size += s.length;
    return size <= MAX_KEY;
  };
  const walk = (x: Value, depth: number): boolean => {
    if (depth > 16) return false;
    switch (x.t) {
      case 'int':
        return add(intKey(x.p));
      case 'float':
        return x.v !== undefined && add(`f${x.v}`);
      case 'bool':
        return add(x.v ? 'T' : 'F');
      case 'str':
        return add(`s${JSON.stringify(x.v)}`);
      case 'none':
        return add('N');
      case 'sym':
        return add(`y${x.name}`);
      case 'ref':
        return add(`r${x.path}`);
      case 'range':
        return add(`g${x.start.toString()}:${x.stop.toString()}`);
      case 'class':
      case 'function': {
        if (x.t === 'function' && (x.self || x.closure !== undefined)) return false;
        const owner = ev.of(x);
        return add(`${x.t[0]}${owner.moduleName}:${owner.model.fragments[x.fragment]?.id}:${x.scope}`);
      }
      case 'seq':
        return add(x.tuple ? '(' : '[') && x.items.every((item) => walk(item, depth + 1)) && add(')');
      case 'repeat':
        return add(`*${x.count.toString()}`) && walk(x.item, depth + 1);
      case 'partial':
        return (
          add('P') &&
          walk(x.fn, depth + 1) &&
          x.positional.every((item) => walk(item, depth + 1)) &&
          [...x.keywords].every(([k, item]) => add(k) && walk(item, depth + 1)) &&
          add(')')
        );
      case 'dict':
        if (isTainted(x)) return false;
        if (!add(`${x.mapping ? 'M' : ''}{${x.origin ?? ''}`) || (x.cls && !walk({ t: 'class', ...x.cls }, depth + 1)))
          return false;
        for (const [k, item] of x.fields) if (!add(`${JSON.stringify(k)}:`) || !walk(item, depth + 1)) return false;
        return add('}');
      default:
        return false;
    }
  };
  return walk(v, 0) ? parts.join(',') : undefined;
}

function intKey(p: Poly): string {
  return p.constant !== undefined ? `i${p.constant}` : `p${p.toString()}`;
}
