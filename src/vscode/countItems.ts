/**
 * The counts a file shows, one per layer call, model class and model built at module level, with what a
 * click on them opens. The CodeLens and the inline counts show the same items, worded the same way.
 */
import type * as vscode from 'vscode';
import { distinctConfigurations, inlineCount, lensTitle, moduleLensTitle, sizesText } from '../core/present/format';
import { lensText } from '../core/present/controls';
import type { Analysis } from '../core/analysis/analyze';
import type { AnalysisService } from './documents';
import { EXPLAIN_COMMAND, SHOW_DETAILS_COMMAND } from './commands';
import { CHOOSE_CONFIGURATION_COMMAND } from './configurationChoice';

/**
 * A count's place, and its words made when they are shown: a large file has hundreds of counts, of which the
 * editor shows a dozen (it resolves the lenses on screen and asks for the inline counts of the lines in view).
 */
export interface CountItem {
  readonly range: vscode.Range;
  readonly shown: () => ShownCount;
}

export interface ShownCount {
  readonly title: string;
  /** What an inline count shows: the count alone (the title is its tooltip). */
  readonly short: string;
  readonly command: vscode.Command;
}

type Span = Parameters<AnalysisService['range']>[1];

/** What a click on a count opens. */
type Opens = 'details' | 'explain' | 'configurations';

/** `words`: the title as written and the inline count. */
function item(
  service: AnalysisService,
  doc: vscode.TextDocument,
  span: Span,
  words: () => { written: string; short: string },
  opens: Opens,
  what: string,
): CountItem {
  const range = service.range(doc, span);
  return {
    range,
    shown: () => {
      const { written, short } = words();
      const title = lensText(written);
      const target = [doc.uri.toString(), range.start.line, range.start.character];
      // An attention layer (or attention written by hand) opens its walkthrough, a class built in several
      // configurations the choice of the one shown; the rest open their details in the hover.
      const command: vscode.Command =
        opens === 'explain'
          ? { title, command: EXPLAIN_COMMAND, arguments: [target], tooltip: 'Explain attention shapes' }
          : opens === 'configurations'
            ? {
                title,
                command: CHOOSE_CONFIGURATION_COMMAND,
                arguments: [target],
                tooltip: 'Choose the configuration shown, or count it with sizes of your own',
              }
            : { title, command: SHOW_DETAILS_COMMAND, arguments: [doc.uri, range.start], tooltip: what };
      return { title, short: lensText(short), command };
    },
  };
}

/**
 * Each model class (its total with default arguments, or as the file's models build it when it needs
 * arguments) and each model built at module level.
 */
export function modelItems(service: AnalysisService, doc: vscode.TextDocument, analysis: Analysis): CountItem[] {
  return [
    ...analysis.modules.map((m) => {
      const summary = m.built?.summary ?? m.summary;
      const configurations = distinctConfigurations(m.configurations).length;
      return item(
        service,
        doc,
        m.span,
        () => ({
          written: moduleLensTitle(
            summary,
            m.built && { name: m.name, context: m.built.context },
            m.attention?.summary,
            configurations,
            analysis.configurationsCut,
            m.sizes,
          ),
          short: inlineCount(summary.params?.constant, m.sizes?.totals),
        }),
        // A class that needs arguments and has no count opens the choice too, to count it with sizes of one's own.
        configurations > 1 || (!summary.params && summary.reason?.startsWith('needs arguments'))
          ? 'configurations'
          : m.attention
            ? 'explain'
            : 'details',
        'Show what the model is made of',
      );
    }),
    // A configuration the user chose stands at its class, whose lens already counts it.
    ...analysis.instances
      .filter((i) => !i.configuration)
      .map((i) =>
        item(
          service,
          doc,
          i.span,
          () => ({
            written: `${i.className}: ${i.totals ? `${sizesText(i.totals)} params` : moduleLensTitle(i.summary)}`,
            short: inlineCount(i.summary.params?.constant, i.totals),
          }),
          'details',
          'Show what the model is made of',
        ),
      ),
  ];
}

/** Each layer call: `1,050,624 params · 8 heads × 64`. */
export function layerItems(service: AnalysisService, doc: vscode.TextDocument, analysis: Analysis): CountItem[] {
  return analysis.layers.map((l) =>
    item(
      service,
      doc,
      l.span,
      () => {
        const errors = l.findings.filter((f) => f.severity === 'error');
        const short = errors.length
          ? `✖ ${errors.map((f) => f.code).join(', ')}`
          : inlineCount(
              l.layer.params?.constant,
              l.values.map((v) => v.params.constant!),
              l.layer.formula,
            );
        return { written: lensTitle(l), short };
      },
      l.layer.attention ? 'explain' : 'details',
      'Show the parameter tensors',
    ),
  );
}
