/** Numbers and formulas as text: CodeLens titles, hover markdown, CLI rows. */
import type { LayerResult } from './analysis';
import type { ModuleSummary } from './modules';
import type { LayerInstance } from './layer';
import { tensorSize } from './layer';
import { dimText } from './catalog/spec';
import { groupDigits, type Poly } from './symbolic';
import { codeSpan, escapeMarkdown as md } from './markdown';

const FRAMEWORK_NAMES = { pytorch: 'PyTorch', tfjs: 'TensorFlow.js', 'js-pytorch': 'js-pytorch' } as const;

/** `1,050,624`, or the formula when a size is not known. */
export function formatCount(layer: LayerInstance): string {
  const c = layer.params?.constant;
  if (c !== undefined) return groupDigits(c);
  return layer.formula;
}

/** `1,050,624 params · 8 heads × 64`; a layer the framework would reject says so instead of a count. */
export function lensTitle(result: LayerResult): string {
  const { layer } = result;
  const errors = result.findings.filter((f) => f.severity === 'error');
  if (errors.length) return `✖ ${FRAMEWORK_NAMES[layer.framework]} would not build this ${layer.kind} · ${errors.map((f) => f.code).join(', ')}`;
  const c = layer.params?.constant;
  const count = c !== undefined ? `${groupDigits(c)} params` : layer.unknownReason && layer.kind === 'LazyLinear' ? 'params set at first call' : `${layer.formula} params`;
  return `${count} · ${layer.summary}`;
}

/** `[1536, 512]`, as the frameworks print shapes (no digit grouping inside a shape). */
export function shapeText(shape: readonly Poly[]): string {
  return `[${shape.map((d) => (d.constant !== undefined ? String(d.constant) : d.toString())).join(', ')}]`;
}

/** The hover: count, formula, tensor table and the notes that explain them. Text from the file is escaped. */
export function hoverMarkdown(layer: LayerInstance, qualifiedName: string): string {
  const c = layer.params?.constant;
  const lines: string[] = [];
  lines.push(c !== undefined ? `**${md(qualifiedName)}**: ${groupDigits(c)} parameters` : `**${md(qualifiedName)}**: ${md(layer.unknownReason ?? 'size not known')}`);
  lines.push('');
  if (layer.formula) lines.push(`Formula: ${codeSpan(layer.formula)}`, '');
  if (c !== undefined && c > 0n) lines.push(`Weights: ${bytes(c * 4n)} in fp32, ${bytes(c * 2n)} in bf16`, '');
  if (layer.tensors.length) {
    lines.push('| tensor | shape | count |', '|---|---|---:|');
    for (const t of layer.tensors) {
      const size = tensorSize(t);
      const shape = shapeText(t.shape);
      const count = size.constant !== undefined ? groupDigits(size.constant) : size.toString();
      lines.push(`| ${codeSpan(t.name, true)} | ${t.repeat ? `${md(t.repeat.toString())} × ` : ''}${md(shape)} | ${md(count)} |`);
    }
    lines.push('');
  }
  for (const n of layer.notes) lines.push(`- ${md(n)}`);
  return lines.join('\n');
}

/** A model total: `124,439,808`, or why there is none. */
export function formatTotal(summary: ModuleSummary): string {
  const c = summary.params?.constant;
  if (c !== undefined) return groupDigits(c);
  return summary.reason?.startsWith('needs arguments') ? 'needs arguments' : 'not known';
}

/** `124.4 M`, `590.6 K`. */
export function shortCount(n: bigint): string {
  const x = Number(n);
  if (x >= 1e9) return `${(x / 1e9).toFixed(1)} B`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(1)} M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} K`;
  return String(x);
}

/** `124,439,808 params (124.4 M) · 12 × Block`. */
export function moduleLensTitle(summary: ModuleSummary): string {
  const c = summary.params?.constant;
  const stack = summary.stack ? ` · ${dimText(summary.stack.count)} × ${summary.stack.kind}` : '';
  if (c === undefined) return `${summary.reason?.startsWith('needs arguments') ? 'params need arguments' : 'params not known'}${stack}`;
  return `${groupDigits(c)} params (${shortCount(c)})${stack}`;
}

function bytes(n: bigint): string {
  const x = Number(n);
  if (x >= 2 ** 30) return `${(x / 2 ** 30).toFixed(2)} GiB`;
  if (x >= 2 ** 20) return `${(x / 2 ** 20).toFixed(1)} MiB`;
  return `${(x / 2 ** 10).toFixed(1)} KiB`;
}

/** The class hover: its children with their share, and the memory its weights take. Text from the file is escaped. */
export function moduleHoverMarkdown(name: string, summary: ModuleSummary): string {
  const c = summary.params?.constant;
  const lines = [c !== undefined ? `**${md(name)}**: ${groupDigits(c)} parameters (${shortCount(c)}), built with its default arguments` : `**${md(name)}**: ${md(summary.reason ?? 'total not known')}`, ''];
  if (summary.children.length) {
    lines.push('| child | kind | count | share |', '|---|---|---:|---:|');
    for (const child of summary.children) {
      const n = child.params.constant;
      const share = n !== undefined && c ? `${((Number(n) / Number(c)) * 100).toFixed(1)} %` : '';
      const kind = child.repeat ? `${dimText(child.repeat)} × ${child.kind}` : child.kind;
      lines.push(`| ${codeSpan(child.name === '{i}' ? '0…' : child.name, true)} | ${md(kind)} | ${n !== undefined ? groupDigits(n) : md(child.params.toString())} | ${share} |`);
    }
    lines.push('');
  }
  for (const [a, b] of summary.tied) lines.push(`Tied: ${codeSpan(a)} and ${codeSpan(b)} are one parameter, counted once (so the shares add up to more than 100 %).`, '');
  if (c !== undefined && c > 0n) {
    lines.push(
      `Weights: ${bytes(c * 4n)} in fp32, ${bytes(c * 2n)} in bf16.`,
      '',
      `Training with Adam in fp32: ${bytes(c * 16n)} (weights, gradients and two moments, 16 bytes a parameter), before activations.`,
    );
  }
  return lines.join('\n');
}
