/**
 * Providers wrapped so that a failure reaches the extension's log, never the user: the editor gets an
 * empty answer (no hover, no lens) instead of an error surface or a notification.
 */
import * as vscode from 'vscode';
import { hostTurns } from '../service/hostTurns';

/** `provider`: `run` waits for nothing but an analysis, and the turns it takes are timed (hostTurns). */
export function guarded<A extends unknown[], R>(
  log: vscode.LogOutputChannel,
  what: string,
  run: (...args: A) => R | Thenable<R>,
  fallback: R,
  provider = false,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await (provider ? hostTurns.timeAsync(what, async () => run(...args)) : run(...args));
    } catch (e) {
      log.error(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return fallback;
    }
  };
}

export function guardedHover(log: vscode.LogOutputChannel, p: vscode.HoverProvider): vscode.HoverProvider {
  return {
    provideHover: guarded(
      log,
      'hover',
      (d: vscode.TextDocument, at: vscode.Position, t: vscode.CancellationToken) => p.provideHover(d, at, t),
      undefined,
      true,
    ),
  };
}

export function guardedCodeLens(log: vscode.LogOutputChannel, p: vscode.CodeLensProvider): vscode.CodeLensProvider {
  return {
    onDidChangeCodeLenses: p.onDidChangeCodeLenses,
    provideCodeLenses: guarded(
      log,
      'CodeLens',
      (d: vscode.TextDocument, t: vscode.CancellationToken) => p.provideCodeLenses(d, t),
      [],
      true,
    ),
    ...(p.resolveCodeLens && {
      resolveCodeLens: guarded(
        log,
        'CodeLens',
        (lens: vscode.CodeLens, t: vscode.CancellationToken) => p.resolveCodeLens!(lens, t),
        undefined,
        true,
      ),
    }),
  };
}

export function guardedInlayHints(
  log: vscode.LogOutputChannel,
  what: string,
  p: vscode.InlayHintsProvider,
): vscode.InlayHintsProvider {
  return {
    onDidChangeInlayHints: p.onDidChangeInlayHints,
    provideInlayHints: guarded(
      log,
      what,
      (d: vscode.TextDocument, r: vscode.Range, t: vscode.CancellationToken) => p.provideInlayHints(d, r, t),
      [],
      true,
    ),
  };
}

export function guardedCodeActions(
  log: vscode.LogOutputChannel,
  p: vscode.CodeActionProvider,
): vscode.CodeActionProvider {
  return {
    provideCodeActions: guarded(
      log,
      'code actions',
      (
        d: vscode.TextDocument,
        r: vscode.Range | vscode.Selection,
        c: vscode.CodeActionContext,
        t: vscode.CancellationToken,
      ) => p.provideCodeActions(d, r, c, t),
      [],
      true,
    ),
  };
}
