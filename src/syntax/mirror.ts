/**
 * A plain copy of one subtree, read once through a tree cursor. Every property of a tree-sitter `Node` is a
 * round trip into WASM (and `childForFieldName` builds a new Node each time); converting an expression reads
 * each node's type, fields and children several times, so it reads them from this copy. The copy is flat: a
 * row of integers per node in pre-order, in one typed array per subtree, because the copies live as long as
 * their statements and tens of thousands of small objects kept that long cost the garbage collector more
 * than the copy itself. A `Syn` is a short-lived view of one row.
 */
import type { Node } from './nodes';

type Cursor = ReturnType<Node['walk']>;
type Language = Node['tree']['language'];

/** Per language: its type and field names, and whether each node type is named (asked once per type). */
interface Tables {
  readonly language: Language;
  readonly named: boolean[];
  readonly fieldIds: Map<string, number>;
}
const TABLES = new WeakMap<Language, Tables>();

/** A row's columns: type id, field id (0: none), start and end offsets (-1 for punctuation), rows in the subtree. */
const TYPE = 0;
const FIELD = 1;
const START = 2;
const END = 3;
const SIZE = 4;
const STRIDE = 5;

/**
 * The type given to a node nested deeper than MAX_DEPTH, copied without its children: no rule knows it, so
 * it converts to unknown. Python itself refuses such nesting long before (its parser stops at 200 brackets).
 */
const TOO_DEEP = 'too_deep';
const TOO_DEEP_ID = -1;
const MAX_DEPTH = 3000;

class SynTree {
  constructor(
    readonly tables: Tables,
    readonly rows: Int32Array,
  ) {}
}

/** One node of a copy. Views are made on each read: compare them by `index`, not by identity. */
export class Syn {
  constructor(
    readonly tree: SynTree,
    readonly index: number,
  ) {}

  get type(): string {
    const id = this.tree.rows[this.index * STRIDE + TYPE];
    return id === TOO_DEEP_ID ? TOO_DEEP : this.tree.tables.language.types[id] ?? 'ERROR';
  }

  /** The field this node fills in its parent (`left`, `arguments`), if any. */
  get field(): string | null {
    const id = this.tree.rows[this.index * STRIDE + FIELD];
    return id === 0 ? null : this.tree.tables.language.fields[id] ?? null;
  }

  get named(): boolean {
    const id = this.tree.rows[this.index * STRIDE + TYPE];
    return id === TOO_DEEP_ID || this.tree.tables.named[id];
  }

  /** Offsets; -1 for punctuation (tokens that fill no field). */
  get start(): number {
    return this.tree.rows[this.index * STRIDE + START];
  }

  get end(): number {
    return this.tree.rows[this.index * STRIDE + END];
  }

  get children(): Syn[] {
    const out: Syn[] = [];
    forChildren(this, (i) => void out.push(new Syn(this.tree, i)));
    return out;
  }
}

/** Calls `each` with the row of every child of `node`, in order; stops when it returns true. */
function forChildren(node: Syn, each: (row: number) => boolean | void): void {
  const rows = node.tree.rows;
  const end = node.index + rows[node.index * STRIDE + SIZE];
  for (let i = node.index + 1; i < end; i += rows[i * STRIDE + SIZE]) if (each(i)) return;
}

/** What a language adapter reads of a subtree. */
export interface Shape {
  /** Node types copied without their children. */
  readonly leaves: ReadonlySet<string>;
  /** Node types whose tokens (operators) are read with their field and offsets. */
  readonly operatorsUnder: ReadonlySet<string>;
}

export function mirror(node: Node, shape: Shape, source: string): Syn {
  const language = node.tree.language;
  let tables = TABLES.get(language);
  if (!tables) TABLES.set(language, (tables = { language, named: [], fieldIds: new Map() }));
  const cursor = node.walk();
  try {
    return new Syn(new SynTree(tables, copy(cursor, tables, shape, source)), 0);
  } finally {
    cursor.delete();
  }
}

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

/** The rows being written, shared by every copy (one copy at a time) and grown as needed. */
let scratch = new Int32Array(STRIDE * 4096);

/**
 * Pre-order, with a stack of the open nodes instead of recursion: a chain of 50,000 operators is one tree. A
 * node with children takes its offsets from its first and last child where they were read, to spare two
 * round trips into WASM: a node spans exactly its children, extras included, except the types of UNSPANNED.
 */
