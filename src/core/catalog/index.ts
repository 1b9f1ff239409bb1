/** Every layer the analysis knows, by canonical path. */
import { normalizePath } from '../imports';
import { PYTORCH_LAYERS } from './pytorch';
import type { LayerSpec } from './spec';

const ALL = new Map<string, LayerSpec>([...PYTORCH_LAYERS]);

export function layerSpec(path: string): LayerSpec | undefined {
  return ALL.get(normalizePath(path));
}

/** The last names of all catalog paths: a call whose callee ends with none of them cannot build a layer. */
export const CATALOG_NAMES: readonly string[] = [...new Set([...ALL.keys()].map((p) => p.slice(p.lastIndexOf('.') + 1)))];
