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
 *
 * It runs before every parse, typing included, so it jumps from one character that matters to the next
 * (the engine's regular expressions do the skipping): 1.2 ms for a 10,000-line file.
 */
import { blankRanges } from './blank';

/** Keywords that only begin a statement: never inside brackets (soft keywords and expression ones left out). */
const STATEMENT_KEYWORDS =
  /[ \t\f]*(?:assert|break|class|continue|def|del|elif|except|finally|global|import|nonlocal|pass|raise|return|try|while|with)(?![\p{L}\p{N}_])/uy;

/**
 * What changes the bracket count outside strings: a comment, a string, a continuation, a line, a bracket.
 * The expressions are shared by every call, each setting `lastIndex` just before it searches.
 */
const CODE = /[#"'\\\n()[\]{}]/g;
/** What ends or escapes a string, or opens a replacement field of an f-string. */
const IN_STRING: Record<string, RegExp> = { '"': /["\\\n{]/g, "'": /['\\\n{]/g };
const IDENTIFIER = /[\p{L}\p{N}_]/u;

/** `text` with every bracket it never closes made a space (the same text when it closes them all). */
export function blankUnclosedBrackets(text: string): string {
  const unclosed = unclosedBrackets(text);
  return blankRanges(
    text,
    unclosed.map((at) => ({ start: at, end: at + 1 })),
  );
}

function unclosedBrackets(text: string): number[] {
  const open: number[] = [];
  const found: number[] = [];
  let at = 0;
  for (;;) {
    CODE.lastIndex = at;
    const m = CODE.exec(text);
    if (!m) break;
    at = m.index;
    const c = text.charCodeAt(at);
    if (c === 0x23) {
      const newline = text.indexOf('\n', at);
      at = newline < 0 ? text.length : newline;
    } else if (c === 0x22 || c === 0x27) at = stringEnd(text, at);
    else if (c === 0x5c) at += 2;
    else if (c === 0x0a) {
      at++;
      // A line inside brackets that starts a statement ends them all, unclosed.
      STATEMENT_KEYWORDS.lastIndex = at;
      if (open.length && STATEMENT_KEYWORDS.test(text)) {
        found.push(...open);
        open.length = 0;
      }
    } else {
      if (c === 0x28 || c === 0x5b || c === 0x7b) open.push(at);
      else open.pop();
      at++;
    }
  }
  found.push(...open);
  return found.sort((a, b) => a - b);
}

/** The offset after the string whose opening quote is at `start`; an f-string's replacement fields are read as code. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  const triple = text[start + 1] === quote && text[start + 2] === quote;
  const formatted = isFormatted(text, start);
  const stop = IN_STRING[quote];
  let at = start + (triple ? 3 : 1);
  for (;;) {
    stop.lastIndex = at;
    const m = stop.exec(text);
    if (!m) return text.length;
    at = m.index;
    const c = text[at];
    if (c === '\\') at += 2;
    else if (c === '\n') {
      if (!triple) return at;
      at++;
    } else if (c === '{') {
      if (!formatted) at++;
      else if (text[at + 1] === '{') at += 2;
      else at = fieldEnd(text, at);
    } else if (!triple) return at + 1;
    else if (text[at + 1] === quote && text[at + 2] === quote) return at + 3;
    else at++;
  }
}

/** Whether the quote at `start` opens an f-string: an `f` among the letters just before it, which end no longer name. */
function isFormatted(text: string, start: number): boolean {
  let i = start;
  while (i > start - 2 && /[rbuf]/i.test(text[i - 1] ?? '')) i--;
  return !IDENTIFIER.test(text[i - 1] ?? '') && /f/i.test(text.slice(i, start));
}

/** The offset after the `}` that closes the replacement field opened at `start`. */
function fieldEnd(text: string, start: number): number {
  let depth = 0;
  let at = start + 1;
  for (;;) {
    CODE.lastIndex = at;
    const m = CODE.exec(text);
    if (!m) return text.length;
    at = m.index;
    const c = text.charCodeAt(at);
    if (c === 0x22 || c === 0x27) at = stringEnd(text, at);
    else if (c === 0x5c) at += 2;
    else if (c === 0x28 || c === 0x5b || c === 0x7b) {
      depth++;
      at++;
    } else if (c === 0x29 || c === 0x5d || c === 0x7d) {
      at++;
      if (depth-- === 0) return at;
    } else at++;
  }
}
