/** `--format json`: one entry per file, with its layers, models and diagnostics in source order. */
import type { LayerInstance } from '../core/layer';
import { bytesOf, TRAINING_BYTES, WEIGHT_BYTES, type Sizing } from '../core/sizing';
import type { Poly } from '../core/symbolic';
import { exactCount, inSourceOrder, isFailed, layerCount, type FileReport } from './report';

export function toJson(reports: readonly FileReport[]): string {
  return `${JSON.stringify({ files: reports.map(fileJson) })}\n`;
}

/** A count as a JSON number where one holds it exactly, else its decimal string; null when not known. */
function exact(p: Poly | undefined): number | string | null {
  const c = p?.constant;
  if (c === undefined) return null;
  return Number.isSafeInteger(Number(c)) ? Number(c) : c.toString();
}

/** What the model is sized with: parameters by kind, weights and training memory in bytes, KV cache per token. */
function sizingJson(s: Sizing) {
  const table = <K extends string>(per: Record<K, number>, n: Poly) => Object.fromEntries(Object.entries(per).map(([k, b]) => [k, exact(bytesOf(n, b as number))]));
  return {
    embedding: exact(s.embedding),
    nonEmbedding: exact(s.nonEmbedding),
    weightBytes: table(WEIGHT_BYTES, s.params),
    trainingBytes: table(TRAINING_BYTES, s.params),
    attentionLayers: exact(s.attentionLayers),
    kvCachePerToken: s.kvPerToken ? { numbers: exact(s.kvPerToken), bytes: table({ fp16: 2, bf16: 2, fp32: 4, int8: 1 }, s.kvPerToken) } : null,
  };
}

/** Attention written by hand: heads as numbers where known (else their formula as text), and the projections by role. */
function attentionJson(layer: LayerInstance) {
  const a = layer.attention!;
  const size = (p: Poly | undefined) => (p === undefined ? null : p.constant !== undefined ? Number(p.constant) : p.toString());
  return {
    summary: layer.summary,
    // Heads not found in the code have no number and no name of the user's.
    heads: layer.summary.startsWith('heads not known') ? null : size(a.heads),
    headDim: size(a.headDim),
    kvHeads: layer.summary.startsWith('heads not known') ? null : size(a.kvHeads ?? a.heads),
    tensors: layer.tensors.filter((t) => t.role).map((t) => ({ name: t.name, role: t.role })),
  };
}

/** One file's entry: the one place to extend when the analysis gains fields. */
function fileJson(r: FileReport): object {
  const head = { path: r.path, language: r.language };
  if (isFailed(r)) return { ...head, error: r.error, layers: [], modules: [], diagnostics: [] };
  const at = (span: { startLine: number; startChar: number }) => r.locate(span.startLine, span.startChar);
  return {
    ...head,
    layers: inSourceOrder(r.analysis.layers).map((l) => ({
      ...at(l.span),
      kind: l.layer.kind,
      framework: l.layer.framework,
      ...exactCount(layerCount(l.layer)),
      formula: l.layer.formula,
      values: l.values.map((v) => ({ ...exactCount(v.params), context: v.context, contexts: v.contexts, summary: v.summary })),
    })),
    modules: inSourceOrder(r.analysis.modules).map((m) => {
      const { cell, line } = at(m.span);
      return {
        name: m.name,
        ...(cell === undefined ? {} : { cell }),
        line,
        ...exactCount(m.summary.params),
        ...(m.built ? { built: { ...exactCount(m.built.summary.params), context: m.built.context } } : {}),
        ...(m.attention ? { attention: attentionJson(m.attention) } : {}),
      };
    }),
    instances: inSourceOrder(r.analysis.instances).map((i) => {
      const { cell, line } = at(i.span);
      return { class: i.className, ...(cell === undefined ? {} : { cell }), line, ...exactCount(i.summary.params), ...(i.sizing ? { sizing: sizingJson(i.sizing) } : {}) };
    }),
    diagnostics: inSourceOrder(r.analysis.findings).map((f) => ({ ...at(f.span), severity: f.severity, code: f.code, message: f.message })),
  };
}
