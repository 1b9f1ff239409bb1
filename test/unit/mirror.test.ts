/** The plain copy of a subtree that Python expressions are converted from agrees with the tree it copies. */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { LineIndex } from '../../src/syntax/lineIndex';
import { mirror } from '../../src/syntax/mirror';
import { buffered } from '../../src/syntax/wasmCursor';
import type { Syn } from '../../src/syntax/syn';
import { spanOf, type Node } from '../../src/syntax/nodes';
import { loadGrammars, ROOT } from './helpers';

const ALL = { leaves: new Set<string>(), operatorsUnder: new Set<string>() };

interface Plain {
  readonly type: string;
  readonly field: string | null;
  readonly named: boolean;
  readonly start: number;
  readonly end: number;
  readonly children: readonly Plain[];
}

/** Every node of the tree with what the copy keeps of it, read through tree-sitter's Node API. */
function fromTree(node: Node, field: string | null): Plain {
  // Tokens are copied without children (an alias such as `not in` has some).
  const children = node.isNamed ? node.children.map((c, i) => fromTree(c!, node.fieldNameForChild(i))) : [];
  const punctuation = !node.isNamed && field === null;
  return {
    type: node.type,
    field,
    named: node.isNamed,
    start: punctuation ? -1 : node.startIndex,
    end: punctuation ? -1 : node.endIndex,
    children,
  };
}

/** What the copy holds, read through its views. */
function plain(n: Syn): Plain {
  return { type: n.type, field: n.field, named: n.named, start: n.start, end: n.end, children: n.children.map(plain) };
}

suite('subtree copies', () => {
  test('types, fields, offsets and children equal those of the tree, for every fixture', async () => {
    const grammars = await loadGrammars();
    const dir = path.join(ROOT, 'test/fixtures/models/pytorch');
    for (const file of ['gpt.py', 'interpreter.py', 'vision_transformer.py', 'attention_variants.py']) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      const tree = grammars.parse('python', text)!;
      try {
        // Operators are read under every parent here, so that every token with a field keeps its offsets.
        const shape = {
          leaves: new Set<string>(),
          operatorsUnder: new Set(Array.from({ length: 300 }, (_, i) => tree.language.types[i]).filter(Boolean)),
        };
        assert.deepStrictEqual(plain(mirror(tree.rootNode, shape, text)), fromTree(tree.rootNode, null), file);
      } finally {
        tree.delete();
      }
    }
  });

  test('the same holds for text being typed: fixtures cut at many places, a bracket or quote left open there', async () => {
    const grammars = await loadGrammars();
    const text = readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), 'utf8');
    for (let i = 1; i < 40; i++) {
      const at = Math.floor((text.length * i) / 40);
      const typed = `${text.slice(0, at)}${['(', '[', '"', "f'{", ':'][i % 5]}${text.slice(at + (i % 7))}`;
      const tree = grammars.parse('python', typed)!;
      try {
        const shape = {
          leaves: new Set<string>(),
          operatorsUnder: new Set(Array.from({ length: 300 }, (_, k) => tree.language.types[k]).filter(Boolean)),
        };
        assert.deepStrictEqual(
          plain(mirror(tree.rootNode, shape, typed)),
          fromTree(tree.rootNode, null),
          `cut at ${at}`,
        );
      } finally {
        tree.delete();
      }
    }
  });

  test('the copies move their cursor inside WASM: the tree-sitter module has every call it makes', async () => {
    await loadGrammars();
    assert.ok(buffered());
  });

  test('a chain nested deeper than the stack is copied down to a cut, without recursion', async () => {
    const grammars = await loadGrammars();
    const text = `d = 1${' + 1'.repeat(20000)}\n`;
    const tree = grammars.parse('python', text)!;
    try {
      let node = mirror(tree.rootNode, ALL, text);
      let depth = -1;
      for (
        let next: Syn | undefined = node;
        next;
        next = node.children.find((c) => c.children.length > 0 || c.type === 'too_deep')
      ) {
        node = next;
        depth++;
      }
      assert.strictEqual(node.type, 'too_deep');
      assert.strictEqual(depth, 3000);
    } finally {
      tree.delete();
    }
  });

  test('line and column of an offset are those tree-sitter gives, across astral characters and CRLF', async () => {
    const grammars = await loadGrammars();
    const text = "# héllo → 😀 wörld\r\nx = '😀😀' + nn.Linear(3, 4)  # ü\n\ty = f'{a}→{b}'\r\n  z = 'é' * 3\n";
    const tree = grammars.parse('python', text)!;
    try {
      const lines = new LineIndex(text);
      const visit = (n: Node) => {
        assert.deepStrictEqual(lines.span(n.startIndex, n.endIndex), spanOf(n), n.type);
        for (const c of n.children) visit(c!);
      };
      visit(tree.rootNode);
    } finally {
      tree.delete();
    }
  });
});
