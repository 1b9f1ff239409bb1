/** `--format json`: one entry per file, with its layers, models and diagnostics in source order. */
import type { LayerInstance, StoredWeight } from '../core/values/layer';
import { pathBeside } from './place';
import type { SourceElsewhere } from '../core/analysis/results';
import { configurationName } from '../core/analysis/documented';
import { bytesOf, TRAINING_BYTES, WEIGHT_BYTES, type SizingOptions } from '../core/sizing/memory';
import type { Sizing } from '../core/sizing/sizing';
import type { ModuleSummary } from '../core/values/modules';
import { sizingFigures } from '../core/sizing/sizingFigures';
import type { Poly } from '../core/values/symbolic';
import { exactCount, inSourceOrder, isFailed, layerCount, type FileReport } from './report';

/** The files' entries (each from jsonOfFile), in order: the text `JSON.stringify({ files })` gives. */
export function toJson(entries: readonly string[]): string {
  return `{"files":[${entries.join(',')}]}\n`;
}

/** One file's entry as JSON text. */
export function jsonOfFile(r: FileReport, options: SizingOptions): string {
  return JSON.stringify(fileJson(r, options));
}

/** A count as a JSON number where one holds it exactly, else its decimal string; null when not known. */
function exact(p: Poly | bigint | undefined): number | string | null {
  const c = typeof p === 'bigint' ? p : p?.constant;
  if (c === undefined) return null;
  return Number.isSafeInteger(Number(c)) ? Number(c) : c.toString();
}

/**
 * What the model is sized with: parameters by kind, weights and training memory in bytes, KV cache per token;
 * then, for the storage type, optimizer, batch and sequence length chosen, the KV cache of that context, the
 * FLOPs, and the activations autograd keeps (or why they are not known).
 */
function sizingJson(s: Sizing, options: SizingOptions) {
  const table = <K extends string>(per: Record<K, number>, n: Poly) =>
    Object.fromEntries(Object.entries(per).map(([k, b]) => [k, exact(bytesOf(n, b as number))]));
  const training = (t: { trainable: number; frozen: number }) => {
    const trainable = s.trainable && bytesOf(s.trainable, t.trainable)?.constant;
    const frozen = s.frozen && bytesOf(s.frozen, t.frozen)?.constant;
    return exact(trainable !== undefined && frozen !== undefined ? trainable + frozen : undefined);
  };
  const f = sizingFigures(s, options);
  const a = f.activations;
  return {
    embedding: exact(s.embedding),
    nonEmbedding: exact(s.nonEmbedding),
    trainable: exact(s.trainable),
    frozen: exact(s.frozen),
    weightBytes: table(WEIGHT_BYTES, s.params),
    trainingBytes: Object.fromEntries(Object.entries(TRAINING_BYTES).map(([k, t]) => [k, training(t)])),
    attentionLayers: exact(s.attentionLayers),
    kvCachePerToken: s.kvPerToken
      ? { numbers: exact(s.kvPerToken), bytes: table({ fp16: 2, bf16: 2, fp32: 4, int8: 1 }, s.kvPerToken) }
      : null,
    options,
    kvCacheBytes: exact(f.kvCacheBytes),
    flops: f.flops
      ? {
          forwardPerToken: exact(f.flops.forwardPerToken),
          trainingPerToken: exact(f.flops.trainingPerToken),
          trainingStep: exact(f.flops.trainingStep),
        }
      : null,
    activations:
      'unknown' in a
        ? { bytes: null, unknown: a.unknown }
        : {
            bytes: exact(a.bytes),
            layers: a.layers.map((l) => ({ path: l.path, kind: l.kind, calls: l.calls, bytes: exact(l.bytes) })),
          },
  };
}

/** Attention written by hand: heads as numbers where known (else their formula as text), and the projections by role. */
function attentionJson(layer: LayerInstance) {
  return {
    ...figures(layer),
    ...(layer.builds ? { builds: layer.builds.map(figures) } : {}),
    tensors: layer.tensors.filter((t) => t.role).map((t) => ({ name: t.name, role: t.role })),
  };
}

