/**
 * A Jupyter notebook as one Python document: its Python code cells in order, so a cell sees the
 * imports and constants of the cells above it, as it does in the editor.
 */
import type { CellLines } from '../core/ir/cellLines';

export interface NotebookText {
  readonly text: string;
  /** Where its cells lie in the text, which names its lines in messages and contexts. */
  readonly cells: CellLines;
}

interface Cell {
  readonly cell_type?: unknown;
  readonly source?: unknown;
  readonly metadata?: { readonly vscode?: { readonly languageId?: unknown } };
}

interface Notebook {
  readonly cells?: unknown;
  readonly metadata?: {
    readonly kernelspec?: { readonly language?: unknown };
    readonly language_info?: { readonly name?: unknown };
  };
}

/** Throws with the reason when `json` is not a notebook. */
export function notebookText(json: string): NotebookText {
  let notebook: Notebook;
  try {
    notebook = JSON.parse(json) as Notebook;
  } catch (e) {
    throw new Error(`not a notebook: invalid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof notebook !== 'object' || notebook === null || !Array.isArray(notebook.cells))
    throw new Error('not a notebook: no list of cells');
  const kernel =
    languageName(notebook.metadata?.kernelspec?.language ?? notebook.metadata?.language_info?.name) ?? 'python';
  const parts: string[] = [];
  /** For each part: its cell's position in the notebook and the part's first line in the text. */
  const starts: { cell: number; line: number }[] = [];
  let line = 0;
  (notebook.cells as Cell[]).forEach((cell, index) => {
    if (cell?.cell_type !== 'code' || (languageName(cell.metadata?.vscode?.languageId) ?? kernel) !== 'python') return;
    const text = withoutMagics(sourceOf(cell.source));
    starts.push({ cell: index + 1, line });
    parts.push(text);
    line += text.split('\n').length;
  });
  return {
    text: parts.join('\n'),
    cells: { firstLines: starts.map((s) => s.line), numbers: starts.map((s) => s.cell) },
  };
}

function languageName(name: unknown): string | undefined {
  return typeof name === 'string' ? name.toLowerCase() : undefined;
}

function sourceOf(source: unknown): string {
  if (typeof source === 'string') return source;
  return Array.isArray(source) ? source.filter((s) => typeof s === 'string').join('') : '';
}

/**
 * IPython's `%%cell` magics make the whole cell another language; `%line` magics and `!shell` lines are
 * not Python. They are blanked, not removed, so the lines after them keep their numbers.
 */
function withoutMagics(source: string): string {
  const lines = source.split('\n');
  if (lines[0].startsWith('%%')) return lines.map(() => '').join('\n');
  return lines.map((l) => (/^\s*[%!]/.test(l) ? '' : l)).join('\n');
}
