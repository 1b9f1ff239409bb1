/** Python's truth of a value where it is certain, as `if`, `and`/`or` and a conditional expression test it. */
import { normalizePath } from '../ir/imports';
import { truthy, type Value } from '../values/value';
import { WEIGHTLESS } from './shapeChecks';

/**
 * values.truthy, and a class of torch.nn the analysis knows, which is true as every class is: timm's
 * `get_act_layer(act_layer) or nn.GELU` with `act_layer=nn.SiLU`. Another library name (`torch.backends.cuda.
 * matmul.allow_tf32`, a constant of an installed package not read) may be false.
 */
export function truthOf(ev: { isCatalogLayer(path: string): boolean }, v: Value): boolean | undefined {
  const t = truthy(v);
  if (t !== undefined || v.t !== 'ref') return t;
  const path = normalizePath(v.path);
  const name = path.slice(path.lastIndexOf('.') + 1);
  return path === `torch.nn.${name}` && (WEIGHTLESS.has(name) || ev.isCatalogLayer(path)) ? true : undefined;
}