/** The heads of one attention; none for a class whose builds differ (each build has its own). */
function figures(layer: LayerInstance) {
  const a = layer.attention!;
  // A number where one holds it exactly, else its decimal string (past 2^53); a formula as text.
  const size = (p: Poly | undefined) => (p === undefined ? null : p.constant !== undefined ? exact(p) : p.toString());
  // Heads not found in the code have no number and no name of the user's.
  const none =
    layer.summary.startsWith('heads not known') || layer.summary === 'heads differ by build' || !!layer.builds;
  return {
    summary: layer.summary,
    heads: none ? null : size(a.heads),
    headDim: size(a.headDim),
    kvHeads: none ? null : size(a.kvHeads ?? a.heads),
  };
}

/** A quantised weight's storage: byte counts as numbers, which stay exact below 2^53 bytes. */
function storedJson(s: StoredWeight): object {
  return { format: s.format, weightBytes: Number(s.weightBytes), scaleBytes: Number(s.scaleBytes) };
}

/** One file's entry: the one place to extend when the analysis gains fields. */
function fileJson(r: FileReport, options: SizingOptions): object {
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
      ...(l.layer.stored ? { stored: storedJson(l.layer.stored) } : {}),
      values: l.values.map((v) => ({
        ...exactCount(v.params),
        context: v.context,
        contexts: v.contexts,
        summary: v.summary,
      })),
    })),
    modules: inSourceOrder(r.analysis.modules).map((m) => {
      const { cell, line } = at(m.span);
      return {
        name: m.name,
        ...(cell === undefined ? {} : { cell }),
        line,
        ...exactCount(m.summary.params),
        ...(m.summary.params?.isConstant || !m.summary.reason ? {} : { reason: m.summary.reason }),
        ...(m.built ? { built: { ...exactCount(m.built.summary.params), context: m.built.context } } : {}),
        ...(m.sizes
          ? { sizes: { paramsExact: m.sizes.totals.map((t) => t.toString()), context: m.sizes.context } }
          : {}),
        ...(m.configurations
          ? {
              configurations: m.configurations.map((c) => ({
                name: configurationName(c.context),
                context: c.context,
                ...exactCount(c.params),
                ...(c.expression === undefined ? {} : { expression: c.expression }),
                ...(c.registered ? { registered: c.registered } : {}),
                ...(c.elsewhere
                  ? { source: { path: pathBeside(r.path, c.elsewhere.file), ...placeIn(c.elsewhere) } }
                  : c.source
                    ? { source: at(c.source) }
                    : {}),
                ...(c.active ? { active: true } : {}),
              })),
            }
          : {}),
        ...untrackedJson(m.built?.summary ?? m.summary),
        ...(m.attention ? { attention: attentionJson(m.attention) } : {}),
      };
    }),
    instances: inSourceOrder(r.analysis.instances).map((i) => {
      const { cell, line } = at(i.span);
      return {
        class: i.className,
        ...(cell === undefined ? {} : { cell }),
        line,
        ...exactCount(i.summary.params),
        ...(i.summary.params ? {} : { unknown: i.summary.reason ?? null }),
        ...(i.totals ? { totals: i.totals.map(String) } : {}),
        ...untrackedJson(i.summary),
        ...(i.configuration === undefined ? {} : { configuration: i.configuration }),
        ...(i.sizing ? { sizing: sizingJson(i.sizing, options) } : {}),
      };
    }),
    diagnostics: inSourceOrder(r.analysis.findings).map((f) => ({
      ...at(f.span),
      severity: f.severity,
      code: f.code,
      message: f.message,
    })),
  };
}

/** Weights a tf.layers.Layer subclass's sublayers created that it does not track, outside its count. */
function untrackedJson(summary: ModuleSummary): { untracked?: object } {
  const u = summary.untracked;
  return u ? { untracked: { fields: u.fields, ...exactCount(u.params) } } : {};
}

/** A place in another file: a notebook's cell, the line and the column. */
function placeIn({ cell, line, column }: SourceElsewhere) {
  return { ...(cell === undefined ? {} : { cell }), line, column };
}
