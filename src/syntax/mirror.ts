/**
 * A plain JavaScript copy of one subtree, read once through a tree cursor. Every property of a tree-sitter
 * `Node` is a round trip into WASM (and `childForFieldName` builds a new Node each time); converting an
 * expression reads each node's type, fields and children several times, so it reads them from this copy.
 */
import type { Span } from '../core/expr';
import type { Node } from './nodes';

export interface Syn {
  readonly type: string;
  /** The field this node fills in its parent (`left`, `arguments`), if any. */
  readonly field: string | null;
  readonly named: boolean;
  /** Offsets; -1 for punctuation (tokens that fill no field). */
  readonly start: number;
  readonly end: number;
  readonly children: readonly Syn[];
}

type Cursor = ReturnType<Node['walk']>;
type Language = Node['tree']['language'];

/** Per language: whether each node type is named, and the shared copy of each punctuation token. */
interface Tables {
  readonly named: boolean[];
  readonly punctuation: Syn[];
}
const TABLES = new WeakMap<Language, Tables>();

const NO_CHILDREN: readonly Syn[] = [];

/**
 * The type given to a node nested deeper than MAX_DEPTH, copied without its children: no rule knows it, so
 * it converts to unknown. Python itself refuses such nesting long before (its parser stops at 200 brackets).
 */
const TOO_DEEP = 'too_deep';
const MAX_DEPTH = 3000;

/** What a language adapter reads of a subtree. */
export interface Shape {
  /** Node types copied without their children. */
  readonly leaves: ReadonlySet<string>;
  /** Node types whose tokens (operators) are read with their field and offsets. */
  readonly operatorsUnder: ReadonlySet<string>;
}

export function mirror(node: Node, shape: Shape): Syn {
  const language = node.tree.language;
  let tables = TABLES.get(language);
  if (!tables) TABLES.set(language, (tables = { named: [], punctuation: [] }));
  const cursor = node.walk();
  try {
    return copy(cursor, language, tables, shape);
  } finally {
    cursor.delete();
  }
}

type Open = { -readonly [K in keyof Syn]: Syn[K] };

/**
 * Parent types whose children fill no field in the grammars (none has one in the fixtures and 600 files of
 * public model code): their children's field is not asked for. Every cursor read is a round trip into WASM.
 */
const FIELDLESS = new Set([
  'module', 'program', 'block', 'statement_block', 'argument_list', 'arguments', 'expression_statement', 'parameters', 'lambda_parameters',
  'string', 'concatenated_string', 'tuple', 'list', 'set', 'dictionary', 'parenthesized_expression', 'expression_list', 'pattern_list',
  'tuple_pattern', 'list_splat', 'dictionary_splat', 'conditional_expression', 'return_statement', 'assert_statement', 'decorator',
  'dotted_name', 'slice', 'type', 'generic_type', 'type_parameter', 'with_clause',
]);

/**
 * Node types whose children do not span them (hidden tokens at an end): checked over every tree of the
 * fixtures and of public model code, whole and cut at random places.
 */
const UNSPANNED = new Set(['module', 'ERROR', 'string_content', 'format_specifier']);

/**
 * Pre-order, with a stack of the open nodes instead of recursion: a chain of 50,000 operators is one tree. A
 * node with children takes its offsets from its first and last child where they were read, to spare two
 * round trips into WASM: a node spans exactly its children, extras included, except the types of UNSPANNED.
 */
function copy(cursor: Cursor, language: Language, tables: Tables, shape: Shape): Syn {
  const open: Open[] = [];
  /** The children of every open node, in order, and where each open node's begin: each node gets an exact-size array once done. */
  const pending: Syn[] = [];
  const bases: number[] = [];
  let root: Syn | undefined;
  for (;;) {
    const id = cursor.nodeTypeId;
    const named = (tables.named[id] ??= language.nodeTypeIsNamed(id));
    const type = language.types[id] ?? 'ERROR';
    const parent = open.length > 0 ? open[open.length - 1] : undefined;
    // A token is read only under the parents whose operators matter; elsewhere, and where it fills no
    // field, it is punctuation: its type alone, one shared copy per type.
    const field = parent && !FIELDLESS.has(parent.type) && (named || shape.operatorsUnder.has(parent.type)) ? language.fields[cursor.currentFieldId] ?? null : null;
    let node: Open;
    if (!named && field === null) node = (tables.punctuation[id] ??= { type, field, named, start: -1, end: -1, children: NO_CHILDREN }) as Open;
    else node = { type, field, named, start: -1, end: -1, children: NO_CHILDREN } as Open;
    if (parent) pending.push(node);
    else root = node;
    if (named && open.length >= MAX_DEPTH) node.type = TOO_DEEP;
    // Tokens have no children worth a round trip.
    else if (named && !shape.leaves.has(type) && cursor.gotoFirstChild()) {
      open.push(node);
      bases.push(pending.length);
      continue;
    }
    if (named || field !== null) {
      node.start = cursor.startIndex;
      node.end = cursor.endIndex;
    }
    while (open.length > 0 && !cursor.gotoNextSibling()) {
      cursor.gotoParent();
      const done = open.pop()!;
      const base = bases.pop()!;
      done.children = pending.slice(base);
      pending.length = base;
      const first = done.children[0];
      const last = done.children[done.children.length - 1];
      const spanned = !UNSPANNED.has(done.type);
      done.start = spanned && first.start >= 0 ? first.start : cursor.startIndex;
      done.end = spanned && last.end >= 0 ? last.end : cursor.endIndex;
    }
    if (open.length === 0) return root!;
  }
}

/** Named children, without the comments tree-sitter attaches anywhere. */
export function namedOf(node: Syn): Syn[] {
  return node.children.filter((c) => c.named && c.type !== 'comment');
}

export function fieldOf(node: Syn, field: string): Syn | undefined {
  return node.children.find((c) => c.field === field);
}

export function fieldsOf(node: Syn, field: string): Syn[] {
  return node.children.filter((c) => c.field === field);
}

export function synText(node: Syn, source: string): string {
  return source.slice(node.start, node.end);
}

/**
 * Line and column of offsets, as tree-sitter counts them (rows at '\n', columns in UTF-16 code units), from a
 * table of line starts instead of a WASM call per position.
 */
export class LineIndex {
  private starts?: number[];
  private last = 0;

  constructor(private readonly source: string) {}

  span(start: number, end: number): Span {
    const [startLine, startChar] = this.position(start);
    const [endLine, endChar] = this.position(end);
    return { start, end, startLine, startChar, endLine, endChar };
  }

  private position(offset: number): [number, number] {
    const starts = (this.starts ??= lineStarts(this.source));
    // Conversion reads nearby offsets one after another: try the last line found first.
    let lo = this.last;
    if (starts[lo] > offset || (lo + 1 < starts.length && starts[lo + 1] <= offset)) {
      lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      this.last = lo;
    }
    return [lo, offset - starts[lo]];
  }
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
