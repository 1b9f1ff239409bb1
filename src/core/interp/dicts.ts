/**
 * Methods of dicts and config objects: the ones that change the dict are followed (`setdefault`,
 * `update`, `pop`), the ones that read it answer; any other call may change it, and the dict is then
 * "tainted": what it holds is no longer known.
 */
import { NONE, UNKNOWN, isTainted, taint, type Value } from '../values/value';
import type { Journal, Owner } from './journal';
import { born } from '../values/births';

type DictValue = Extract<Value, { t: 'dict' }>;

const READS = new Set(['get', 'keys', 'values', 'items', 'copy', '__contains__']);

export class Dicts {
  constructor(
    private readonly journal: Journal,
    private readonly owner: Owner,
    /** Told when a dict becomes tainted: a change no journal holds. */
    private readonly changed: (fields: object) => void,
  ) {}

  /** `d` changed in a way not followed (a key not known set): what it holds is no longer known. */
  taint(d: DictValue): void {
    taint(d);
    this.changed(d.fields);
  }

  /** `d.method(...)`: its value, after applying what it changes. */
  call(d: DictValue, method: string, positional: readonly Value[], keywords: ReadonlyMap<string, Value>): Value {
    const fields = d.fields as Map<string, Value>;
    const [a, b] = positional;
    if (isTainted(d) && !READS.has(method)) return UNKNOWN;
    switch (method) {
      case 'get':
        if (isTainted(d) || a?.t !== 'str') return UNKNOWN;
        return fields.get(a.v) ?? b ?? NONE;
      case 'keys':
        return isTainted(d)
          ? UNKNOWN
          : { t: 'seq', items: [...fields.keys()].map((k) => ({ t: 'str', v: k }) as Value) };
      case 'values':
        return isTainted(d) ? UNKNOWN : { t: 'seq', items: [...fields.values()] };
      case 'items':
        return isTainted(d)
          ? UNKNOWN
          : {
              t: 'seq',
              items: [...fields].map(([k, v]) => ({ t: 'seq', items: [{ t: 'str', v: k }, v], tuple: true }) as Value),
            };
      case 'copy':
        return isTainted(d) ? UNKNOWN : { ...d, fields: born(new Map(fields)) };
      case 'setdefault':
        if (a?.t !== 'str') break;
        if (!fields.has(a.v)) this.journal.set(this.owner, fields, a.v, b ?? NONE);
        return fields.get(a.v)!;
      case 'update': {
        if (a && a.t !== 'dict') break;
        if (a && isTainted(a)) break;
        for (const [k, v] of [...(a?.fields ?? []), ...keywords]) this.journal.set(this.owner, fields, k, v);
        return NONE;
      }
      case 'pop':
        if (a?.t !== 'str') break;
        if (fields.has(a.v)) {
          const v = fields.get(a.v)!;
          this.journal.delete(this.owner, fields, a.v);
          return v;
        }
        return b ?? UNKNOWN;
      default:
        break;
    }
    taint(d);
    this.changed(d.fields);
    return UNKNOWN;
  }
}
