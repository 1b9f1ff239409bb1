/** Numbers and formulas as text: CodeLens titles, hover markdown, CLI rows. */
import type { LayerResult, SiteValue } from '../analysis/analyze';
import { modelOf } from '../analysis/documented';
import type { ModuleSummary } from '../values/modules';
import type { LayerInstance } from '../values/layer';
import { tensorSize } from '../values/layer';
import { dimText } from '../catalog/spec';
import { groupDigits, type Poly } from '../values/symbolic';
import { codeSpan, escapeMarkdown as md } from './markdown';
import { bytesText as bytes, percentOf, scientific } from '../sizing/units';

const FRAMEWORK_NAMES = { pytorch: 'PyTorch', tfjs: 'TensorFlow.js', 'js-pytorch': 'js-pytorch' } as const;

/** `1,050,624`, or the formula when a size is not known. */
function formatCount(layer: LayerInstance): string {
  const c = layer.params?.constant;
  if (c !== undefined) return groupDigits(c);
  return layer.formula || 'not known';
}

/** A site's count: `1,050,624`; `2 sizes: 129,000 … 769,000` when models build it differently; else the formula. */
export function siteCount(result: LayerResult): string {
  const { layer, values } = result;
  if (layer.params?.constant === undefined && values.length > 1)
    return sizesText(values.map((v) => v.params.constant!));
  return formatCount(layer);
}

