/** The layer each call site shows, from every model that built it. */
import type { LayerResult, SiteValue } from './results';
import type { SiteRecord } from './cache';
import type { Span } from '../ir/expr';
import type { Finding, LayerInstance } from '../values/layer';
import { groupDigits } from '../values/symbolic';
import { modelOf } from './documented';

/**
 * The layer a site shows: the one count every context agrees on, else the formula and the counts seen. A
 * real caller (a context other than the site's own code run alone, `lexical`) that builds it with sizes
 * not known here leaves it without a count: that caller's count may be another.
 */
export function siteResult(span: Span, list: readonly SiteRecord[], lexical: ReadonlySet<string>): LayerResult {
  const values: SiteValue[] = [];
  for (const r of list) {
    const p = r.layer.params;
    if (!p?.isConstant || r.layer.rejected || r.varies) continue;
    const same = values.findIndex((v) => v.params.equals(p));
    if (same >= 0) values[same] = { ...values[same], contexts: values[same].contexts + 1 };
    else values.push({ params: p, context: r.context, contexts: 1, summary: r.layer.summary });
  }
  // The formula over the site's own names (`inplanes·planes`) when its own code was run alone; a caller's
  // (`4·width²` for one block of a ResNet stage) holds for that caller only.
  // Runs that give a formula: over names (`4·width²`), or over a flag not known (`[config.bias]·3·config.n_embd`).
  const symbolicRuns = list.filter((r) => !r.layer.params?.isConstant && !r.layer.rejected && r.layer.formula);
  const generic = symbolicRuns.find((r) => lexical.has(r.context));
  const rejected = list.find((r) => r.layer.rejected);
  const unknownCaller = list.find(
    (r) => !r.symbolic && !lexical.has(modelOf(r.context)) && !r.layer.params?.isConstant && !r.layer.rejected,
  );
  const looped = list.find((r) => r.varies);
  let layer: LayerInstance;
  if (rejected) layer = rejected.layer;
  else if (looped)
    layer = withoutCount(
      generic?.layer ?? looped.layer,
      'Built in a loop whose passes change its sizes, and whose number of passes is not known here.',
    );
  else if (values.length === 1 && unknownCaller)
    layer = withoutCount(
      generic?.layer ?? unknownCaller.layer,
      `${unknownCaller.context} builds it with sizes not known here; ${groupDigits(values[0].params.constant!)} in ${values[0].context || 'this file'}.`,
    );
  else if (values.length === 1) {
    const chosen = list.find((r) => r.layer.params?.equals(values[0].params))!.layer;
    // The formula over the names the site's own code uses (`3·config.n_embd² + …`), when a run gave one.
    layer = generic ? { ...chosen, formula: generic.layer.formula } : chosen;
  } else if (values.length > 1) {
    // The sizes of one model would read as the site's: only a summary over names stays.
    const first = list[0].layer;
    const base = generic?.layer ?? { ...first, summary: '', formula: first.params?.isConstant ? first.formula : '' };
    layer = withoutCount(
      base,
      `Built with ${values.length} different sizes here: ${values.map((v) => `${groupDigits(v.params.constant!)}${v.context ? ` in ${v.context}` : ''}`).join('; ')}.`,
    );
  } else if (generic || !symbolicRuns.length) layer = (generic ?? list[0]).layer;
  // Only callers built it, with their own names for its sizes (`transformer.d_model`): those names mean
  // nothing at the site, and each caller may build it differently.
  else
    layer = {
      ...withoutCount(symbolicRuns[0].layer, `Built by ${modelOf(symbolicRuns[0].context)} with sizes not known here.`),
      formula: '',
      summary: '',
    };
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const r of list) {
    for (const f of r.findings) {
      const key = `${f.code}:${f.span.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(list.length > 1 && r.context ? { ...f, message: `${f.message} (in ${r.context})` } : f);
    }
  }
  // The count comes from a model built elsewhere when some run of the site's own code did not give it.
  const context =
    values.length === 1 &&
    !unknownCaller &&
    !looped &&
    list.some((r) => !r.layer.params?.isConstant && !r.layer.rejected)
      ? values[0].context
      : undefined;
  return { span, layer, findings, values, context };
}

/** The same layer with no single count: several contexts build it with different sizes. */
function withoutCount(layer: LayerInstance, reason: string): LayerInstance {
  return { ...layer, params: undefined, unknownReason: reason, formula: layer.formula };
}
