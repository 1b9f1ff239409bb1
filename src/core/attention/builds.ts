/**
 * One attention class built with different heads (a Swin stage each, or a model that overrides the class's
 * defaults): the class shows each build's figure, never one build's for all. Its own figures (heads, head
 * size, kv heads) are then none, and each build keeps its own.
 */
import type { LayerInstance } from '../values/layer';
import { Poly } from '../values/symbolic';

/** Whether two builds show the same attention and total: what the lens and the hover of the class would say. */
export function sameFigures(a: LayerInstance, b: LayerInstance): boolean {
  return a.summary === b.summary && (a.params === b.params || (!!a.params && !!b.params && a.params.equals(b.params)));
}

/**
 * What a build computes: its heads, head sizes and kv heads. Builds that differ only in what they are given
 * (T5's self and cross attention, one class) agree.
 */
export function figuresOf(l: LayerInstance): string {
  const a = l.attention;
  return a ? [a.heads, a.headDim, a.kvHeads, a.valueHeadDim].map((p) => p?.toString() ?? '').join(' ') : '';
}

/**
 * The class as its builds make it, when they disagree on the heads: `4, 8, 16 or 32 heads × 32`; `crowded`
 * when there were more builds than were kept, which it cannot list.
 */
export function perBuild(builds: readonly LayerInstance[], crowded: boolean): LayerInstance {
  const distinct = builds.filter((l, i) => builds.findIndex((m) => figuresOf(m) === figuresOf(l)) === i);
  const heads = (l: LayerInstance) => l.attention!.heads.constant!;
  const sorted = [...distinct].sort((a, b) => (heads(a) < heads(b) ? -1 : heads(a) > heads(b) ? 1 : 0));
  // What follows the heads (`× 32`, `· cross`): one text for all builds when only the heads differ.
  const rest = (l: LayerInstance) => l.summary.replace(/^[\d,]+ heads/, '');
  const oneRest = sorted.every((l) => l.summary !== rest(l) && rest(l) === rest(sorted[0]));
  const summary = crowded
    ? 'heads differ by build'
    : oneRest
      ? `${either(sorted.map((l) => String(heads(l))))} heads${rest(sorted[0])}`
      : either(sorted.map((l) => l.summary));
  const first = sorted[0];
  const params = builds.every((l) => l.params && first.params && l.params.equals(first.params))
    ? first.params
    : undefined;
  const attention = first.attention!;
  // Builds of other widths (a Swin's stages): only the tensors and sizes they all have.
  const tensors = first.tensors.filter((t) => builds.every((l) => l.tensors.some((u) => sameTensor(t, u))));
  const embed = builds.every((l) => l.attention!.embed.equals(attention.embed)) ? attention.embed : undefined;
  return {
    ...first,
    tensors,
    params,
    formula: params ? first.formula : '',
    unknownReason: params
      ? first.unknownReason
      : 'Its builds have different parameters: no one total; the tensors listed are those every build has.',
    inFeatures: embed,
    outFeatures: builds.every((l) => l.outFeatures && first.outFeatures?.equals(l.outFeatures))
      ? first.outFeatures
      : undefined,
    summary,
    // The first note says how the projections are laid out, which every build shares; the others are a build's.
    notes: [
      first.notes[0],
      `This class is built with different heads in this file${crowded ? ', more than are listed' : `: ${sorted.map((l) => l.summary).join('; ')}`}. Each build's figures are its own.`,
    ],
    attention: {
      ...attention,
      heads: Poly.symbol('h'),
      headDim: undefined,
      kvHeads: undefined,
      valueHeadDim: undefined,
      ...(embed ? {} : { embed: Poly.symbol('E'), kdim: Poly.symbol('E'), vdim: Poly.symbol('E'), output: undefined }),
      settings: [
        ['heads by build', crowded ? 'more than are listed' : sorted.map((l) => l.summary).join('; ')],
        ...attention.settings.filter(
          ([name]) => !/heads|head size/.test(name) && (embed || name !== 'query input features'),
        ),
      ],
    },
    builds: crowded ? undefined : sorted,
  };
}

/** `4, 8 or 16`. */
function either(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function sameTensor(a: LayerInstance['tensors'][number], b: LayerInstance['tensors'][number]): boolean {
  return (
    a.name === b.name &&
    a.shape.length === b.shape.length &&
    a.shape.every((d, i) => !!d && !!b.shape[i] && d.equals(b.shape[i]!))
  );
}
