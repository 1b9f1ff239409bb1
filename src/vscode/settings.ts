/** The extension's settings as one typed object, read once per change of configuration. */
export interface Settings {
  readonly hover: boolean;
  readonly codeLens: boolean;
  readonly diagnostics: boolean;
  readonly inlayHints: boolean;
}

export const SECTION = 'attentionLens';

type Raw = { get<T>(key: string): T | undefined };

export function settingsFrom(raw: Raw): Settings {
  return {
    hover: raw.get<boolean>('hover.enabled') ?? true,
    codeLens: raw.get<boolean>('codeLens.enabled') ?? true,
    diagnostics: raw.get<boolean>('diagnostics.enabled') ?? true,
    inlayHints: raw.get<boolean>('inlayHints.enabled') ?? false,
  };
}
