/** TypeScript statements lowered with their control flow: the counts they lead to. */
import * as assert from 'assert';
import { analyzeText, paramsOf } from './helpers';

const PRELUDE = "import * as tf from '@tensorflow/tfjs';\nimport { torch } from 'js-pytorch';\nconst nn = torch.nn;\n";

async function countsOf(code: string): Promise<(number | null)[]> {
  const analysis = await analyzeText(PRELUDE + code, 'typescript');
  return analysis.layers.map(paramsOf);
}

suite('TypeScript control flow', () => {
  test('an arrow function with an expression body computes a size', async () => {
    assert.deepStrictEqual(await countsOf('const double = (n: number) => n * 2;\nconst layer = new nn.Linear(double(3), 4);'), [6 * 4 + 4]);
  });

  test('a switch takes the case equal to its value', async () => {
    const code = "const kind: string = 'b';\nlet width = 1;\nswitch (kind) {\n  case 'a':\n    width = 2;\n    break;\n  case 'b':\n    width = 3;\n    break;\n  default:\n    width = 4;\n}\nconst layer = new nn.Linear(width, 1);";
    assert.deepStrictEqual(await countsOf(code), [3 + 1]);
  });

  test('a case that falls through leaves the switch out: no count is guessed', async () => {
    const code = "const kind: string = 'a';\nlet width = 1;\nswitch (kind) {\n  case 'a':\n    width = 2;\n  case 'b':\n    width = 3;\n    break;\n}\nconst layer = new nn.Linear(width, 1);";
    const counts = await countsOf(code);
    assert.notStrictEqual(counts[0], 2 + 1);
  });

  test('do/while runs its body before the first test', async () => {
    assert.deepStrictEqual(await countsOf('let n = 5;\ndo {\n  n++;\n} while (n < 3);\nconst layer = new nn.Linear(n, 1);'), [6 + 1]);
  });

  test('a try body runs; what its catch may set is not taken as certain', async () => {
    assert.deepStrictEqual(await countsOf('let n = 2;\ntry {\n  n = 4;\n} finally {\n  n = n + 1;\n}\nconst layer = new nn.Linear(n, 1);'), [5 + 1]);
  });

  test('class field initialisers run on each instance, after super()', async () => {
    const analysis = await analyzeText(`${PRELUDE}export class M extends nn.Module {\n  head = new nn.Linear(8, 2);\n  constructor() {\n    super();\n    this.body = new nn.Linear(4, 8);\n  }\n}`, 'typescript');
    assert.deepStrictEqual(analysis.modules.map((m) => Number(m.summary.params?.constant)), [18 + 40]);
  });
});
