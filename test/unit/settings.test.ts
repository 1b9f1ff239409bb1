/** Settings read through one pure function, with defaults for missing or malformed values. */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { RULES } from '../../src/cli/rules';
import { DEFAULT_SIZING } from '../../src/core/sizing/memory';
import { placement, SEVERITY_LEVELS, Settings } from '../../src/vscode/settings';
import { ROOT } from './helpers';

/** Values as `get` returns them (defaults included), and the keys the user set, as `inspect` tells. */
const raw = (values: Record<string, unknown>, set: readonly string[] = Object.keys(values)) => ({
  get: (key: string) => values[key],
  inspect: (key: string) => (set.includes(key) ? { globalValue: values[key] } : {}),
});

const DEFAULTS = {
  hover: true,
  codeLens: 'all',
  diagnostics: true,
  inlayHints: false,
  inline: false,
  severity: {},
  sizing: { dtype: 'bf16', optimizer: 'adamwMixed', batch: 1, sequence: 1024 },
  configurations: {},
};

suite('settings', () => {
  test('defaults when nothing is set: every surface on except inlay hints and inline counts', () => {
    assert.deepStrictEqual(Settings.from(raw({})), DEFAULTS);
  });

  test('configurations by class and name: each with a name of words and an expression; anything else left out', () => {
    const s = Settings.from(
      raw({
        configurations: {
          GPT: {
            medium: 'GPT(GPTConfig(n_layer=24))',
            'gpt2 xl+': 'GPT(GPTConfig(n_layer=48))',
            'a (b)': 'GPT()',
            'x via y': 'GPT()',
            empty: '  ',
            number: 7,
            [`long${'x'.repeat(64)}`]: 'GPT()',
          },
          'not a class': { small: 'GPT()' },
          Llama: ['Transformer()'],
        },
      }),
    );
    assert.deepStrictEqual(s.configurations, {
      GPT: [
        { name: 'medium', expression: 'GPT(GPTConfig(n_layer=24))' },
        { name: 'gpt2 xl+', expression: 'GPT(GPTConfig(n_layer=48))' },
      ],
    });
    assert.deepStrictEqual(Settings.from(raw({ configurations: 'GPT()' })).configurations, {});
  });

  test('each switch is read from its own key', () => {
    const s = Settings.from(
      raw({
        'hover.enabled': false,
        'codeLens.mode': 'classes',
        'diagnostics.enabled': false,
        'inlayHints.enabled': true,
        'inline.enabled': true,
      }),
    );
    assert.deepStrictEqual(s, {
      hover: false,
      codeLens: 'classes',
      diagnostics: false,
      inlayHints: true,
      inline: true,
      severity: {},
      sizing: DEFAULT_SIZING,
      configurations: {},
    });
  });

  test('a value that is not a boolean falls back to the default', () => {
    assert.deepStrictEqual(
      Settings.from(raw({ 'codeLens.enabled': 'false', 'inlayHints.enabled': 1, 'codeLens.mode': 'some' })),
      DEFAULTS,
    );
  });

  test('codeLens.enabled: false (0.1 settings) still turns every lens off, unless codeLens.mode is set', () => {
    // `get` returns the declared default "all" for the mode the user never set.
    assert.strictEqual(
      Settings.from(raw({ 'codeLens.enabled': false, 'codeLens.mode': 'all' }, ['codeLens.enabled'])).codeLens,
      'off',
    );
    assert.strictEqual(
      Settings.from(raw({ 'codeLens.enabled': false, 'codeLens.mode': 'classes' })).codeLens,
      'classes',
    );
    assert.strictEqual(Settings.from(raw({ 'codeLens.enabled': true, 'codeLens.mode': 'off' })).codeLens, 'off');
  });

  test('severity per code: known levels kept, anything else left out', () => {
    const s = Settings.from(
      raw({
        'diagnostics.severity': {
          'view-mismatch': 'warning',
          'zero-size': 'off',
          'feature-mismatch': 'fatal',
          'negative-size': 3,
        },
      }),
    );
    assert.deepStrictEqual(s.severity, { 'view-mismatch': 'warning', 'zero-size': 'off' });
    assert.deepStrictEqual(Settings.from(raw({ 'diagnostics.severity': ['warning'] })).severity, {});
    assert.deepStrictEqual(Settings.from(raw({ 'diagnostics.severity': 'warning' })).severity, {});
  });

  test('sizing: a storage type, an optimizer, a batch size and a sequence length', () => {
    const s = Settings.from(
      raw({
        'sizing.dtype': 'fp32',
        'sizing.optimizer': 'sgdMomentum',
        'sizing.batchSize': 8,
        'sizing.sequenceLength': 2048,
      }),
    );
    assert.deepStrictEqual(s.sizing, { dtype: 'fp32', optimizer: 'sgdMomentum', batch: 8, sequence: 2048 });
  });

  test('sizing: an unknown choice, or a size that is not a positive whole number, falls back to the default', () => {
    for (const bad of [0, -4, 1.5, '8', Number.NaN, 2 ** 60, null]) {
      const s = Settings.from(
        raw({
          'sizing.dtype': 'fp8',
          'sizing.optimizer': 'adam',
          'sizing.batchSize': bad,
          'sizing.sequenceLength': bad,
        }),
      );
      assert.deepStrictEqual(s.sizing, DEFAULT_SIZING, String(bad));
    }
  });

  test('placement: inline takes the layers from the CodeLens, and the models too when lenses are off', () => {
    const at = (codeLens: 'all' | 'classes' | 'off', inline: boolean) =>
      placement({ ...DEFAULTS, codeLens, inline } as Settings);
    assert.deepStrictEqual(at('all', false), {
      lens: { layers: true, models: true },
      inline: { layers: false, models: false },
    });
    assert.deepStrictEqual(at('classes', false), {
      lens: { layers: false, models: true },
      inline: { layers: false, models: false },
    });
    assert.deepStrictEqual(at('off', false), {
      lens: { layers: false, models: false },
      inline: { layers: false, models: false },
    });
    assert.deepStrictEqual(at('all', true), {
      lens: { layers: false, models: true },
      inline: { layers: true, models: false },
    });
    assert.deepStrictEqual(at('off', true), {
      lens: { layers: false, models: false },
      inline: { layers: true, models: true },
    });
  });
});

suite('the severity setting in the manifest', () => {
  test('lists every diagnostic code the CLI documents, with the levels Settings reads', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: {
        configuration: {
          properties: Record<
            string,
            { properties: Record<string, { enum: string[] }>; additionalProperties: { enum: string[] } }
          >;
        };
      };
    };
    const severity = manifest.contributes.configuration.properties['attentionLens.diagnostics.severity'];
    assert.deepStrictEqual(Object.keys(severity.properties).sort(), RULES.map((r) => r.id).sort());
    for (const p of [...Object.values(severity.properties), severity.additionalProperties])
      assert.deepStrictEqual(p.enum, SEVERITY_LEVELS);
  });
});
