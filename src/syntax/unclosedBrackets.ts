/**
 * Python brackets the text never closes, blanked before the first parse. tree-sitter-python reads what
 * follows an unclosed `{` as more of the dict, and each step of that reading costs more than the last: an
 * unclosed dict in block 558 of a 3,500-block file took 3.3 s to parse (78 ms with the `{` a space), and
 * nothing the parser reports (its progress checks come as often as ever) tells this apart from plain code.
 * Python's own tokenizer tells it at once: a line that starts with `class`, `def`, `import`, `return` and
 * the like begins a statement, which no bracket may hold, so every bracket open there was never closed (as
 * Python says, "'{' was never closed"); so is every bracket open at the end of the text. Blanking the
 * opener keeps offsets, lines and columns; the statement it broke stays an error (swallowed.ts blanks it if
 * it still runs over later statements), and what follows is parsed as the statements it is.
 */
import { blankRanges, type TextRange } from './blank';

/** Keywords that only begin a statement: never inside brackets (soft keywords and expression ones left out). */
const STATEMENT_KEYWORDS = new Set([
  'assert',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'except',
  'finally',
  'global',
  'import',
  'nonlocal',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
]);

const OPENERS = '([{';
const CLOSERS = ')]}';

function isIdentifierChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}_]/u.test(c);
}

/** `text` with every bracket it never closes made a space (the same text when it closes them all). */
export function blankUnclosedBrackets(text: string): string {
  const unclosed = new Scanner(text).unclosed();
  return blankRanges(
    text,
    unclosed.map((at): TextRange => ({ start: at, end: at + 1 })),
  );
}

class Scanner {
  private at = 0;
  /** Offsets of the brackets open at `at`, innermost last. */
  private readonly open: number[] = [];
  private readonly found: number[] = [];

  constructor(private readonly text: string) {}

  unclosed(): number[] {
    const { text } = this;
    while (this.at < text.length) {
      const c = text[this.at];
      if (c === '#') this.skipComment();
      else if (c === '"' || c === "'") this.string();
      else if (c === '\\') this.at += 2;
      else if (c === '\n') {
        this.at++;
        if (this.open.length) this.lineStart();
      } else {
        if (OPENERS.includes(c)) this.open.push(this.at);
        else if (CLOSERS.includes(c)) this.open.pop();
        this.at++;
      }
    }
    this.found.push(...this.open);
    return this.found.sort((a, b) => a - b);
  }

  /** A line inside brackets: one that starts with a statement keyword ends them all, unclosed. */
  private lineStart(): void {
    const { text } = this;
    let i = this.at;
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\f') i++;
    let end = i;
    while (isIdentifierChar(text[end])) end++;
    if (STATEMENT_KEYWORDS.has(text.slice(i, end)) && !isIdentifierChar(text[end])) {
      this.found.push(...this.open);
      this.open.length = 0;
    }
  }

  private skipComment(): void {
    const newline = this.text.indexOf('\n', this.at);
    this.at = newline < 0 ? this.text.length : newline;
  }

  /** A string from its opening quote; an f-string's replacement fields are read as code, strings and all. */
  private string(): void {
    const { text } = this;
    const quote = text[this.at];
    const prefix = this.prefix();
    const formatted = /f/i.test(prefix);
    const triple = text[this.at + 1] === quote && text[this.at + 2] === quote;
    this.at += triple ? 3 : 1;
    while (this.at < text.length) {
      const c = text[this.at];
      if (c === '\\') this.at += 2;
      else if (c === quote && (!triple || (text[this.at + 1] === quote && text[this.at + 2] === quote))) {
        this.at += triple ? 3 : 1;
        return;
      } else if (c === '\n' && !triple) return;
      else if (formatted && c === '{') {
        if (text[this.at + 1] === '{') this.at += 2;
        else this.field();
      } else this.at++;
    }
  }

  /** The letters just before a quote that prefix it (`rb`, `f`), or none when they end a longer name. */
  private prefix(): string {
    let start = this.at;
    while (start > this.at - 2 && /[rbuf]/i.test(this.text[start - 1] ?? '')) start--;
    return isIdentifierChar(this.text[start - 1]) ? '' : this.text.slice(start, this.at);
  }

  /** An f-string's replacement field, from its `{` to the `}` that closes it. */
  private field(): void {
    const { text } = this;
    let depth = 0;
    this.at++;
    while (this.at < text.length) {
      const c = text[this.at];
      if (c === '"' || c === "'") this.string();
      else if (c === '\\') this.at += 2;
      else if (OPENERS.includes(c)) {
        depth++;
        this.at++;
      } else if (CLOSERS.includes(c)) {
        this.at++;
        if (depth-- === 0) return;
      } else this.at++;
    }
  }
}
