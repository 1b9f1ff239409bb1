/**
 * Copies one subtree out of the parser, read once through a tree cursor, into the rows of syn.ts. Every
 * property of a tree-sitter `Node` is a round trip into WASM (and `childForFieldName` builds a new Node each
 * time); converting an expression reads each node's type, fields and children several times, so it reads
 * them from the copy.
 */
import type { Node } from './nodes';
import {
  END,
  FIELD,
  fieldId,
  SIZE,
  START,
  STRIDE,
  Syn,
  SynTree,
  tablesOf,
  TOO_DEEP_ID,
  TYPE,
  type Tables,
} from './syn';
import { withCursor, type Cursor } from './wasmCursor';

/** Below this depth a node is copied without its children (see TOO_DEEP). */
const MAX_DEPTH = 3000;

/** What a language adapter reads of a subtree. */
export interface Shape {
  /** Node types copied without their children. */
  readonly leaves: ReadonlySet<string>;
  /** Node types whose tokens (operators) are read with their field and offsets. */
  readonly operatorsUnder: ReadonlySet<string>;
}

export function mirror(node: Node, shape: Shape, source: string): Syn {
  const tables = tablesOf(node.tree.language);
  return new Syn(
    new SynTree(
      tables,
      withCursor(node, (cursor) => copy(cursor, tables, shape, source)),
    ),
    0,
  );
}

/**
 * Parent types whose children fill no field in the grammars (none has one in the fixtures and 600 files of
 * public model code): their children's field is not asked for. Every cursor read is a round trip into WASM.
 */
const FIELDLESS = new Set([
  'module',
  'program',
  'block',
  'statement_block',
  'argument_list',
  'arguments',
  'expression_statement',
  'parameters',
  'lambda_parameters',
  'string',
  'concatenated_string',
  'tuple',
  'list',
  'set',
  'dictionary',
  'parenthesized_expression',
  'expression_list',
  'pattern_list',
  'tuple_pattern',
  'list_splat',
  'dictionary_splat',
  'conditional_expression',
  'return_statement',
  'assert_statement',
  'decorator',
  'dotted_name',
  'slice',
  'type',
  'generic_type',
  'type_parameter',
  'with_clause',
]);

/**
 * Parent types whose children fill their fields in a fixed order when nothing else is among them (`object .
 * attribute`, `function arguments`, `name = value`): a child's field is then taken from its place, and read
 * from the tree only under a parent of another shape (a comment or an error among its children). They are
 * the commonest parents of all; each field read is a round trip into WASM.
 */
const IN_ORDER: Readonly<Record<string, readonly { readonly field?: string; readonly type?: string }[]>> = {
  attribute: [{ field: 'object' }, { type: '.' }, { field: 'attribute', type: 'identifier' }],
  call: [{ field: 'function' }, { field: 'arguments' }],
  keyword_argument: [{ field: 'name', type: 'identifier' }, { type: '=' }, { field: 'value' }],
};

/**
 * Node types whose children do not span them (hidden tokens at an end): checked over every tree of the
 * fixtures and of public model code, whole and cut at random places.
 */
const UNSPANNED = new Set(['module', 'ERROR', 'string_content', 'format_specifier']);

/** What the copy needs to know of a node type, as bits: a type's name is looked up once per shape, not per node. */
const KNOWN = 1;
const NAMED = 2;
const LEAF = 4;
const FIELDLESS_TYPE = 8;
const IN_ORDER_TYPE = 16;
const OPERATORS = 32;
const UNSPANNED_TYPE = 64;
const IDENTIFIER = 128;

function flagsFor(tables: Tables, shape: Shape): Uint8Array {
  let flags = tables.flags.get(shape);
  // Type ids are 16 bits (ERROR is 65535).
  if (!flags) tables.flags.set(shape, (flags = new Uint8Array(65536)));
  return flags;
}

function typeFlags(tables: Tables, shape: Shape, flags: Uint8Array, id: number): number {
  const type = tables.language.types[id] ?? 'ERROR';
  const named = (tables.named[id] ??= tables.language.nodeTypeIsNamed(id));
  const bit = (on: boolean, b: number) => (on ? b : 0);
  return (flags[id] =
    KNOWN |
    bit(named, NAMED) |
    bit(shape.leaves.has(type), LEAF) |
    bit(FIELDLESS.has(type), FIELDLESS_TYPE) |
    bit(type in IN_ORDER, IN_ORDER_TYPE) |
    bit(shape.operatorsUnder.has(type), OPERATORS) |
    bit(UNSPANNED.has(type), UNSPANNED_TYPE) |
    bit(type === 'identifier', IDENTIFIER));
}

