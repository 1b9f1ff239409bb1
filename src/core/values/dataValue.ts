/**
 * Data a configuration file holds (as the syntax layer reads JSON, YAML and TOML: an int as a bigint, a float as a
 * number) as the values Python's loaders give: dicts, lists, strings, numbers, booleans and None.
 */
import { int, NONE, type Value } from './value';

/** The value of the data; undefined when it is nested deeper than the stack, as a file Python cannot load. */
export function dataValue(data: unknown): Value | undefined {
  try {
    return valueOf(data);
  } catch {
    return undefined;
  }
}

function valueOf(data: unknown): Value {
  if (data === null || data === undefined) return NONE;
  if (typeof data === 'boolean') return { t: 'bool', v: data };
  if (typeof data === 'string') return { t: 'str', v: data };
  if (Array.isArray(data)) return { t: 'seq', items: data.map(valueOf) };
  if (typeof data === 'bigint') return int(data);
  if (typeof data === 'number') return { t: 'float', v: data };
  const fields = new Map<string, Value>();
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) fields.set(k, valueOf(v));
  return { t: 'dict', fields, mapping: true };
}
