/**
 * A subtree copied out of the parser (mirror.ts) and the views that read it: a row of integers per node in
 * pre-order, in one typed array per subtree, because the copies live as long as their statements and tens of
 * thousands of small objects kept that long cost the garbage collector more than the copy itself. A `Syn` is
 * a short-lived view of one row.
 */
import type { Node } from './nodes';

type Language = Node['tree']['language'];

/** Per language: its type and field names, and whether each node type is named (asked once per type). */
export interface Tables {
  readonly language: Language;
  readonly named: boolean[];
  readonly fieldIds: Map<string, number>;
  /** Per shape, the bits of each node type (see KNOWN). */
  readonly flags: WeakMap<object, Uint8Array>;
}
const TABLES = new WeakMap<Language, Tables>();

export function tablesOf(language: Language): Tables {
  let tables = TABLES.get(language);
  if (!tables) TABLES.set(language, (tables = { language, named: [], fieldIds: new Map(), flags: new WeakMap() }));
  return tables;
}

/** A row's columns: type id, field id (0: none), start and end offsets (-1 for punctuation), rows in the subtree. */
export const TYPE = 0;
export const FIELD = 1;
export const START = 2;
export const END = 3;
export const SIZE = 4;
export const STRIDE = 5;

/**
 * The type given to a node nested deeper than MAX_DEPTH, copied without its children: no rule knows it, so
 * it converts to unknown. Python itself refuses such nesting long before (its parser stops at 200 brackets).
 */
const TOO_DEEP = 'too_deep';
export const TOO_DEEP_ID = -1;

export class SynTree {
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
    return id === TOO_DEEP_ID ? TOO_DEEP : (this.tree.tables.language.types[id] ?? 'ERROR');
  }

  /** The field this node fills in its parent (`left`, `arguments`), if any. */
  get field(): string | null {
    const id = this.tree.rows[this.index * STRIDE + FIELD];
    return id === 0 ? null : (this.tree.tables.language.fields[id] ?? null);
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
    for (let i = this.index + 1, end = endOf(this); i < end; i += this.tree.rows[i * STRIDE + SIZE])
      out.push(new Syn(this.tree, i));
    return out;
  }
}

// Children are walked with plain loops over the rows (a child's next sibling is past its subtree), not a
// callback per child: conversion walks every node several times, mostly before the JIT has compiled it.
function endOf(node: Syn): number {
  return node.index + node.tree.rows[node.index * STRIDE + SIZE];
}

/** Named children, without the comments tree-sitter attaches anywhere. */
export function namedOf(node: Syn): Syn[] {
  const { tables, rows } = node.tree;
  const out: Syn[] = [];
  for (let i = node.index + 1, end = endOf(node); i < end; i += rows[i * STRIDE + SIZE]) {
    const id = rows[i * STRIDE + TYPE];
    if (id === TOO_DEEP_ID || (tables.named[id] && tables.language.types[id] !== 'comment'))
      out.push(new Syn(node.tree, i));
  }
  return out;
}

export function fieldOf(node: Syn, field: string): Syn | undefined {
  const { rows } = node.tree;
  const id = fieldId(node.tree.tables, field);
  for (let i = node.index + 1, end = endOf(node); i < end; i += rows[i * STRIDE + SIZE])
    if (rows[i * STRIDE + FIELD] === id) return new Syn(node.tree, i);
  return undefined;
}

export function fieldsOf(node: Syn, field: string): Syn[] {
  const { rows } = node.tree;
  const id = fieldId(node.tree.tables, field);
  const out: Syn[] = [];
  for (let i = node.index + 1, end = endOf(node); i < end; i += rows[i * STRIDE + SIZE])
    if (rows[i * STRIDE + FIELD] === id) out.push(new Syn(node.tree, i));
  return out;
}

/** A field's id in the language (-1, which no row holds, for a name it does not have). */
export function fieldId(tables: Tables, field: string): number {
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
  for (let i = node.index + 1; i < end;) {
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
  return rows[node * STRIDE + START] === start && rows[node * STRIDE + END] === end
    ? new Syn(syn.tree, node)
    : undefined;
}

export function synText(node: Syn, source: string): string {
  return source.slice(node.start, node.end);
}
