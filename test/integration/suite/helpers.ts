// Shared helpers for the integration suite. Everything goes through VS Code's public API and its
// built-in `vscode.execute*Provider` commands, i.e. what the editor itself asks the extension for.
import * as assert from 'assert';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'attention-lens.attention-lens';
export const SOURCE = 'attention-lens';
/** Generous: the first request may wait for the extension to load its tree-sitter grammars. */
export const WAIT_MS = 20000;

export function workspaceUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder must be open');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openFile(name: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(workspaceUri(name));
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** Position of the `nth` occurrence of `needle` (plus `offset` characters) in the document. */
export function positionOf(doc: vscode.TextDocument, needle: string, offset = 0, nth = 0): vscode.Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = doc.getText().indexOf(needle, at + 1);
    assert.ok(at >= 0, `"${needle}" (#${i}) not found in ${doc.uri.path}`);
  }
  return doc.positionAt(at + offset);
}

/** Range covering the first occurrence of `needle`. */
export function rangeOf(doc: vscode.TextDocument, needle: string): vscode.Range {
  const start = positionOf(doc, needle);
  return new vscode.Range(start, start.translate(0, needle.length));
}

export function fmtRange(r: vscode.Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** All hover markdown at `pos`, joined, raw: with the backslash escapes of text that came from the file. */
export async function hoverMarkdown(uri: vscode.Uri, pos: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
  return (hovers ?? []).map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n')).join('\n');
}

/** The hover text at `pos` as the editor shows it: backslash-escaped punctuation reads as itself. */
export async function hoverText(uri: vscode.Uri, pos: vscode.Position): Promise<string> {
  return (await hoverMarkdown(uri, pos)).replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** `resolve`: how many lenses, from the top, get their titles, as the editor resolves those it shows. */
export async function codeLenses(uri: vscode.Uri, resolve = 100): Promise<vscode.CodeLens[]> {
  return (
    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, resolve)) ?? []
  );
}

/** `line: title` for each lens, sorted, as a readable and exact value to compare. */
export async function lensTitles(uri: vscode.Uri, resolve?: number): Promise<string[]> {
  return (await codeLenses(uri, resolve))
    .map((l) => `${l.range.start.line}: ${l.command?.title ?? '(unresolved)'}`)
    .sort();
}

export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

/** A compact, exact description of a diagnostic, to compare whole lists in one assertion. */
export function describe(d: vscode.Diagnostic): string {
  return `${codeOf(d)} ${fmtRange(d.range)} ${vscode.DiagnosticSeverity[d.severity]}`;
}

/**
 * Resolves with this extension's diagnostics for `uri` once `until` holds for them, driven by
 * languages.onDidChangeDiagnostics (no sleeping). On timeout it resolves with what is there, so
 * that the caller's assertion reports the observed value instead of a bare timeout.
 */
export function waitForDiagnostics(
  uri: vscode.Uri,
  until: (ds: vscode.Diagnostic[]) => boolean,
  timeoutMs = WAIT_MS,
): Promise<vscode.Diagnostic[]> {
  const now = ours(uri);
  if (until(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const key = uri.toString();
    const finish = () => {
      sub.dispose();
      clearTimeout(timer);
      resolve(ours(uri));
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === key) && until(ours(uri))) finish();
    });
    const timer = setTimeout(finish, timeoutMs);
  });
}

/**
 * For surfaces that have no change event the test can observe (hover, lens after a setting
 * change): asks again every 100 ms until `until` holds or the time is up, then returns the last
 * answer for the caller to assert on.
 */
export async function poll<T>(ask: () => Thenable<T> | T, until: (v: T) => boolean, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await ask();
    if (until(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until `ask` gives the same answer (the same object) for `quietMs`: work still on its way (a panel's
 * refresh after an analysis) has arrived, and will not replace what the test does next.
 */
export async function settled<T>(ask: () => T, quietMs = 500, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = ask();
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const now = ask();
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
  return last;
}

/** Resolves when VS Code reports the document closed (it can be reopened by reference later). */
export function documentClosed(uri: vscode.Uri, timeoutMs = WAIT_MS): Promise<boolean> {
  const key = uri.toString();
  if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const sub = vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.toString() === key) {
        sub.dispose();
        clearTimeout(timer);
        resolve(true);
      }
    });
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(false);
    }, timeoutMs);
  });
}

/** Throws away unsaved edits so that fixture files on disk are never changed by the suite. */
export async function revert(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.strictEqual(doc.isDirty, false, `${doc.uri.path} is still dirty after revert`);
}

export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
  return ext;
}

/** Types `text` into the active editor one key at a time, as a user does (auto-closing brackets included). */
export async function typeKeys(text: string): Promise<void> {
  for (const ch of text) await vscode.commands.executeCommand('type', { text: ch });
}
