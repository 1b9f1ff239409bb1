/**
 * The top-level statements of a tree, comments aside: their offsets read in one walk of a cursor, and a
 * `Node` made only for the statements asked for. After an edit most statements are reused by their offsets
 * alone, and making a `Node` for each of thousands costs more than the walk.
 */
import { namedChildren, type Node } from './nodes';
import type { Tree } from './parser';
import { tablesOf } from './syn';
import { withCursor } from './wasmCursor';

/** Statements re-extracted after an edit are few; a new text has them all. */
const FEW = 16;

export class TopLevel {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  /** Each statement's index among the root's children, comments included. */
  private readonly childIndex: number[] = [];
  private nodes: (Node | undefined)[] = [];
  private asked = 0;
  private root: Node | undefined;

  constructor(private readonly tree: Tree) {
    const { language, named } = tablesOf(tree.language);
    withCursor(tree.rootNode, (cursor) => {
      if (!cursor.gotoFirstChild()) return;
      let index = 0;
      do {
        const id = cursor.nodeTypeId;
        if ((named[id] ??= language.nodeTypeIsNamed(id)) && language.types[id] !== 'comment') {
          this.starts.push(cursor.startIndex);
          this.ends.push(cursor.endIndex);
          this.childIndex.push(index);
        }
        index++;
      } while (cursor.gotoNextSibling());
    });
  }

  get length(): number {
    return this.starts.length;
  }

  node(i: number): Node {
    const known = this.nodes[i];
    if (known) return known;
    // The root node is marshalled out of WASM on every read of `tree.rootNode`: read it once.
    const root = (this.root ??= this.tree.rootNode);
    // `child(n)` walks the children from the first: past a few, every node is read in one call.
    if (++this.asked > FEW) {
      this.nodes = namedChildren(root);
      return this.nodes[i]!;
    }
    return (this.nodes[i] = root.child(this.childIndex[i])!);
  }
}
