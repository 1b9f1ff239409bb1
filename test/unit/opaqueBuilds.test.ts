/**
 * A model class built with arguments that cannot be followed, from several factories through one builder
 * (timm's `build_model_with_cfg`): the first build stands for the others (interp/opaqueBuilds.ts), and what
 * it reported is reported again for each.
 */
import * as assert from 'assert';
import { analyzeText } from './helpers';

const SOURCE = `import torch.nn as nn
from elsewhere import resolve


class Net(nn.Module):
    def __init__(self, width=8, **kwargs):
        super().__init__()
        self.head = nn.Linear(width, 10)
        self.fixed = nn.Linear(4, 4)


def build(cls, variant, **kwargs):
    return cls(**resolve(variant, kwargs))


def net_small(**kwargs):
    return build(Net, 'small', **dict(width=4, **kwargs))


def net_large(**kwargs):
    return build(Net, 'large', **dict(width=16, **kwargs))


class Fixed(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.fc = nn.Linear(4, 4)


def fixed_a(**kwargs):
    m = build(Fixed, 'a', **kwargs)
    m.extra = nn.Linear(2, 2)
    return m


def fixed_b(**kwargs):
    return build(Fixed, 'b', **kwargs)
`;

suite('builds with arguments that cannot be followed', () => {
  test('count each factory that builds the class as a context of its layers', async () => {
    const a = await analyzeText(SOURCE);
    const fixed = a.layers.find((l) => l.span.startLine === 8);
    assert.deepStrictEqual(
      fixed?.values.map((v) => [v.params.toString(), v.context, v.contexts]),
      [['20', 'Net()', 3]],
    );
    const head = a.layers.find((l) => l.span.startLine === 7);
    assert.deepStrictEqual(
      head?.values.map((v) => [v.params.toString(), v.contexts]),
      [['90', 1]],
    );
  });

  test('the next build is a model of its own: what one caller adds to its model is not in the next one', async () => {
    const a = await analyzeText(SOURCE);
    const fixed = a.modules.find((m) => m.name === 'Fixed');
    assert.deepStrictEqual(
      fixed?.configurations?.map((c) => [c.context, c.params.toString()]),
      [
        ['Fixed()', '20'],
        ['fixed_a()', '26'],
        ['fixed_b()', '20'],
      ],
    );
  });
});
