/**
 * The page of the extension's webview panels: a strict CSP (nothing but the extension's own stylesheets and
 * scripts carrying a fresh nonce: the shared page.js, then the panel's own), no remote loads, and a root the
 * panel's script fills from typed messages.
 */
import { webcrypto } from 'crypto';
import * as vscode from 'vscode';

/** What a panel's webview may load: its own folder only. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}

export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: { readonly title: string; readonly styles: readonly string[]; readonly script: string },
): string {
  const nonce = Buffer.from(webcrypto.getRandomValues(new Uint8Array(18))).toString('base64');
  const media = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', file));
  // The title is ours, never the user's: it needs no escaping.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${page.styles.map((s) => `<link rel="stylesheet" href="${media(s)}">`).join('\n')}
<title>${page.title}</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${media('page.js')}"></script>
<script nonce="${nonce}" src="${media(page.script)}"></script>
</body>
</html>`;
}