function copy(cursor: Cursor, tables: Tables, shape: Shape, source: string): Int32Array {
  const { language, named: namedTable } = tables;
  /** The rows of the open nodes, and of the last child written under each. */
  const open: number[] = [];
  const lastChild: number[] = [];
  let count = 0;
  for (;;) {
    const id = cursor.nodeTypeId;
    const named = (namedTable[id] ??= language.nodeTypeIsNamed(id));
    const type = language.types[id] ?? 'ERROR';
    const parent = open.length > 0 ? open[open.length - 1] : -1;
    // A token is read only under the parents whose operators matter; elsewhere, and where it fills no
    // field, it is punctuation: its type alone.
    const parentType = parent >= 0 ? language.types[scratch[parent * STRIDE + TYPE]] ?? 'ERROR' : undefined;
    const field = parentType !== undefined && !FIELDLESS.has(parentType) && (named || shape.operatorsUnder.has(parentType)) ? cursor.currentFieldId : 0;
    if ((count + 1) * STRIDE > scratch.length) {
      const grown = new Int32Array(scratch.length * 2);
      grown.set(scratch);
      scratch = grown;
    }
    const row = count++;
    const at = row * STRIDE;
    scratch[at + TYPE] = id;
    scratch[at + FIELD] = field;
    scratch[at + START] = -1;
    scratch[at + END] = -1;
    scratch[at + SIZE] = 1;
    if (parent >= 0) lastChild[lastChild.length - 1] = row;
    if (named && open.length >= MAX_DEPTH) scratch[at + TYPE] = TOO_DEEP_ID;
    // Tokens have no children worth a round trip.
    else if (named && !shape.leaves.has(type) && cursor.gotoFirstChild()) {
      open.push(row);
      lastChild.push(-1);
      continue;
    }
    if (named || field !== 0) {
      const start = cursor.startIndex;
      scratch[at + START] = start;
      scratch[at + END] = (type === 'identifier' && identifierEnd(source, start)) || cursor.endIndex;
    }
    while (open.length > 0 && !cursor.gotoNextSibling()) {
      cursor.gotoParent();
      const done = open.pop()!;
      const last = lastChild.pop()!;
      const d = done * STRIDE;
      scratch[d + SIZE] = count - done;
      const spanned = !UNSPANNED.has(language.types[scratch[d + TYPE]] ?? 'ERROR');
      const first = scratch[(done + 1) * STRIDE + START];
      const lastEnd = scratch[last * STRIDE + END];
      scratch[d + START] = spanned && first >= 0 ? first : cursor.startIndex;
      scratch[d + END] = spanned && lastEnd >= 0 ? lastEnd : cursor.endIndex;
    }
    if (open.length === 0) return scratch.slice(0, count * STRIDE);
  }
}

const ASCII_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Where a name written in ASCII ends, read from the text to spare a round trip into WASM; 0 when the tree must
 * say (a character past ASCII may continue it, and a name the parser supplied is empty).
 */
function identifierEnd(source: string, start: number): number {
  ASCII_NAME.lastIndex = start;
  if (!ASCII_NAME.test(source)) return 0;
  const end = ASCII_NAME.lastIndex;
  return source.charCodeAt(end) >= 128 ? 0 : end;
}

/** Named children, without the comments tree-sitter attaches anywhere. */
export function namedOf(node: Syn): Syn[] {
  const { tables, rows } = node.tree;
  const out: Syn[] = [];
  forChildren(node, (i) => {
    const id = rows[i * STRIDE + TYPE];
    if (id === TOO_DEEP_ID || (tables.named[id] && tables.language.types[id] !== 'comment')) out.push(new Syn(node.tree, i));
  });
  return out;
}

export function fieldOf(node: Syn, field: string): Syn | undefined {
  const { rows } = node.tree;
  const id = fieldId(node.tree.tables, field);
  let found = -1;
  forChildren(node, (i) => {
    if (rows[i * STRIDE + FIELD] === id) found = i;
    return found >= 0;
  });
  return found >= 0 ? new Syn(node.tree, found) : undefined;
}

export function fieldsOf(node: Syn, field: string): Syn[] {
  const { rows } = node.tree;
  const id = fieldId(node.tree.tables, field);
  const out: Syn[] = [];
  forChildren(node, (i) => {
    if (rows[i * STRIDE + FIELD] === id) out.push(new Syn(node.tree, i));
  });
  return out;
}

/** A field's id in the language (-1, which no row holds, for a name it does not have). */
function fieldId(tables: Tables, field: string): number {
  let id = tables.fieldIds.get(field);
  if (id === undefined) tables.fieldIds.set(field, (id = tables.language.fields.indexOf(field)));
  return id;
}

/** The nodes of type `type` below `node` (not `node` itself) in document order, outside subtrees of type `outside`. */
export function descendantsOfType(node: Syn, type: string, outside: string): Syn[] {
  const { tables, rows } = node.tree;
  const types = tables.language.types;
  const end = node.index + rows[node.index * STRIDE + SIZE];
  const out: Syn[] = [];
  for (let i = node.index + 1; i < end; ) {
    const name = types[rows[i * STRIDE + TYPE]];
    if (name === outside) {
      i += rows[i * STRIDE + SIZE];
      continue;
    }
    if (name === type) out.push(new Syn(node.tree, i));
    i++;
  }
  return out;
}

/** The deepest node spanning [start, end), as `descendantForIndex` finds it, if it spans exactly that. */
export function nodeAt(syn: Syn, start: number, end: number): Syn | undefined {
  const rows = syn.tree.rows;
  let node = syn.index;
  for (;;) {
    const last = node + rows[node * STRIDE + SIZE];
    let inner = -1;
    for (let i = node + 1; i < last && inner < 0; i += rows[i * STRIDE + SIZE]) {
      const s = rows[i * STRIDE + START];
      if (s !== -1 && s <= start && end <= rows[i * STRIDE + END]) inner = i;
    }
    if (inner < 0) break;
    node = inner;
  }
  return rows[node * STRIDE + START] === start && rows[node * STRIDE + END] === end ? new Syn(syn.tree, node) : undefined;
}

export function synText(node: Syn, source: string): string {
  return source.slice(node.start, node.end);
}
