/**
 * Where the file states a configuration, read from the context the analysis named it with: the statement
 * of a model built at module level (`GPT (line 202)`), the function or method a factory or preset table runs
 * (`vit_base()`, `GPT.from_pretrained('gpt2')`), the configuration class whose defaults it takes
 * (`GPT(GPTConfig())`), a deprecated timm name's key in its map. None for the user's own, nor in a notebook
 * (its lines are named by cell).
 */
import type { Span } from '../ir/expr';
import { definitions } from '../ir/moduleNames';
import type { SourceModel } from '../ir/source';
import { deprecationKey } from './timmDeprecations';

const PLACE = / \(line (\d+)\)$/;
const CALLED = /^([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\((.*)\)$/s;
const DEFAULTS = /^(?:[A-Za-z_]\w*=)?([A-Za-z_]\w*)\(\)$/;

/** The class or function a model's context calls (`Transformer` for `Transformer(ModelArgs())`), not a method. */
export function calledName(model: string): string | undefined {
  const called = CALLED.exec(model);
  return called && !called[2] ? called[1] : undefined;
}

export function configurationSource(model: SourceModel, context: string, own: boolean): Span | undefined {
  if (own) return undefined;
  const place = PLACE.exec(context);
  if (place) {
    const line = Number(place[1]) - 1;
    return model.fragments.find((f) => f.span.startLine <= line && line <= f.span.endLine)?.span;
  }
  const called = CALLED.exec(context);
  if (!called) return undefined;
  const [, first, method, args] = called;
  const top = (kind: 'class' | 'function', name: string) => definitions(model, kind).find((d) => d.name === name);
  const spanOf = (d: { fragment: number; scope: number }) => model.fragments[d.fragment].scopes[d.scope].nameSpan;
  if (method) {
    const cls = top('class', first);
    if (!cls) return undefined;
    const scopes = model.fragments[cls.fragment].scopes;
    const index = scopes.findIndex((s) => s.parent === cls.scope && s.kind === 'function' && s.name === method);
    return index >= 0 ? scopes[index].nameSpan : undefined;
  }
  const fn = top('function', first);
  if (fn) return spanOf(fn);
  if (!args) {
    const deprecated = deprecationKey(model, first);
    if (deprecated) return deprecated;
  }
  const config = DEFAULTS.exec(args);
  const cls = config && top('class', config[1]);
  return cls ? spanOf(cls) : undefined;
}
