/**
 * Hovers: on a layer call, a model class, a model built at module level, and a call building one of the
 * file's model classes inside another (`self.attn = CausalSelfAttention(config)`). Short by default (the
 * count, the formula, the tensors, one line per fact); "More" shows the notes that teach what they mean,
 * and "Explain attention shapes" opens the walkthrough.
 */
import * as vscode from 'vscode';
import {
  attentionHoverMarkdown,
  configurationsMarkdown,
  hoverMarkdown,
  moduleHoverMarkdown,
  sizingMarkdown,
  sizesMarkdown,
} from '../core/present/format';
import { DEFAULT_SIZING, type SizingOptions } from '../core/sizing/memory';
import { hasMore, withFactsOnly } from '../core/present/hoverFacts';
import { partHoverMarkdown } from '../core/present/partHover';
import { shortHoverMarkdown } from '../core/present/shortHover';
import type { Analysis, LayerResult, PartResult } from '../core/analysis/analyze';
import type { AnalysisService } from './documents';
import { layerAt } from './layerAt';
import { CHOOSE_CONFIGURATION_COMMAND } from './configurationChoice';
import { EXPLAIN_COMMAND, EXPLAIN_MODEL_COMMAND, MORE_COMMAND } from './commands';

const QUALIFIERS = { pytorch: 'nn.', tfjs: 'tf.layers.', 'js-pytorch': 'nn.' } as const;

type Span = Parameters<AnalysisService['range']>[1];

export class LayerHoverProvider implements vscode.HoverProvider {
  /** The item whose next hover is the full one (`uri#line:character` of its start), after a click on "More". */
  private expanded: string | undefined;

  constructor(
    private readonly service: AnalysisService,
    /** Whether the surface is on for this document's language. */
    private readonly enabled: (doc: vscode.TextDocument) => boolean,
    /** What a model's sizing is given for, from the settings. */
    private readonly sizing: (doc: vscode.TextDocument) => SizingOptions = () => DEFAULT_SIZING,
  ) {}

  /** The hover on the item starting at `start` shows everything, until a hover elsewhere. */
  expand(uri: string, start: vscode.Position): void {
    this.expanded = `${uri}#${start.line}:${start.character}`;
  }

  async provideHover(
    doc: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (!this.enabled(doc)) return undefined;
    const analysis = await this.service.analysis(doc);
    if (!analysis || token.isCancellationRequested) return undefined;
    const contains = (span: Span) => this.service.range(doc, span).contains(position);
    const model = analysis.modules.find((m) => contains(m.span));
    if (model) {
      const full = this.isExpanded(doc, model.span);
      const md = new vscode.MarkdownString(
        moduleHoverMarkdown(model.name, model.built?.summary ?? model.summary, model.built?.context),
      );
      if (model.sizes) md.appendMarkdown(`\n\n${sizesMarkdown(model.sizes)}`);
      const configurations = configurationsMarkdown(model.configurations, analysis.configurationsCut);
      if (configurations) md.appendMarkdown(`\n\n${configurations}`);
      if (model.attention)
        md.appendMarkdown(`\n\n${attentionHoverMarkdown(full ? model.attention : withFactsOnly(model.attention))}`);
      // The class's sizes are names: its sizing is that of the configuration chosen for it, else of the first
      // model the file builds of it.
      const sized =
        analysis.instances.find((i) => i.className === model.name && i.configuration && i.sizing) ??
        analysis.instances.find((i) => i.className === model.name && i.sizing);
      this.links(md, doc, model.span, {
        explains: model.attention !== undefined,
        more: !full && model.attention !== undefined && hasMore(model.attention),
        model: sized && this.service.range(doc, sized.span).start,
        // A class with configurations, or one that needs arguments: the choice, or sizes of one's own.
        configurations:
          (model.configurations?.length ?? 0) > 1 ||
          (!model.built && model.summary.reason?.startsWith('needs arguments') === true),
      });
      return new vscode.Hover(md, this.service.range(doc, model.span));
    }
    const instance = analysis.instances.find((i) => contains(i.span));
    if (instance) {
      if (!instance.sizing)
        return new vscode.Hover(
          new vscode.MarkdownString(moduleHoverMarkdown(instance.className, instance.summary, undefined, true)),
          this.service.range(doc, instance.span),
        );
      // The sizing panel's link under the title: below the children and the sizing it would need scrolling.
      const [title, ...rest] = moduleHoverMarkdown(instance.className, instance.summary, undefined, true, false).split(
        '\n\n',
      );
      const md = new vscode.MarkdownString(title);
      this.links(md, doc, instance.span, {
        explains: false,
        more: false,
        model: this.service.range(doc, instance.span).start,
      });
      md.appendMarkdown(
        `\n\n${[...rest.filter((r) => r.trim()), sizingMarkdown(instance.sizing, this.sizing(doc))].join('\n\n')}`,
      );
      return new vscode.Hover(md, this.service.range(doc, instance.span));
    }
    const hit = innermost(
      layerAt(this.service, doc, analysis, position),
      analysis.parts.filter((p) => contains(p.span)),
    );
    if (!hit) return undefined;
    if ('className' in hit)
      return new vscode.Hover(
        new vscode.MarkdownString(this.partMarkdown(analysis, hit)),
        this.service.range(doc, hit.span),
      );
    return this.layerHover(doc, hit);
  }

