/**
 * Characters from the user's file that would act instead of showing: C0 controls (but tab and newline), DEL
 * and C1 (a terminal runs them as escape sequences: erase a line, write the clipboard, open a link), and the
 * invisible and bidirectional formatting marks that reorder or hide text (Trojan Source). Every surface that
 * shows text from the file shows these as `\u{202e}`.
 */
const ACTING =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function visibleControls(text: string): string {
  return text.replace(ACTING, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** A CodeLens title: `$(name)` there draws an icon, so one written in the file (a config key) is shown as text. */
export function lensText(title: string): string {
  return visibleControls(title).replace(/\$\(/g, '\\$(');
}

/** Every string inside a plain-data message, with its controls made visible: what a webview shows as text. */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'string') return visibleControls(value) as T;
  if (Array.isArray(value)) return value.map(visibleStrings) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleStrings(v)])) as T;
  }
  return value;
}
