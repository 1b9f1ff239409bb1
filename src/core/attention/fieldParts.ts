/**
 * Attention in a tf.layers.Layer subclass: its dense layers live in its fields, which TF.js does not track.
 * Their weights are what each layer's first apply() creates (kernel [input features, units], bias), named by
 * the field; countParams() of the subclass leaves them out, and the note says so.
 */
import type { LayerInstance, Tensor } from '../values/layer';
import { totalParams } from '../values/layer';
import { groupDigits } from '../values/symbolic';
import type { Value } from '../values/value';
import type { Parts } from './recognise';

type LayerValue = Extract<Value, { t: 'layer' }>;

/** `fields` of the instance; `built` gives a layer as its first apply() built it. */
export function fieldParts(
  fields: ReadonlyMap<string, Value>,
  built: (layer: LayerValue) => LayerInstance | undefined,
): Parts {
  return {
    pathOf: (layer) => [...fields].find(([, v]) => v === layer)?.[0],
    built,
    tensors: (layers) => {
      const tensors: Tensor[] = [];
      let unbuilt = false;
      for (const [path, layer] of layers) {
        const made = built(layer);
        if (!made) unbuilt = true;
        for (const t of (made ?? layer.layer).tensors) tensors.push({ ...t, name: `${path}.${t.name}` });
      }
      const total = totalParams(tensors);
      const params = !unbuilt && total.isConstant ? total : undefined;
      const reason = params
        ? undefined
        : unbuilt
          ? "TF.js creates a dense layer's weights on its first apply(), which is not followed here"
          : `Not every size is known here: ${total}.`;
      const count = params ? `${groupDigits(params.constant!)} weights` : 'their weights';
      return {
        tensors,
        params,
        reason,
        note: `TF.js creates ${count} for these dense layers on their first apply(), but a tf.layers.Layer subclass does not track layers kept in its fields: its countParams() leaves them out, and a model's fit() does not train them.`,
      };
    },
  };
}