  private layerHover(doc: vscode.TextDocument, hit: LayerResult): vscode.Hover {
    const full = this.isExpanded(doc, hit.span);
    // The models that build the layer, when its count comes from them or differs between them.
    const built = hit.context !== undefined || hit.values.length > 1 ? hit.values : [];
    const name = `${QUALIFIERS[hit.layer.framework]}${hit.layer.kind}`;
    const md = new vscode.MarkdownString(
      full ? hoverMarkdown(hit.layer, name, built) : shortHoverMarkdown(hit.layer, name, built),
    );
    this.links(md, doc, hit.span, { explains: hit.layer.attention !== undefined, more: !full && hasMore(hit.layer) });
    return new vscode.Hover(md, this.service.range(doc, hit.span));
  }

  private partMarkdown(analysis: Analysis, part: PartResult): string {
    const cls = analysis.modules.find((m) => m.name === part.className);
    return partHoverMarkdown(part, cls && cls.span.startLine + 1);
  }

  private isExpanded(doc: vscode.TextDocument, span: Span): boolean {
    const start = this.service.range(doc, span).start;
    const key = `${doc.uri.toString()}#${start.line}:${start.character}`;
    if (this.expanded === key) return true;
    this.expanded = undefined;
    return false;
  }

  /**
   * "Explain attention shapes", "Explain model sizing" (on the model built at `model`) and "More" as command
   * links, the only commands the hover may run.
   */
  private links(
    md: vscode.MarkdownString,
    doc: vscode.TextDocument,
    span: Span,
    show: { explains: boolean; more: boolean; model?: vscode.Position; configurations?: boolean },
  ): void {
    // Command links spread a JSON array into arguments: each command takes one [uri, line, character].
    const argsAt = (at: vscode.Position) =>
      encodeURIComponent(JSON.stringify([[doc.uri.toString(), at.line, at.character]]));
    const args = argsAt(this.service.range(doc, span).start);
    const links = [
      ...(show.explains
        ? [
            `[Explain attention shapes](command:${EXPLAIN_COMMAND}?${args} "Walk the layer through Q, K, V, the scores and the heads")`,
          ]
        : []),
      ...(show.model
        ? [
            `[Explain model sizing](command:${EXPLAIN_MODEL_COMMAND}?${argsAt(show.model)} "Parameters, memory, KV cache, FLOPs and activations, for sizes you choose")`,
          ]
        : []),
      ...(show.configurations
        ? [
            `[Choose configuration](command:${CHOOSE_CONFIGURATION_COMMAND}?${args} "Count the class with another of its configurations, or with sizes of your own")`,
          ]
        : []),
      ...(show.more ? [`[More](command:${MORE_COMMAND}?${args} "What these numbers mean")`] : []),
    ];
    if (!links.length) return;
    md.appendMarkdown(`\n\n${links.join(' · ')}`);
    md.isTrusted = {
      enabledCommands: [EXPLAIN_COMMAND, EXPLAIN_MODEL_COMMAND, CHOOSE_CONFIGURATION_COMMAND, MORE_COMMAND],
    };
  }
}

/** The innermost of a layer call and the parts around the position: the one the pointer is most likely on. */
function innermost(layer: LayerResult | undefined, parts: readonly PartResult[]): LayerResult | PartResult | undefined {
  const size = (s: { start: number; end: number }) => s.end - s.start;
  return [...(layer ? [layer] : []), ...parts].sort((a, b) => size(a.span) - size(b.span))[0];
}
