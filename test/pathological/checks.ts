/**
 * What must hold of everything the product prints, for any input: no raw control or bidirectional mark
 * from the file, no `$(` icon in a CodeLens title, valid JSON with exact counts, no negative, NaN or
 * infinite figure, no "0 heads"; and for generated inputs, the counts Python would compute.
 */
import type { Outcome } from './analyse';
import type { FuzzInput } from './input';
import type { Printed } from './surfaces';

/** C0 but tab and newline, DEL and C1: a terminal runs them. */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Those, and the marks that reorder or hide text (Trojan Source): an editor shows them as if they were not there. */
const HIDDEN_MARKS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
/**
 * A minus sign on a figure: not a subtraction (`d - 1`), an index (`x[-1]`), a range, or the coefficient of
 * a formula over names (`-20·(-x // 2)`), whose value may still be positive.
 */
const NEGATIVE = /(?<![\w.)\]}[])-\d[\d,]*(?![\d,·(\w])/;
const NOT_FINITE = /\b(NaN|Infinity)\b/;
const NO_HEADS = /(?<![\d,.])0 heads/;

function shown(text: string, at: number): string {
  return JSON.stringify(text.slice(Math.max(0, at - 60), at + 60));
}

/** The first of `texts` where `pattern` matches, shown around the match: one problem per surface and kind. */
function found(where: string, what: string, texts: readonly string[], pattern: RegExp): string[] {
  for (const text of texts) {
    const m = pattern.exec(text);
    if (m) return [`${where}: ${what} at ${shown(text, m.index)}`];
  }
  return [];
}

/** Markdown as it reads rendered: backslash escapes gone. */
const rendered = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/**
 * Rows of the CLI text that show figures: not diagnostics, and not layers shown as rejected, which quote
 * the sizes the file wrote (`rejected  8 → -273`) beside the diagnostic that says why.
 */
// Rows are `path:line:col  text`; a diagnostic or a refused layer quotes the sizes as written.
const figureRows = (text: string) =>
  text
    .split('\n')
    .filter((l) => !/^\S+\s+(error|warning|information|hint) \[/.test(l) && !/^\S+\s+\S+\s+rejected /.test(l));

export function surfaceProblems(p: Printed, source: string): string[] {
  const markdown = p.markdown.map(rendered);
  // Why a layer is refused quotes the sizes as written (`out_features is -273`): no figure of ours.
  const figures = {
    'CLI text': figureRows(p.text),
    'CodeLens title': p.lenses,
    'hover or panel': markdown.map((m) => m.replace(/would not build it: .*$/gm, '')),
  };
  // The file may name them itself; then they are its text, not a figure.
  const finite = NOT_FINITE.test(source)
    ? []
    : [...Object.entries(figures), ['JSON', [jsonFigures(p.json)]] as const].flatMap(([where, texts]) =>
        found(where, 'NaN or Infinity', texts, NOT_FINITE),
      );
  return [
    ...found('CLI text', 'a raw control character', [p.text], TERMINAL_CONTROLS),
    ...found('CodeLens title', 'a raw control or bidirectional mark', p.lenses, HIDDEN_MARKS),
    ...found('CodeLens title', 'an unescaped $(', p.lenses, /(?<!\\)\$\(/),
    ...found('hover or panel', 'a raw control or bidirectional mark', p.markdown, HIDDEN_MARKS),
    ...jsonProblems(p.json),
    ...Object.entries(figures).flatMap(([where, texts]) => [
      ...found(where, 'a negative figure', texts, NEGATIVE),
      ...found(where, '0 heads', texts, NO_HEADS),
    ]),
    ...finite,
  ];
}

/** The JSON without its diagnostics' messages, which quote what the framework would say (`units is Infinity`). */
function jsonFigures(json: string): string {
  try {
    const { files } = JSON.parse(json) as { files: { diagnostics?: unknown }[] };
    return JSON.stringify(files.map((f) => ({ ...f, diagnostics: [] })));
  } catch {
    return json;
  }
}

/** Valid; every bare number a non-negative integer JSON holds exactly, every count past 2^53 a non-negative decimal string. */
function jsonProblems(json: string): string[] {
  try {
    JSON.parse(json);
  } catch (e) {
    return [`JSON: not valid (${(e as Error).message})`];
  }
  const problems: string[] = [];
  // Strings skipped, the numbers between them read as written: JSON.parse would round them.
  for (const m of json.matchAll(/"(?:[^"\\]|\\.)*"|(-?\d[\d.eE+-]*)/g)) {
    const n = m[1];
    if (n !== undefined && !(/^\d+$/.test(n) && Number.isSafeInteger(Number(n))))
      problems.push(`JSON: the number ${n} at ${shown(json, m.index)}`);
    else if (n === undefined && /^"-\d+"$/.test(m[0])) problems.push(`JSON: the negative count ${m[0]}`);
  }
  return problems;
}

interface JsonFile {
  readonly error?: string;
  readonly layers: readonly {
    line: number;
    paramsExact: string | null;
    values: readonly { paramsExact: string | null }[];
  }[];
  readonly modules: readonly {
    line: number;
    paramsExact: string | null;
    built?: { paramsExact: string | null };
    attention?: { heads: unknown; headDim: unknown };
  }[];
  readonly instances?: readonly { line: number; paramsExact: string | null; totals?: readonly string[] }[];
}

/** Every count the JSON prints for a line: its layers', model classes' and models'. */
function countsAt(file: JsonFile, line: number): string[] {
  const at = <T extends { line: number }>(xs: readonly T[] | undefined) => (xs ?? []).filter((x) => x.line === line);
  const counts = [
    ...at(file.layers).flatMap((l) => [l.paramsExact, ...l.values.map((v) => v.paramsExact)]),
    ...at(file.modules).flatMap((m) => [m.paramsExact, m.built?.paramsExact ?? null]),
    ...at(file.instances).flatMap((i) => [i.paramsExact, ...(i.totals ?? [])]),
  ];
  return counts.filter((c): c is string => c !== null);
}

export function expectationProblems(input: FuzzInput, outcome: Outcome): string[] {
  const expect = input.expect;
  if (!expect) return [];
  const file = (JSON.parse(outcome.printed.json) as { files: JsonFile[] }).files[0];
  if (file.error) return expect.analysed ? [`refused: ${file.error}`] : [];
  const problems: string[] = [];
  for (const { line, params, required } of expect.counts ?? []) {
    const counts = [...new Set(countsAt(file, line))];
    const want = params?.toString() ?? 'no count';
    if (counts.some((c) => c !== want))
      problems.push(`line ${line}: printed ${counts.join(', ')} where Python gives ${want}`);
    else if (required && !counts.length) problems.push(`line ${line}: no count printed where Python gives ${want}`);
  }
  for (const { line, heads, headDim } of expect.heads ?? []) {
    const attention = file.modules.find((m) => m.line === line)?.attention;
    for (const [name, got, want] of [
      ['heads', attention?.heads, heads],
      ['headDim', attention?.headDim, headDim],
    ] as const) {
      if (got !== undefined && got !== null && String(got) !== want.toString())
        problems.push(`line ${line}: ${name} ${String(got)} where Python gives ${want}`);
    }
  }
  return problems;
}
