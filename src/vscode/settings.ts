/** The extension's settings as one typed object, read for a document's language (they are language-overridable). */
import { DEFAULT_SIZING, OPTIMIZERS, WEIGHT_DTYPES, type SizingOptions } from '../core/sizing/memory';
import type { NamedConfiguration } from '../syntax/ownConfigurations';

export interface Settings {
  readonly hover: boolean;
  /** Which CodeLenses show: on every layer and model, on models (classes and instances) only, or none. */
  readonly codeLens: LensMode;
  readonly diagnostics: boolean;
  readonly inlayHints: boolean;
  /** Counts at the end of their lines (inlay hints) instead of layer CodeLenses. */
  readonly inline: boolean;
  /** A severity per diagnostic code, overriding the framework's own; `off` hides the code. */
  readonly severity: Readonly<Record<string, SeverityLevel>>;
  /** What a model's sizing is given for: storage type, optimizer, batch size and sequence length. */
  readonly sizing: SizingOptions;
  /** Configurations named per model class (`{ "GPT": { "medium": "GPT(GPTConfig(n_layer=24))" } }`). */
  readonly configurations: Readonly<Record<string, readonly NamedConfiguration[]>>;
}

export type LensMode = 'all' | 'classes' | 'off';
export const LENS_MODES: readonly LensMode[] = ['all', 'classes', 'off'];
export type SeverityLevel = 'error' | 'warning' | 'information' | 'hint' | 'off';
export const SEVERITY_LEVELS: readonly SeverityLevel[] = ['error', 'warning', 'information', 'hint', 'off'];

export const SECTION = 'attentionLens';

/** Where a key is set, as `WorkspaceConfiguration.inspect` tells it. */
type Inspected = Partial<Record<(typeof SET_BY_USER)[number], unknown>>;
/** The places a user sets a value in; defaults, the extension's own or per language, are not among them. */
const SET_BY_USER = [
  'globalValue',
  'workspaceValue',
  'workspaceFolderValue',
  'globalLanguageValue',
  'workspaceLanguageValue',
  'workspaceFolderLanguageValue',
] as const;

/** What `workspace.getConfiguration(SECTION, scope)` returns, reduced to what is read here. */
export type RawSettings = { get(key: string): unknown; inspect?(key: string): Inspected | undefined };

const DEFAULTS: Settings = {
  hover: true,
  codeLens: 'all',
  diagnostics: true,
  inlayHints: false,
  inline: false,
  severity: {},
  sizing: DEFAULT_SIZING,
  configurations: {},
};

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

/** Whether the user set `key` anywhere (user, workspace, folder, a language override), not only its default. */
function isSet(raw: RawSettings, key: string): boolean {
  const where = raw.inspect?.(key);
  return where !== undefined && SET_BY_USER.some((k) => where[k] !== undefined);
}

/**
 * `codeLens.mode` when it is set; else the older `codeLens.enabled: false` still turns every lens off, so a
 * settings file written for 0.1 keeps working.
 */
function lensMode(raw: RawSettings): LensMode {
  const mode = raw.get('codeLens.mode');
  const valid = LENS_MODES.includes(mode as LensMode) ? (mode as LensMode) : DEFAULTS.codeLens;
  if (isSet(raw, 'codeLens.mode')) return valid;
  return raw.get('codeLens.enabled') === false ? 'off' : valid;
}

/** `{ "view-mismatch": "warning" }`: entries with a level this extension knows; anything else is left out. */
function severities(raw: RawSettings): Record<string, SeverityLevel> {
  const value = raw.get('diagnostics.severity');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, SeverityLevel> = {};
  for (const [code, level] of Object.entries(value))
    if (SEVERITY_LEVELS.includes(level as SeverityLevel)) out[code] = level as SeverityLevel;
  return out;
}

/**
 * A configuration's name: words of letters, digits, `_`, `.`, `+` and `-`, at most 64 characters. It names the
 * model in contexts (`in medium via Block`), where brackets and `via` have meanings of their own.
 */
const NAME = /^[\w.+-]+(?: [\w.+-]+)*$/;

/** `{ "GPT": { "medium": "GPT(...)" } }`: the entries with a class name, a name and an expression; others left out. */
function configurations(raw: RawSettings): Record<string, NamedConfiguration[]> {
  const value = raw.get('configurations');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, NamedConfiguration[]> = {};
  for (const [cls, named] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[A-Za-z_]\w*$/.test(cls) || !named || typeof named !== 'object' || Array.isArray(named)) continue;
    const listed = Object.entries(named as Record<string, unknown>).flatMap(([name, expression]) =>
      typeof expression === 'string' && expression.trim() && name.length <= 64 && NAME.test(name) && !/ via /.test(name)
        ? [{ name, expression }]
        : [],
    );
    if (listed.length) out[cls] = listed;
  }
  return out;
}

export const Settings = {
  from(raw: RawSettings): Settings {
    return {
      hover: flag(raw, 'hover.enabled', DEFAULTS.hover),
      codeLens: lensMode(raw),
      diagnostics: flag(raw, 'diagnostics.enabled', DEFAULTS.diagnostics),
      inlayHints: flag(raw, 'inlayHints.enabled', DEFAULTS.inlayHints),
      inline: flag(raw, 'inline.enabled', DEFAULTS.inline),
      severity: severities(raw),
      sizing: {
        dtype: choice(raw, 'sizing.dtype', WEIGHT_DTYPES, DEFAULTS.sizing.dtype),
        optimizer: choice(raw, 'sizing.optimizer', OPTIMIZERS, DEFAULTS.sizing.optimizer),
        batch: count(raw, 'sizing.batchSize', DEFAULTS.sizing.batch),
        sequence: count(raw, 'sizing.sequenceLength', DEFAULTS.sizing.sequence),
      },
      configurations: configurations(raw),
    };
  },
};

/** Where counts go: above their lines (CodeLens), at the end of them (inline), or nowhere; layers and models apart. */
export interface Placement {
  readonly lens: { readonly layers: boolean; readonly models: boolean };
  readonly inline: { readonly layers: boolean; readonly models: boolean };
}

/**
 * Inline moves the layers' counts to the end of their lines (a count shown twice is noise), and the models'
 * too when CodeLenses are off; with CodeLenses on models, those stay above their class.
 */
export function placement(s: Settings): Placement {
  return {
    lens: { layers: s.codeLens === 'all' && !s.inline, models: s.codeLens !== 'off' },
    inline: { layers: s.inline, models: s.inline && s.codeLens === 'off' },
  };
}
