/** The extension's settings as one typed object, read for a document's language (they are language-overridable). */
import { DEFAULT_SIZING, OPTIMIZERS, WEIGHT_DTYPES, type SizingOptions } from '../core/memory';

export interface Settings {
  readonly hover: boolean;
  readonly codeLens: boolean;
  readonly diagnostics: boolean;
  readonly inlayHints: boolean;
  /** What a model's sizing is given for: storage type, optimizer, batch size and sequence length. */
  readonly sizing: SizingOptions;
}

export const SECTION = 'attentionLens';

/** What `workspace.getConfiguration(SECTION, scope)` returns, reduced to what is read here. */
export type RawSettings = { get(key: string): unknown };

const DEFAULTS: Settings = { hover: true, codeLens: true, diagnostics: true, inlayHints: false, sizing: DEFAULT_SIZING };

const flag = (raw: RawSettings, key: string, fallback: boolean) => {
  const value = raw.get(key);
  // A hand-edited settings file can hold anything: only a boolean counts.
  return typeof value === 'boolean' ? value : fallback;
};

const choice = <T extends string>(raw: RawSettings, key: string, options: readonly T[], fallback: T): T => {
  const value = raw.get(key);
  return options.includes(value as T) ? (value as T) : fallback;
};

/** Only a positive whole number counts (`0`, `1.5`, `"8"` fall back). */
const count = (raw: RawSettings, key: string, fallback: number) => {
  const value = raw.get(key);
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback;
};

export const Settings = {
  from(raw: RawSettings): Settings {
    const sizing = DEFAULTS.sizing;
    return {
      hover: flag(raw, 'hover.enabled', DEFAULTS.hover),
      codeLens: flag(raw, 'codeLens.enabled', DEFAULTS.codeLens),
      diagnostics: flag(raw, 'diagnostics.enabled', DEFAULTS.diagnostics),
      inlayHints: flag(raw, 'inlayHints.enabled', DEFAULTS.inlayHints),
      sizing: {
        dtype: choice(raw, 'sizing.dtype', WEIGHT_DTYPES, sizing.dtype),
        optimizer: choice(raw, 'sizing.optimizer', OPTIMIZERS, sizing.optimizer),
        batch: count(raw, 'sizing.batchSize', sizing.batch),
        sequence: count(raw, 'sizing.sequenceLength', sizing.sequence),
      },
    };
  },
};
