/**
 * The model each call shows: a call run more than once (a helper building one model per input, a loop at
 * module level) builds several models there, and each keeps its own total. The call shows the total they
 * agree on, else each distinct total and none as its own.
 */
import type { Span } from '../ir/expr';
import { summarize, type ModuleSummary, type ModuleTree } from '../values/modules';
import type { InstanceResult } from './results';
import { groupDigits } from '../values/symbolic';
import type { Value } from '../values/value';

export interface InstanceBuild {
  readonly className: string;
  readonly span: Span;
  readonly tree: () => ModuleTree;
  /** The module built, for its sizing; TF.js models have none. */
  readonly value?: Value;
  /** Built in a run with names for sizes (a function no code calls): it stands for no model the file builds. */
  readonly symbolic: boolean;
}

/** Builds kept per call; one more leaves the call without a total, as for parts. */
const MAX_BUILDS = 64;

export class InstanceBuilds {
  private readonly calls = new Map<number, InstanceBuild[]>();

  add(build: InstanceBuild): void {
    const list = this.calls.get(build.span.start) ?? [];
    if (list.length <= MAX_BUILDS) list.push(build);
    this.calls.set(build.span.start, list);
  }

  /** Whether a model was built at this call already: its forward() is followed once. */
  has(span: Span): boolean {
    return this.calls.has(span.start);
  }

  /** Each call's result, with the module whose total it shows where a single build stands for it. */
  results(): { result: InstanceResult; value?: Value }[] {
    return [...this.calls.values()].map((list) => {
      const real = list.filter((b) => !b.symbolic);
      const builds = real.length ? real : list.slice(0, 1);
      const summaries = builds.map((b) => summarize(b.tree()));
      const first = summaries[0];
      const { className, span } = builds[0];
      const agree =
        builds.length <= MAX_BUILDS &&
        summaries.every((s) => (s.params && first.params ? s.params.equals(first.params) : s.params === first.params));
      if (agree) return { result: { className, span, summary: first }, value: builds[0].value };
      const totals = [
        ...new Set(summaries.map((s) => s.params?.constant).filter((c): c is bigint => c !== undefined)),
      ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const unknown = summaries.length - summaries.filter((s) => s.params?.isConstant).length;
      const reason =
        builds.length > MAX_BUILDS
          ? 'built here more times than are followed'
          : `built here ${builds.length} times, each model with its own total: ${[...totals.map(groupDigits), ...(unknown ? [`${unknown} not known`] : [])].join('; ')}`;
      const summary: ModuleSummary = { params: undefined, reason, children: [], tied: [] };
      return { result: { className, span, summary, totals: totals.length > 1 ? totals : undefined } };
    });
  }
}
