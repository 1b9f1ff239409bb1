/** The top-level statements read in one cursor walk are the root's named children, comments aside. */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { namedChildren } from '../../src/syntax/nodes';
import { TopLevel } from '../../src/syntax/topLevel';
import { loadGrammars, ROOT } from './helpers';

suite('top-level statements', () => {
  test('offsets and nodes equal the root node’s named children, in whole fixtures and in fixtures cut while typing', async () => {
    const grammars = await loadGrammars();
    const files: [string, 'python' | 'typescript'][] = [
      ['test/fixtures/models/pytorch/gpt.py', 'python'],
      ['test/fixtures/models/pytorch/hf_modeling_whisper.py', 'python'],
      ['test/fixtures/models/tfjs/functional.ts', 'typescript'],
    ];
    for (const [file, language] of files) {
      const whole = readFileSync(path.join(ROOT, file), 'utf8');
      for (let cut = 0; cut < 12; cut++) {
        const at = Math.floor((whole.length * cut) / 12);
        const text = cut
          ? `${whole.slice(0, at)}${['(', '[', '"', ':', '  ', '\n    x'][cut % 6]}${whole.slice(at + (cut % 5))}`
          : whole;
        const tree = grammars.parse(language, text)!;
        try {
          const top = new TopLevel(tree);
          const read = top.starts.map((start, i) => [start, top.ends[i], top.node(i).type, top.node(i).startIndex]);
          const children = namedChildren(tree.rootNode).map((n) => [n.startIndex, n.endIndex, n.type, n.startIndex]);
          assert.ok(children.length > 0);
          assert.deepStrictEqual(read, children, `${file} cut at ${at}`);
        } finally {
          tree.delete();
        }
      }
    }
  });
});