/** `2 sizes: 129,000 … 769,000`: the smallest and largest of several counts built at one call. */
export function sizesText(counts: readonly bigint[]): string {
  const sorted = [...counts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `${counts.length} sizes: ${groupDigits(sorted[0])} … ${groupDigits(sorted[sorted.length - 1])}`;
}

/** Fields of a tf.layers.Layer subclass whose layers it does not track, with the weights they created. */
export function untrackedText(u: NonNullable<ModuleSummary['untracked']>): string {
  const c = u.params?.constant;
  const created = c === undefined ? 'weights' : `${groupDigits(c)} weights`;
  return `${u.fields.map((f) => codeSpan(f)).join(', ')} ${u.fields.length > 1 ? 'hold' : 'holds'} layers the class does not track: call() creates ${created} in them, which countParams() (the total here), trainableWeights, getWeights() and save() leave out, so they are neither trained nor saved.`;
}

/** `+ 244 untracked`: weights a tf.layers.Layer subclass's sublayers created outside its total. */
export function untrackedCount(summary: ModuleSummary): string {
  if (!summary.untracked) return '';
  const c = summary.untracked.params?.constant;
  return `+ ${c === undefined ? 'some' : groupDigits(c)} untracked`;
}

/** A model built at a call: its total, or the sizes of the several models built there. */
export function instanceTotal(summary: ModuleSummary, totals: readonly bigint[] | undefined): string {
  return totals ? sizesText(totals) : formatTotal(summary);
}

/** `1,050,624 params · 8 heads × 64`; a layer the framework would reject says so instead of a count. */
export function lensTitle(result: LayerResult): string {
  const { layer } = result;
  const errors = result.findings.filter((f) => f.severity === 'error');
  if (errors.length)
    return `✖ ${FRAMEWORK_NAMES[layer.framework]} would not build this ${layer.kind} · ${errors.map((f) => f.code).join(', ')}`;
  const c = layer.params?.constant;
  if (c === undefined && result.values.length > 1)
    return `${siteCount(result)} params${layer.summary ? ` · ${layer.summary}` : ''}`;
  const count =
    c !== undefined
      ? `${groupDigits(c)} params`
      : layer.unknownReason && layer.kind === 'LazyLinear'
        ? 'params set at first call'
        : layer.formula
          ? `${layer.formula} params`
          : 'params not known';
  // A count that comes from a model built elsewhere says which one: the code around the site alone does not give it.
  const from = c !== undefined && result.context ? ` · in ${modelOf(result.context)}` : '';
  return `${count}${layer.summary ? ` · ${layer.summary}` : ''}${from}`;
}

/**
 * The count alone, as it shows at the end of a line (`1,771,776`; `263,168 … 1,050,624` for a call built
 * with several sizes; a short formula, `d² + d`; else `?`): long lines such as nanoGPT's push anything
 * longer off-screen.
 */
export function inlineCount(params: bigint | undefined, sizes: readonly bigint[] = [], formula?: string): string {
  if (params !== undefined) return groupDigits(params);
  if (sizes.length > 1) return sizesText(sizes).replace(/^\d+ sizes: /, '');
  return formula && formula.length <= INLINE_FORMULA ? formula : '?';
}

/** Characters of a formula worth showing inline. */
const INLINE_FORMULA = 24;

/** `[1536, 512]`, as the frameworks print shapes (no digit grouping inside a shape). */
export function shapeText(shape: readonly Poly[]): string {
  return `[${shape.map((d) => (d.constant !== undefined ? String(d.constant) : d.toString())).join(', ')}]`;
}

/**
 * The hover: count, formula, the models that build the layer with their counts, the tensor table and the
 * notes that explain them. Text from the file is escaped.
 */
export function hoverMarkdown(layer: LayerInstance, qualifiedName: string, values: readonly SiteValue[] = []): string {
  if (layer.rejected) return rejectedHoverMarkdown(layer, qualifiedName);
  const c = layer.params?.constant;
  const lines: string[] = [];
  lines.push(
    c !== undefined
      ? `**${md(qualifiedName)}**: ${groupDigits(c)} parameters`
      : `**${md(qualifiedName)}**: ${md(layer.unknownReason ?? 'size not known')}`,
  );
  lines.push('');
  if (layer.formula) lines.push(`Formula: ${codeSpan(layer.formula)}`, '');
  const built = values.filter((v) => v.context);
  for (const v of built.slice(0, 6))
    lines.push(
      `- in ${md(v.context)}: ${groupDigits(v.params.constant!)}${built.length > 1 && v.summary ? ` · ${md(v.summary)}` : ''}${v.contexts > 1 ? ` (${v.contexts} models)` : ''}`,
    );
  if (built.length > 6) lines.push(`- and ${built.length - 6} more sizes`);
  if (built.length) lines.push('');
  if (c !== undefined && c > 0n) lines.push(`Weights: ${bytes(c * 4n)} in fp32, ${bytes(c * 2n)} in bf16`, '');
  if (layer.tensors.length) lines.push(...tensorTable(layer), '');
  for (const n of layer.notes) lines.push(`- ${md(n)}`);
  return lines.join('\n');
}

/**
 * A layer the framework refuses to build: why, and no count or tensor table, whose figures (a weight of
 * `[5, -1]`, a count of -1,260) would be no framework's.
 */
export function rejectedHoverMarkdown(layer: LayerInstance, qualifiedName: string): string {
  return `**${md(qualifiedName)}**: ${FRAMEWORK_NAMES[layer.framework]} would not build it: ${md(layer.rejected ?? '')}`;
}

/** The parameter tensors as a Markdown table: name, shape (with its copies), count. */
export function tensorTable(layer: LayerInstance): string[] {
  const lines = ['| tensor | shape | count |', '|---|---|---:|'];
  for (const t of layer.tensors) {
    const size = tensorSize(t);
    const shape = shapeText(t.shape);
    const count = size.constant !== undefined ? groupDigits(size.constant) : size.toString();
    lines.push(
      `| ${codeSpan(t.name, true)} | ${t.repeat ? `${md(t.repeat.toString())} × ` : ''}${md(shape)} | ${md(count)} |`,
    );
  }
  return lines;
}

/** The different totals a class that needs arguments is built with, and the model (or how many) building it. */
export interface ClassSizes {
  readonly totals: readonly bigint[];
  readonly context: string;
}

/** `Built with 4 totals in SwinTransformer(): 37,248, 148,224, ...`: each build of a class that needs arguments. */
export function sizesMarkdown(sizes: ClassSizes): string {
  return `Built with ${sizes.totals.length} totals in ${md(sizes.context)}: ${sizes.totals.map(groupDigits).join(', ')}.`;
}

/** A model total: `124,439,808`, or why there is none (the totals it is built with, where they differ). */
export function formatTotal(summary: ModuleSummary, sizes?: ClassSizes): string {
  const c = summary.params?.constant;
  if (c !== undefined) return groupDigits(c);
  if (sizes) return sizesText(sizes.totals);
  return summary.reason?.startsWith('needs arguments') ? 'needs arguments' : 'not known';
}

/** `124,439,808 params`, or why there is none, read after the class's name: `GPT: needs arguments`, `GPT: total not known`. */
export function totalText(summary: ModuleSummary): string {
  const c = summary.params?.constant;
  if (c !== undefined) return `${groupDigits(c)} params`;
  return summary.reason?.startsWith('needs arguments') ? 'needs arguments' : 'total not known';
}

/** `124.4 M`, `590.6 K`. */
export function shortCount(n: bigint): string {
  if (n >= 10n ** 15n) return scientific(n);
  const x = Number(n);
  if (x >= 1e9) return `${(x / 1e9).toFixed(1)} B`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(1)} M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} K`;
  return String(x);
}

/**
 * `124,439,808 params (124.4 M) · 12 × Block`, or `· 12 heads × 64` for attention written by hand; for a class that needs arguments, the total a model of the
 * file builds it with, and where: `· as built on line 202`, `· in GPT (line 202)`.
 */
export function moduleLensTitle(
  summary: ModuleSummary,
  built?: { readonly name: string; readonly context: string },
  attention?: string,
  configurations = 0,
  /** Some of the file's factories were left out (Analysis.configurationsCut): there may be more. */
  cut = false,
  /** The totals the file's models build the class with, when they differ (ModuleResult.sizes). */
  sizes?: ClassSizes,
): string {
  const c = summary.params?.constant;
  const stack = summary.stack
    ? ` · ${dimText(summary.stack.count)} × ${summary.stack.kind}`
    : attention
      ? ` · ${attention}`
      : '';
  if (c === undefined && sizes) return `${sizesText(sizes.totals)} params · in ${sizes.context}${stack}`;
  if (c === undefined) return `${totalText(summary)}${stack}`;
  // `configurations`: how many different totals the class is built with (distinctConfigurations).
  const more = configurations > 1 ? ` · ${cut ? 'at least ' : ''}${configurations} configurations` : '';
  return `${groupDigits(c)} params (${shortCount(c)})${stack}${built ? ` · ${builtWhere(built.name, built.context)}` : ''}${more}`;
}

/**
 * `as built on line 202` for the model itself, `in GPT (line 202)` for a part of it, `with its defaults` for the
 * class alone.
 */
export function builtWhere(name: string, context: string): string {
  const outer = modelOf(context);
  if (outer === `${name}()`) return 'with its defaults';
  if (isConfigured(name, context)) return `as ${outer}`;
  // `GPT (line 202)`, or in a notebook `GPT (cell 3, line 2)`.
  const place = outer.startsWith(`${name} (`) && outer.endsWith(')') ? outer.slice(name.length + 2, -1) : '';
  if (place.startsWith('line ')) return `as built on ${place}`;
  if (place.startsWith('cell ') || /, line \d+$/.test(place)) return `as built in ${place}`;
  return `in ${outer}`;
}

type Configuration = {
  readonly context: string;
  readonly params: Poly;
  readonly active?: true;
  readonly elsewhere?: { readonly file: string };
};

/**
 * The totals a class is built with, where there are several: each once, with the first model that builds it so
 * (the others that agree add nothing to read), or the one shown.
 */
export function distinctConfigurations<C extends Configuration>(configurations: readonly C[] | undefined): C[] {
  const first = new Map<bigint, C>();
  for (const c of configurations ?? [])
    if (!first.has(c.params.constant!) || c.active) first.set(c.params.constant!, c);
  return first.size > 1 ? [...first.values()] : [];
}

/** The hover's list of the totals a class is built with, where there are several. */
export function configurationsMarkdown(configurations: readonly Configuration[] | undefined, cut = false): string {
  const distinct = distinctConfigurations(configurations);
  if (!distinct.length) return '';
  return [
    cut
      ? `Built with at least ${distinct.length} different totals (the work budget left some of the file's factories out):`
      : `Built with ${distinct.length} different totals:`,
    '',
    ...distinct.map(
      (c) =>
        `- ${groupDigits(c.params.constant!)} in ${codeSpan(c.context)}${c.elsewhere ? `, stated in ${codeSpan(c.elsewhere.file)}` : ''}${c.active ? ' (shown)' : ''}`,
    ),
  ].join('\n');
}

