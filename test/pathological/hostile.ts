/**
 * The seeded adversarial suite of issue 23: one family of inputs per cause of an abort, a hang, an impossible
 * figure or an injected sequence. Input `index` of a seed is drawn from its own stream, so it can be
 * replayed alone.
 */
import { bombInput } from './bombs';
import { importChainInput, inheritanceInput } from './chains';
import { figureInput } from './figures';
import type { FuzzInput } from './input';
import { injectionInput } from './injection';
import { commentRunInput, unclosedInput } from './longFiles';
import { Choices, random } from './random';
import type { Scale } from './scale';

const FAMILIES: readonly ((c: Choices, index: number, scale: Scale) => FuzzInput)[] = [
  bombInput,
  commentRunInput,
  unclosedInput,
  inheritanceInput,
  importChainInput,
  figureInput,
  injectionInput,
];

export function* hostileInputs(seed: number, count: number, scale: Scale): Generator<FuzzInput> {
  for (let index = 0; index < count; index++) {
    const choices = new Choices(random((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0));
    yield FAMILIES[index % FAMILIES.length](choices, index, scale);
  }
}
