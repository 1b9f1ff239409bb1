// What the webviews' scripts find in their page: the VS Code API, and what page.js shares with both panels.
// The messages are the extension's own types (src/vscode/webviewProtocol.ts).

type FromPanel =
  import('../src/vscode/webviewProtocol').FromWebview | import('../src/vscode/webviewProtocol').FromModelWebview;

interface WebviewApi {
  postMessage(message: FromPanel): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): WebviewApi;

/** A table cell: text, a node, or text with its exact digits on hover. */
type Cell = string | Node | { readonly text: string; readonly title?: string };

interface AttentionLensPage {
  readonly vscode: WebviewApi;
  el(tag: string, attrs?: Record<string, unknown>, ...children: unknown[]): HTMLElement;
  table(
    headers: readonly string[],
    rows: readonly (readonly Cell[] | { readonly chosen?: boolean; readonly cells: readonly Cell[] })[],
    numeric?: readonly number[],
    wide?: boolean,
  ): HTMLElement;
  /** A form control of the panel, by its id. */
  field(id: string): HTMLInputElement;
  section(title: string, ...children: unknown[]): HTMLElement;
  link(text: string, title: string, layer?: unknown): HTMLElement;
  header(name: string, source: Node | string): HTMLElement;
  copied(ok: boolean, what: string): void;
  showErrors(fields: readonly string[], errors: Readonly<Record<string, string | undefined>>): void;
}

interface Window {
  attentionLensPage: AttentionLensPage;
}
