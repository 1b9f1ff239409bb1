/**
 * Everything the product prints for one analysis, built the way each surface builds it: the CLI's text and
 * JSON (through its own formatters, in this process), the CodeLens titles, the hovers and the Markdown the
 * Explain panels copy. The fuzz checks read these strings, never the analysis, so that a figure that is
 * right inside but printed wrong is caught.
 */
import type { Analysis } from '../../src/core/analysis/analyze';
import { attentionLayers } from '../../src/core/analysis/analyze';
import { lensText } from '../../src/core/present/controls';
import { explain } from '../../src/core/present/explain';
import { explainMarkdown } from '../../src/core/present/explainMarkdown';
import {
  attentionHoverMarkdown,
  hoverMarkdown,
  lensTitle,
  moduleHoverMarkdown,
  moduleLensTitle,
  sizesText,
} from '../../src/core/present/format';
import { DEFAULT_SIZING } from '../../src/core/sizing/memory';
import { modelMarkdown } from '../../src/core/present/modelMarkdown';
import { modelPanel } from '../../src/core/present/modelPanel';
import { partHoverMarkdown } from '../../src/core/present/partHover';
import { shortHoverMarkdown } from '../../src/core/present/shortHover';
import { sizingMarkdown } from '../../src/core/present/sizingText';
import type { Language } from '../../src/core/ir/source';
import { outputOf, runOutput, type OutputSettings } from '../../src/cli/fileOutput';
import { plainText } from '../../src/cli/place';
import type { FileReport } from '../../src/cli/report';
import { PARSE_GAVE_UP } from '../../src/syntax/parser';

export interface Printed {
  /** The CLI's default output, without colour (as in a pipe). */
  readonly text: string;
  readonly json: string;
  readonly lenses: readonly string[];
  /** Hovers (short and full), and the Markdown of the Explain panels. */
  readonly markdown: readonly string[];
}

/** `analysis` undefined: the file was refused (the parser gave up on it), as the CLI reports it. */
export function printed(path: string, language: Language, analysis: Analysis | undefined): Printed {
  const report: FileReport = analysis
    ? { path, language, analysis, locate: plainText }
    : { path, language, error: `not analysed: ${PARSE_GAVE_UP}` };
  const settings: OutputSettings = { format: 'text', sizing: DEFAULT_SIZING, colour: false, chosen: [] };
  const text = runOutput([outputOf(report, settings)], settings, [], 0, 'test');
  const json = runOutput(
    [outputOf(report, { ...settings, format: 'json' })],
    { ...settings, format: 'json' },
    [],
    0,
    'test',
  );
  if (!analysis) return { text, json, lenses: [], markdown: [] };
  return { text, json, lenses: lensTitles(analysis), markdown: markdownOf(analysis, path) };
}

/** As src/vscode/countItems.ts words them (it needs the vscode module, so it cannot be called here). */
function lensTitles(a: Analysis): string[] {
  return [
    ...a.layers.map((l) => lensTitle(l)),
    ...a.modules.map((m) =>
      moduleLensTitle(
        m.built?.summary ?? m.summary,
        m.built && { name: m.name, context: m.built.context },
        m.attention?.summary,
      ),
    ),
    ...a.instances.map(
      (i) => `${i.className}: ${i.totals ? `${sizesText(i.totals)} params` : moduleLensTitle(i.summary)}`,
    ),
  ].map(lensText);
}

/** As src/vscode/hover.ts and the panels build them. */
function markdownOf(a: Analysis, path: string): string[] {
  const out: string[] = [];
  for (const l of a.layers) {
    const name = `nn.${l.layer.kind}`;
    out.push(shortHoverMarkdown(l.layer, name, l.values), hoverMarkdown(l.layer, name, l.values));
  }
  for (const m of a.modules) {
    out.push(moduleHoverMarkdown(m.name, m.built?.summary ?? m.summary, m.built?.context));
    if (m.attention) out.push(attentionHoverMarkdown(m.attention));
  }
  for (const i of a.instances) {
    out.push(moduleHoverMarkdown(i.className, i.summary, undefined, true));
    if (i.sizing)
      out.push(
        sizingMarkdown(i.sizing, DEFAULT_SIZING),
        modelMarkdown(modelPanel(i.className, `${path}:${i.span.startLine + 1}`, i.sizing, DEFAULT_SIZING)),
      );
  }
  for (const p of a.parts) out.push(partHoverMarkdown(p));
  for (const l of attentionLayers(a)) {
    const data = explain(l.layer, `${path}:${l.span.startLine + 1}`);
    if (data) out.push(explainMarkdown(data));
  }
  return out;
}