/** `GPT(GPTConfig())`, `Classifier(head=HeadConfig())`: the class itself built with its configuration's defaults. */
function isConfigured(name: string, context: string): boolean {
  return !context.includes(' via ') && context.startsWith(`${name}(`) && context.endsWith('())');
}

export { sizingMarkdown } from './sizingText';

/** Attention written by hand, below the class hover: its shape, its tensors by role, what they mean. */
export function attentionHoverMarkdown(layer: LayerInstance): string {
  const lines = [`**Attention**: ${md(layer.summary)}`, ''];
  const own = layer.tensors.filter((t) => t.role);
  if (own.length) {
    lines.push('| tensor | role | shape | count |', '|---|---|---|---:|');
    for (const t of own) {
      const size = tensorSize(t);
      lines.push(
        `| ${codeSpan(t.name, true)} | ${md(t.role!)} | ${md(shapeText(t.shape))} | ${size.constant !== undefined ? groupDigits(size.constant) : md(size.toString())} |`,
      );
    }
    lines.push('');
  }
  for (const n of layer.notes) lines.push(`- ${md(n)}`);
  return lines.join('\n');
}

/** The class hover: its children with their share, and the memory its weights take. Text from the file is escaped. */
export function moduleHoverMarkdown(
  name: string,
  summary: ModuleSummary,
  context?: string,
  instance = false,
  memory = true,
): string {
  const c = summary.params?.constant;
  const how = instance
    ? 'as built here'
    : context && isConfigured(name, context)
      ? `as ${codeSpan(context)} builds it, with its configuration's defaults`
      : context
        ? `as built in ${md(context)} (it needs arguments of its own)`
        : 'built with its default arguments';
  const lines = [
    c !== undefined
      ? `**${md(name)}**: ${groupDigits(c)} parameters (${shortCount(c)}), ${how}`
      : `**${md(name)}**: ${md(summary.reason ?? 'total not known')}`,
    '',
  ];
  if (summary.children.length) {
    lines.push('| child | kind | count | share |', '|---|---|---:|---:|');
    const unknown: string[] = [];
    for (const child of summary.children) {
      const name = codeSpan(child.name === '{i}' ? '0…' : child.name, true);
      const n = child.unknown ? undefined : child.params.constant;
      const share = n !== undefined && c ? `${percentOf(n, c).toFixed(1)} %` : '';
      const kind = child.repeat ? `${dimText(child.repeat)} × ${child.kind}` : child.kind;
      const count = child.unknown ? 'not known' : n !== undefined ? groupDigits(n) : md(child.params.toString());
      lines.push(`| ${name} | ${md(kind)} | ${count} | ${share} |`);
      if (child.unknown) unknown.push(`${name}: ${md(child.unknown)}`);
    }
    lines.push('');
    if (unknown.length) lines.push(...unknown.map((u) => `- ${u}`), '');
  }
  if (summary.untracked) lines.push(untrackedText(summary.untracked), '');
  if (summary.arrays)
    lines.push(
      `${summary.arrays.map((a) => codeSpan(a)).join(', ')} ${summary.arrays.length > 1 ? 'hold' : 'holds'} layers in a plain array: \`parameters()\` does not return them, so they are not counted, nor trained.`,
      '',
    );
  for (const [a, b] of summary.tied)
    lines.push(
      `Tied: ${codeSpan(a)} and ${codeSpan(b)} are one parameter, counted once (so the shares add up to more than 100 %).`,
      '',
    );
  // A model with its sizing below gets its memory there, for the settings chosen.
  if (memory && c !== undefined && c > 0n) {
    lines.push(
      `Weights: ${bytes(c * 4n)} in fp32, ${bytes(c * 2n)} in bf16.`,
      '',
      `Training with Adam in fp32: ${bytes(c * 16n)} (weights, gradients and two moments, 16 bytes a parameter), before activations.`,
    );
  }
  return lines.join('\n');
}
