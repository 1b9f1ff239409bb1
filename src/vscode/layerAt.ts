/** The innermost layer definition under a position, shared by the hover and the commands. */
import type * as vscode from 'vscode';
import type { Analysis, LayerResult } from '../core/analysis/analyze';
import type { AnalysisService } from './documents';

export function layerAt(
  service: AnalysisService,
  doc: vscode.TextDocument,
  analysis: Analysis,
  position: vscode.Position,
): LayerResult | undefined {
  let best: LayerResult | undefined;
  for (const l of analysis.layers) {
    if (!service.range(doc, l.span).contains(position)) continue;
    if (!best || l.span.end - l.span.start < best.span.end - best.span.start) best = l;
  }
  return best;
}
