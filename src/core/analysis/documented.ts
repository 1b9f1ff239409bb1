/**
 * Which configuration a place shows. The user's choice first: a place a chosen configuration builds shows
 * that build alone. Then the configurations a file documents without building them, each name of a preset
 * table (`GPT.from_pretrained('gpt2')`): they build the same classes and layers with other sizes, so a site,
 * part or class shows one of them, the first that builds it, in the order of `Documented`, and none when
 * another model builds it (one the file builds in its body, a factory, a caller, a configuration's
 * defaults). Every one of them is still listed with its total.
 */

/** Each documented context (a model's outermost context) by its rank: the first is the one shown. */
export type Documented = ReadonlyMap<string, number>;

/** What decides the configuration each place shows. */
export interface Showing {
  readonly documented: Documented;
  /** The configurations the user chose, by name or context (namesConfiguration). */
  readonly chosen: readonly string[];
}

export function documentedOf(contexts: readonly string[]): Documented {
  const ranks = new Map<string, number>();
  for (const c of contexts) if (!ranks.has(c)) ranks.set(c, ranks.size);
  return ranks;
}

/** What a run built at a place, and whether it was a real build (not the place's own code run with names). */
export const contextOf = (t: { readonly context: string }): string => t.context;
export const realBuild = (t: { readonly symbolic?: boolean }): boolean => !t.symbolic;

/** The model a context starts from: `GPT(GPTConfig())` for `GPT(GPTConfig()) via Block ×12`. */
export function modelOf(context: string): string {
  const via = context.indexOf(' via ');
  return via < 0 ? context : context.slice(0, via);
}

/** `'gpt2-medium'`: a name as a Python string literal, as a preset's context writes it. */
export function pythonString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/**
 * Whether `name` names the configuration whose model context is `model`: the context itself
 * (`GPT.from_pretrained('gpt2')`), a factory's name (`vit_base` for `vit_base()`), a preset table's name
 * (`gpt2` for `GPT.from_pretrained('gpt2')` and `build_encoder('gpt2')`), or a configuration file's
 * (`config.json` for `LlamaModel(LlamaConfig(**config.json))`).
 */
export function namesConfiguration(name: string, model: string): boolean {
  return (
    model === name ||
    model === `${name}()` ||
    model.endsWith(`(${pythonString(name)})`) ||
    model.endsWith(`(**${name}))`) ||
    model.endsWith(`(**${name})`)
  );
}

/**
 * The shortest name `--config` takes for a configuration (namesConfiguration): a preset's (`gpt2-medium` for
 * `GPT.from_pretrained('gpt2-medium')`), a factory's (`vit_base` for `vit_base()`), a configuration file's
 * (`params.json`), else the model context itself.
 */
export function configurationName(model: string): string {
  const preset = /\('((?:[^'\\\n]|\\.)*)'\)$/.exec(model);
  const name = preset
    ? preset[1].replace(/\\n/g, '\n').replace(/\\(.)/g, '$1')
    : (/\(\*\*([^()*]+)\)\)?$/.exec(model)?.[1] ?? /^([A-Za-z_]\w*)\(\)$/.exec(model)?.[1]);
  return name !== undefined && namesConfiguration(name, model) ? name : model;
}

/** Whether a context belongs to one of the chosen configurations. */
export function isChosen(chosen: readonly string[], context: string): boolean {
  const model = modelOf(context);
  return chosen.some((name) => namesConfiguration(name, model));
}

/**
 * Of what the runs built at one place, what it shows: where a chosen configuration built it, its builds and
 * no other model's; else everything but the documented configurations other than its first. `own(t)`: `t`
 * is a real build, not the place's own code run with names for its sizes, which stays for its formula.
 */
export function shownAmong<T>(
  items: readonly T[],
  showing: Showing,
  contextOf: (t: T) => string,
  own: (t: T) => boolean,
): readonly T[] {
  if (showing.chosen.length && items.some((t) => isChosen(showing.chosen, contextOf(t))))
    return items.filter((t) => isChosen(showing.chosen, contextOf(t)) || !own(t));
  const { documented } = showing;
  if (!documented.size) return items;
  let first: number | undefined;
  let other = false;
  for (const t of items) {
    const rank = documented.get(modelOf(contextOf(t)));
    if (rank === undefined) other ||= own(t);
    else if (first === undefined || rank < first) first = rank;
  }
  if (first === undefined) return items;
  return items.filter((t) => {
    const rank = documented.get(modelOf(contextOf(t)));
    return rank === undefined || (!other && rank === first);
  });
}
