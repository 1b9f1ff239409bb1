/**
 * What each call building a model class inside other code (`self.attn = CausalSelfAttention(config)`) shows
 * on hover: the total its models build it with, and which model that is. Several models building it with
 * different totals give each one; built only with names for its arguments, the class's own reason stays.
 */
import type { PartRecord } from './analysisCache';
import { summarize, type ModuleSummary } from './modules';
import type { PartResult, SiteValue } from './results';

export function partResults(parts: ReadonlyMap<number, readonly PartRecord[]>): PartResult[] {
  const out: PartResult[] = [];
  for (const list of parts.values()) {
    const builds = list.map((r) => ({ record: r, summary: r.summary ?? summarize(r.tree!) }));
    const values: SiteValue[] = [];
    let agreed: ModuleSummary | undefined;
    for (const { record, summary } of builds) {
      const p = summary.params;
      if (record.symbolic || !p?.isConstant) continue;
      const same = values.findIndex((v) => v.params.equals(p));
      if (same >= 0) values[same] = { ...values[same], contexts: values[same].contexts + 1 };
      else {
        values.push({ params: p, context: record.context, contexts: 1 });
        agreed ??= summary;
      }
    }
    const first = list[0];
    const summary: ModuleSummary = values.length === 1 ? agreed! : values.length > 1
      ? { params: undefined, reason: `built with ${values.length} different totals`, children: [], tied: [] }
      : builds[0].summary;
    out.push({ className: first.className, span: first.span, summary, values });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}
