/**
 * The messages between the extension and its two webviews (the Explain panel, media/explain.js; the model
 * sizing panel, media/model.js). Types only: the webviews' scripts check their messages against these
 * (`// @ts-check`, `npm run check`), so that a field renamed on one side fails on the other.
 */
import type { ExplainData } from '../core/present/explain';
import type { InputErrors } from '../core/sizing/explainInputs';
import type { ModelInputErrors } from '../core/sizing/modelInputs';
import type { ActivationRow, ModelPanelData } from '../core/present/modelPanel';

/** Where a panel's layer or model is: the document, and its place (0-based). */
export interface Target {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
}

/** Messages from the Explain panel: the sizes come as typed (strings), and are checked by the extension. */
export type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'inputs'; readonly inputs: unknown }
  | { readonly type: 'copy' }
  | { readonly type: 'reveal' };

/** What the Explain panel shows: the walkthrough, or why there is none. */
export type ExplainView =
  | { readonly type: 'explain'; readonly data: ExplainData; readonly target: Target }
  | { readonly type: 'none'; readonly reason: string };

/** Messages to the Explain panel: a view, the sizes that were refused and why, whether Copy as Markdown copied. */
export type ToWebview =
  | ExplainView
  | { readonly type: 'invalid'; readonly errors: InputErrors }
  | { readonly type: 'copied'; readonly ok: boolean };

/** Messages from the model sizing panel; `layer` is a row's place, checked by the extension. */
export type FromModelWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'inputs'; readonly inputs: unknown }
  | { readonly type: 'copy' }
  | { readonly type: 'reveal'; readonly layer?: unknown };

/** A layer of the activations as the webview gets it: its 1-based line instead of a span, when it has one. */
export type LayerView = Omit<ActivationRow, 'at'> & { readonly line?: number };
export type ModelView = Omit<ModelPanelData, 'activations'> & {
  readonly activations: {
    readonly total: ModelPanelData['activations']['total'];
    readonly layers: readonly LayerView[];
  };
};

export type ModelPanelView =
  | { readonly type: 'model'; readonly data: ModelView; readonly target: Target }
  | { readonly type: 'none'; readonly reason: string };

export type ToModelWebview =
  | ModelPanelView
  | { readonly type: 'invalid'; readonly errors: ModelInputErrors }
  | { readonly type: 'copied'; readonly ok: boolean };
