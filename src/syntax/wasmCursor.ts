/**
 * A tree cursor that moves without copying itself in and out of WASM on every step. web-tree-sitter's
 * `TreeCursor` writes its four words into the module's transfer buffer before each call and reads them back
 * after it; the C side reads the cursor from that buffer and writes it back there after a move. A copy of a
 * subtree makes some 200,000 moves in a row with nothing else between them, so the cursor can stay in the
 * buffer from the first move to the last and be read back once. Where the module does not have the calls
 * (another build of web-tree-sitter), the plain cursor is used.
 */
import type { Node } from './nodes';

/** The calls of tree-sitter's Emscripten module that a cursor's moves and reads are made of. */
interface Exports {
  _ts_init(): number;
  getValue(pointer: number, type: 'i32'): number;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
}

const CALLS: readonly (keyof Exports)[] = [
  '_ts_init',
  'getValue',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
];

/** What a copy reads through a cursor. */
export interface Cursor {
  readonly nodeTypeId: number;
  readonly currentFieldId: number;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}

let loaded: { exports: Exports; buffer: number } | undefined;

/**
 * Takes the Emscripten module object web-tree-sitter was initialised with (its exports are set on it), once
 * `Parser.init` has returned: `_ts_init` only reports where the transfer buffer is.
 */
export function useModule(options: object): void {
  const exports = options as Partial<Exports>;
  loaded = CALLS.every((c) => typeof exports[c] === 'function')
    ? { exports: exports as Exports, buffer: (exports as Exports)._ts_init() }
    : undefined;
}

/** Whether cursors stay in the transfer buffer (the module loaded last has every call they make). */
export function buffered(): boolean {
  return loaded !== undefined;
}

/** Runs `read` with a cursor on `node`; nothing else may call into tree-sitter meanwhile. */
export function withCursor<T>(node: Node, read: (cursor: Cursor) => T): T {
  const cursor = node.walk();
  try {
    if (!loaded) return read(cursor);
    const { exports, buffer } = loaded;
    // The one read through the plain cursor puts it into the transfer buffer.
    void cursor.nodeTypeId;
    const tree = (cursor as unknown as { tree: { 0: number } }).tree[0];
    try {
      return read(new BufferedCursor(exports, tree));
    } finally {
      // Moves may have grown the cursor's stack: the plain cursor takes its words back before it is deleted.
      const words = cursor as unknown as Record<number, number>;
      for (let i = 0; i < 4; i++) words[i] = exports.getValue(buffer + 4 * i, 'i32');
    }
  } finally {
    cursor.delete();
  }
}

class BufferedCursor implements Cursor {
  constructor(
    private readonly m: Exports,
    private readonly tree: number,
  ) {}

  get nodeTypeId(): number {
    return this.m._ts_tree_cursor_current_node_type_id_wasm(this.tree);
  }

  get currentFieldId(): number {
    return this.m._ts_tree_cursor_current_field_id_wasm(this.tree);
  }

  get startIndex(): number {
    return this.m._ts_tree_cursor_start_index_wasm(this.tree);
  }

  get endIndex(): number {
    return this.m._ts_tree_cursor_end_index_wasm(this.tree);
  }

  gotoFirstChild(): boolean {
    return this.m._ts_tree_cursor_goto_first_child_wasm(this.tree) === 1;
  }

  gotoNextSibling(): boolean {
    return this.m._ts_tree_cursor_goto_next_sibling_wasm(this.tree) === 1;
  }

  gotoParent(): boolean {
    return this.m._ts_tree_cursor_goto_parent_wasm(this.tree) === 1;
  }
}
