/**
 * The counts a file shows, one per layer call, model class and model built at module level, with what a
 * click on them opens. The CodeLens and the inline counts show the same items, worded the same way.
 */
import type * as vscode from 'vscode';
import { lensTitle, moduleLensTitle, sizesText } from '../core/format';
import { lensText } from '../core/controls';
import type { Analysis } from '../core/analysis';
import type { AnalysisService } from './documents';
import { EXPLAIN_COMMAND, SHOW_DETAILS_COMMAND } from './commands';

export interface CountItem {
  readonly range: vscode.Range;
  readonly title: string;
  readonly command: vscode.Command;
}

type Span = Parameters<AnalysisService['range']>[1];

function item(service: AnalysisService, doc: vscode.TextDocument, span: Span, written: string, explains: boolean, what: string): CountItem {
  const range = service.range(doc, span);
  const title = lensText(written);
  // An attention layer (or attention written by hand) opens its walkthrough; the rest open their details in the hover.
  const command: vscode.Command = explains
    ? { title, command: EXPLAIN_COMMAND, arguments: [[doc.uri.toString(), range.start.line, range.start.character]], tooltip: 'Explain attention shapes' }
    : { title, command: SHOW_DETAILS_COMMAND, arguments: [doc.uri, range.start], tooltip: what };
  return { range, title, command };
}

/**
 * Each model class (its total with default arguments, or as the file's models build it when it needs
 * arguments) and each model built at module level.
 */
export function modelItems(service: AnalysisService, doc: vscode.TextDocument, analysis: Analysis): CountItem[] {
  return [
    ...analysis.modules.map((m) => item(service, doc, m.span, moduleLensTitle(m.built?.summary ?? m.summary, m.built && { name: m.name, context: m.built.context }, m.attention?.summary), m.attention !== undefined, 'Show what the model is made of')),
    ...analysis.instances.map((i) => item(service, doc, i.span, `${i.className}: ${i.totals ? `${sizesText(i.totals)} params` : moduleLensTitle(i.summary)}`, false, 'Show what the model is made of')),
  ];
}

/** Each layer call: `1,050,624 params · 8 heads × 64`. */
export function layerItems(service: AnalysisService, doc: vscode.TextDocument, analysis: Analysis): CountItem[] {
  return analysis.layers.map((l) => item(service, doc, l.span, lensTitle(l), l.layer.attention !== undefined, 'Show the parameter tensors'));
}
