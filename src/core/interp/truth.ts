/** Python's truth of a value where it is certain, as `if`, `and`/`or` and a conditional expression test it. */
import { torchNnClassName } from '../ir/imports';
import { truthy, type Value } from '../values/value';
import { WEIGHTLESS } from './shapeChecks';

/**
 * values.truthy, and a class of torch.nn the analysis knows, which is true as every class is: timm's
 * `get_act_layer(act_layer) or nn.GELU` with `act_layer=nn.SiLU`. Another library name (`torch.backends.cuda.
 * matmul.allow_tf32`, a constant of an installed package not read) may be false.
 */
export function truthOf(ev: CatalogReader, v: Value): boolean | undefined {
  const t = truthy(v);
  if (t !== undefined) return t;
  return isTorchNnClass(ev, v) ? true : undefined;
}

type CatalogReader = { isCatalogLayer(path: string): boolean };

/** Whether a value is a class of torch.nn the analysis knows (`nn.BatchNorm2d`), so certainly a class. */
export function isTorchNnClass(ev: CatalogReader, v: Value): boolean {
  const name = v.t === 'ref' ? torchNnClassName(v.path) : undefined;
  return name !== undefined && (WEIGHTLESS.has(name) || ev.isCatalogLayer(`torch.nn.${name}`));
}
