/** Hover on a layer call: the count, its formula, the parameter tensors and what they mean. */
import * as vscode from 'vscode';
import { attentionHoverMarkdown, hoverMarkdown, moduleHoverMarkdown, sizingMarkdown } from '../core/format';
import { DEFAULT_SIZING, type SizingOptions } from '../core/memory';
import type { AnalysisService } from './documents';
import { layerAt } from './layerAt';
import { EXPLAIN_COMMAND } from './commands';

const QUALIFIERS = { pytorch: 'nn.', tfjs: 'tf.layers.', 'js-pytorch': 'nn.' } as const;

export class LayerHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly service: AnalysisService,
    /** Whether the surface is on for this document's language. */
    private readonly enabled: (doc: vscode.TextDocument) => boolean,
    /** What a model's sizing is given for, from the settings. */
    private readonly sizing: (doc: vscode.TextDocument) => SizingOptions = () => DEFAULT_SIZING,
  ) {}

  async provideHover(doc: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (!this.enabled(doc)) return undefined;
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return undefined;
    const model = analysis.modules.find((m) => this.service.range(doc, m.span).contains(position));
    if (model) {
      const md = new vscode.MarkdownString(moduleHoverMarkdown(model.name, model.built?.summary ?? model.summary, model.built?.context));
      if (model.attention) {
        md.appendMarkdown(`\n\n${attentionHoverMarkdown(model.attention)}`);
        this.explainLink(md, doc, model.span);
      }
      return new vscode.Hover(md, this.service.range(doc, model.span));
    }
    const instance = analysis.instances.find((i) => this.service.range(doc, i.span).contains(position) && i.sizing);
    if (instance?.sizing) {
      const md = new vscode.MarkdownString(`${moduleHoverMarkdown(instance.className, instance.summary, undefined, true)}\n\n${sizingMarkdown(instance.sizing, this.sizing(doc))}`);
      return new vscode.Hover(md, this.service.range(doc, instance.span));
    }
    const hit = layerAt(this.service, doc, analysis, position);
    if (!hit) return undefined;
    // The models that build the layer, when its count comes from them or differs between them.
    const built = hit.context !== undefined || hit.values.length > 1 ? hit.values : [];
    const md = new vscode.MarkdownString(hoverMarkdown(hit.layer, `${QUALIFIERS[hit.layer.framework]}${hit.layer.kind}`, built));
    if (hit.layer.attention) this.explainLink(md, doc, hit.span);
    return new vscode.Hover(md, this.service.range(doc, hit.span));
  }

  private explainLink(md: vscode.MarkdownString, doc: vscode.TextDocument, span: Parameters<AnalysisService['range']>[1]): void {
    // Command links spread a JSON array into arguments: the command takes one [uri, line, character].
    const start = this.service.range(doc, span).start;
    const args = encodeURIComponent(JSON.stringify([[doc.uri.toString(), start.line, start.character]]));
    md.appendMarkdown(`\n\n[Explain attention shapes](command:${EXPLAIN_COMMAND}?${args})`);
    md.isTrusted = { enabledCommands: [EXPLAIN_COMMAND] };
  }
}
