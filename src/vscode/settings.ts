/** The extension's settings as one typed object, read for a document's language (they are language-overridable). */
export interface Settings {
  readonly hover: boolean;
  readonly codeLens: boolean;
  readonly diagnostics: boolean;
  readonly inlayHints: boolean;
}

export const SECTION = 'attentionLens';

/** What `workspace.getConfiguration(SECTION, scope)` returns, reduced to what is read here. */
export type RawSettings = { get(key: string): unknown };

const DEFAULTS: Settings = { hover: true, codeLens: true, diagnostics: true, inlayHints: false };

const flag = (raw: RawSettings, key: string, fallback: boolean) => {
  const value = raw.get(key);
  // A hand-edited settings file can hold anything: only a boolean counts.
  return typeof value === 'boolean' ? value : fallback;
};

export const Settings = {
  from(raw: RawSettings): Settings {
    return {
      hover: flag(raw, 'hover.enabled', DEFAULTS.hover),
      codeLens: flag(raw, 'codeLens.enabled', DEFAULTS.codeLens),
      diagnostics: flag(raw, 'diagnostics.enabled', DEFAULTS.diagnostics),
      inlayHints: flag(raw, 'inlayHints.enabled', DEFAULTS.inlayHints),
    };
  },
};
