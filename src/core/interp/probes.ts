/**
 * What a probed parameter (hooks.ts's Probe) is looked up among: `TABLE[name]` and `name in TABLE` give the
 * dict's keys, `name in {'a', 'b'}` the set's strings, `name == 'a'` the string.
 */
import type { Probe } from './hooks';
import type { Value } from '../values/value';

/** `container[key]`. */
export function probeIndex(probe: Probe | undefined, container: Value, key: Value): void {
  if (probe && key === probe.value) namesIn(probe, container);
}

/** `left op right`. */
export function probeCompare(probe: Probe | undefined, op: string, left: Value, right: Value): void {
  if (!probe) return;
  if ((op === 'in' || op === 'not in') && left === probe.value) namesIn(probe, right);
  else if ((op === '==' || op === '!=') && (left === probe.value || right === probe.value)) {
    const other = left === probe.value ? right : left;
    if (other.t === 'str') probe.names.add(other.v);
  }
}

function namesIn(probe: Probe, container: Value): void {
  if (container.t === 'dict' && container.mapping) for (const k of container.fields.keys()) probe.names.add(k);
  else if (container.t === 'seq') for (const item of container.items) if (item.t === 'str') probe.names.add(item.v);
}
