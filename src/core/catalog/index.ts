/** Every layer the analysis knows, by canonical path. */
import { normalizePath } from '../ir/imports';
import { APEX_LAYERS } from './apex';
import { BITSANDBYTES_LAYERS } from './bitsandbytes';
import { FAIRSCALE_LAYERS } from './fairscale';
import { JSPYTORCH_LAYERS } from './jspytorch';
import { MEGATRON_LAYERS } from './megatron';
import { PYTORCH_LAYERS } from './pytorch';
import { TFJS_LAYERS } from './tfjs';
import { TRANSFORMERS_LAYERS } from './transformers';
import { TRANSFORMER_ENGINE_LAYERS } from './transformerEngine';
import type { LayerSpec } from './spec';

const ALL = new Map<string, LayerSpec>([
  ...PYTORCH_LAYERS,
  ...TRANSFORMERS_LAYERS,
  ...FAIRSCALE_LAYERS,
  ...MEGATRON_LAYERS,
  ...BITSANDBYTES_LAYERS,
  ...APEX_LAYERS,
  ...TRANSFORMER_ENGINE_LAYERS,
  ...TFJS_LAYERS,
  ...JSPYTORCH_LAYERS,
]);

export function layerSpec(path: string): LayerSpec | undefined {
  // `from ...pytorch_utils import Conv1D` in a model file of the transformers package itself.
  return (
    ALL.get(normalizePath(path)) ??
    (path.startsWith('.') ? ALL.get(`transformers.${path.replace(/^\.+/, '')}`) : undefined)
  );
}

/** The last names of all catalog paths: a call whose callee ends with none of them cannot build a layer. */
export const CATALOG_NAMES: readonly string[] = [
  ...new Set([...ALL.keys()].map((p) => p.slice(p.lastIndexOf('.') + 1))),
  // Calls that carry sizes from one TF.js layer to the next.
  'sequential',
  'model',
  'add',
  'apply',
  'call',
  'callAndReturnAttentionScores',
  'input',
];