/** The rows being written, shared by every copy (one copy at a time) and grown as needed. */
let scratch = new Int32Array(STRIDE * 4096);

/**
 * Pre-order, with a stack of the open nodes instead of recursion: a chain of 50,000 operators is one tree. A
 * node with children takes its offsets from its first and last child where they were read, to spare two
 * round trips into WASM: a node spans exactly its children, extras included, except the types of UNSPANNED.
 */
function copy(cursor: Cursor, tables: Tables, shape: Shape, source: string): Int32Array {
  const flags = flagsFor(tables, shape);
  /** The rows of the open nodes, and of the last child written under each. */
  const open: number[] = [];
  const lastChild: number[] = [];
  let count = 0;
  for (;;) {
    const id = cursor.nodeTypeId;
    const f = flags[id] || typeFlags(tables, shape, flags, id);
    const named = (f & NAMED) !== 0;
    const parent = open.length > 0 ? open[open.length - 1] : -1;
    // A token is read only under the parents whose operators matter; elsewhere, and where it fills no
    // field, it is punctuation: its type alone.
    const p = parent >= 0 ? flags[scratch[parent * STRIDE + TYPE]] : 0;
    const asked = parent >= 0 && (p & (FIELDLESS_TYPE | IN_ORDER_TYPE)) === 0 && (named || (p & OPERATORS) !== 0);
    const field = asked ? cursor.currentFieldId : 0;
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
    else if (named && (f & LEAF) === 0 && cursor.gotoFirstChild()) {
      open.push(row);
      lastChild.push(-1);
      continue;
    }
    if (named || field !== 0) {
      const start = cursor.startIndex;
      scratch[at + START] = start;
      scratch[at + END] = ((f & IDENTIFIER) !== 0 && identifierEnd(source, start)) || cursor.endIndex;
    }
    while (open.length > 0 && !cursor.gotoNextSibling()) {
      cursor.gotoParent();
      const done = open.pop()!;
      const last = lastChild.pop()!;
      const d = done * STRIDE;
      scratch[d + SIZE] = count - done;
      const df = flags[scratch[d + TYPE]];
      if (df & IN_ORDER_TYPE) fieldsInOrder(cursor, tables, done, IN_ORDER[tables.language.types[scratch[d + TYPE]]]);
      const spanned = (df & UNSPANNED_TYPE) === 0;
      const first = scratch[(done + 1) * STRIDE + START];
      const lastEnd = scratch[last * STRIDE + END];
      scratch[d + START] = spanned && first >= 0 ? first : cursor.startIndex;
      scratch[d + END] = spanned && lastEnd >= 0 ? lastEnd : cursor.endIndex;
    }
    if (open.length === 0) return scratch.slice(0, count * STRIDE);
  }
}

/** Sets the fields of the children of row `parent` (the cursor's node) from their order, or else from the tree. */
function fieldsInOrder(cursor: Cursor, tables: Tables, parent: number, order: (typeof IN_ORDER)[string]): void {
  const { language, named } = tables;
  const end = parent + scratch[parent * STRIDE + SIZE];
  let k = 0;
  let fits = true;
  for (let row = parent + 1; row < end && fits; row += scratch[row * STRIDE + SIZE], k++) {
    const id = scratch[row * STRIDE + TYPE];
    const type = language.types[id];
    const want = order[k];
    fits =
      want !== undefined &&
      (want.field === undefined
        ? !named[id] && type === want.type
        : named[id] === true &&
          type !== 'comment' &&
          type !== 'ERROR' &&
          (want.type === undefined || type === want.type));
  }
  if (fits && k === order.length) {
    k = 0;
    for (let row = parent + 1; row < end; row += scratch[row * STRIDE + SIZE], k++) {
      const field = order[k].field;
      if (field !== undefined) scratch[row * STRIDE + FIELD] = fieldId(tables, field);
    }
    return;
  }
  if (!cursor.gotoFirstChild()) return;
  for (let row = parent + 1; row < end; row += scratch[row * STRIDE + SIZE]) {
    const id = scratch[row * STRIDE + TYPE];
    if (id === TOO_DEEP_ID || named[id]) scratch[row * STRIDE + FIELD] = cursor.currentFieldId;
    cursor.gotoNextSibling();
  }
  cursor.gotoParent();
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
