/**
 * What the short hover keeps of a layer's notes: the facts of this layer, one line each. The notes that
 * teach (what the attention product holds, why the count does not depend on the heads) wait behind "More".
 */
import { dimText } from '../catalog/spec';
import type { LayerInstance } from '../values/layer';

export function factNotes(layer: LayerInstance): string[] {
  const a = layer.attention;
  if (!a) return [];
  if (a.layout === 'keras') {
    const value =
      a.valueHeadDim && a.headDim && !a.valueHeadDim.equals(a.headDim) ? `, valueDim ${dimText(a.valueHeadDim)}` : '';
    return [`${dimText(a.heads)} heads, each with its own keyDim ${a.headDim ? dimText(a.headDim) : '?'}${value}`];
  }
  if (a.layout === 'module') return [];
  return [
    `d_k = ${dimText(a.embed)} / ${dimText(a.heads)}${a.headDim ? ` = ${dimText(a.headDim)}` : ''} features per head`,
  ];
}

/** The layer with only its facts as notes, for the short hover; the full hover shows every note. */
export function withFactsOnly(layer: LayerInstance): LayerInstance {
  return { ...layer, notes: factNotes(layer) };
}

/** Whether the full hover says more than the short one. */
export function hasMore(layer: LayerInstance): boolean {
  const facts = new Set(factNotes(layer));
  return layer.notes.some((n) => !facts.has(n));
}
