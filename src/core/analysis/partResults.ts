/**
 * What each call building a model class inside other code (`self.attn = CausalSelfAttention(config)`) shows
 * on hover: the total its models build it with, and which model that is. Several models building it with
 * different totals give each one; a model building it with sizes not followed leaves it without a total;
 * built only with names for its arguments, its total over those names stays.
 */
import type { PartRecord } from './cache';
import { summarize, type ModuleSummary } from '../values/modules';
import type { PartResult, SiteValue } from './results';
import { contextOf, realBuild, shownAmong, type Showing } from './documented';

export function partResults(parts: ReadonlyMap<number, readonly PartRecord[]>, showing: Showing): PartResult[] {
  const out: PartResult[] = [];
  for (const all of parts.values()) {
    const list = shownAmong(all, showing, contextOf, realBuild);
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
    // A model building it with sizes not followed may make it any size: no total is shown as the site's.
    const unsure = builds.find((b) => !b.record.symbolic && !b.summary.params?.isConstant);
    const unknown = (reason: string): ModuleSummary => ({ params: undefined, reason, children: [], tied: [] });
    const summary =
      values.length > 1
        ? unknown(`built with ${values.length} different totals`)
        : unsure
          ? values.length
            ? unknown(`${unsure.record.context} builds it with a total not known here`)
            : unsure.summary
          : values.length === 1
            ? agreed!
            : builds[0].summary;
    out.push({ className: list[0].className, span: list[0].span, summary, values });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}
