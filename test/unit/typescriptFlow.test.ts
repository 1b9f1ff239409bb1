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
    assert.deepStrictEqual(
      await countsOf('const double = (n: number) => n * 2;\nconst layer = new nn.Linear(double(3), 4);'),
      [6 * 4 + 4],
    );
  });

  test('a switch takes the case equal to its value', async () => {
    const code =
      "const kind: string = 'b';\nlet width = 1;\nswitch (kind) {\n  case 'a':\n    width = 2;\n    break;\n  case 'b':\n    width = 3;\n    break;\n  default:\n    width = 4;\n}\nconst layer = new nn.Linear(width, 1);";
    assert.deepStrictEqual(await countsOf(code), [3 + 1]);
  });

  test('a case that falls through leaves the switch out: no count is guessed', async () => {
    const code =
      "const kind: string = 'a';\nlet width = 1;\nswitch (kind) {\n  case 'a':\n    width = 2;\n  case 'b':\n    width = 3;\n    break;\n}\nconst layer = new nn.Linear(width, 1);";
    const counts = await countsOf(code);
    assert.notStrictEqual(counts[0], 2 + 1);
  });

  test('array destructuring binds items in order; a hole keeps its place; a rest element takes what is left', async () => {
    const code =
      'const [a, b] = [2, 3];\nconst [, c] = [5, 7];\nconst [d, ...rest] = [11, 13, 17];\nconst l1 = new nn.Linear(a, b);\nconst l2 = new nn.Linear(c, 1);\nconst l3 = new nn.Linear(d, rest.length);';
    assert.deepStrictEqual(await countsOf(code), [2 * 3 + 3, 7 + 1, 11 * 2 + 2]);
  });

  test('a property an object literal does not have is undefined: `??` gives the default', async () => {
    assert.deepStrictEqual(
      await countsOf(
        'const config: { width?: number } = {};\nconst layer = new nn.Linear(config.width ?? 8, Math.sqrt(16));',
      ),
      [8 * 4 + 4],
    );
  });

  test('do/while runs its body before the first test', async () => {
    assert.deepStrictEqual(
      await countsOf('let n = 5;\ndo {\n  n++;\n} while (n < 3);\nconst layer = new nn.Linear(n, 1);'),
      [6 + 1],
    );
  });

  test('a try body runs; what its catch may set is not taken as certain', async () => {
    assert.deepStrictEqual(
      await countsOf('let n = 2;\ntry {\n  n = 4;\n} finally {\n  n = n + 1;\n}\nconst layer = new nn.Linear(n, 1);'),
      [5 + 1],
    );
  });

  test('class field initialisers run on each instance, after super()', async () => {
    const analysis = await analyzeText(
      `${PRELUDE}export class M extends nn.Module {\n  head = new nn.Linear(8, 2);\n  constructor() {\n    super();\n    this.body = new nn.Linear(4, 8);\n  }\n}`,
      'typescript',
    );
    assert.deepStrictEqual(
      analysis.modules.map((m) => Number(m.summary.params?.constant)),
      [18 + 40],
    );
  });

  // TF.js builds a dense layer's weights on its first apply(): kernel [in, units] and bias [units].
  test('tf.tidy runs its arrow function: a layer applied inside it gets its size', async () => {
    const code =
      'const dense = tf.layers.dense({ units: 3 });\nconst y = tf.tidy(() => {\n  const h = dense.apply(tf.zeros([2, 5])) as tf.Tensor;\n  return h;\n});';
    assert.deepStrictEqual(await countsOf(code), [5 * 3 + 3]);
  });

  test('an arrow function with a block body returns its value to the caller', async () => {
    const code =
      'const first = tf.layers.dense({ units: 6 });\nconst second = tf.layers.dense({ units: 2 });\nconst run = (x: tf.Tensor) => {\n  const h = first.apply(x) as tf.Tensor;\n  return h;\n};\nsecond.apply(run(tf.zeros([1, 4])));';
    assert.deepStrictEqual(await countsOf(code), [4 * 6 + 6, 6 * 2 + 2]);
  });

  test('layers built in a constructor are sized where another method applies them, through this and helpers', async () => {
    const code = [
      'class Block {',
      '  constructor(units = 8) {',
      '    this.inner = tf.layers.dense({ units });',
      '    this.outer = tf.layers.dense({ units: 2 });',
      '  }',
      '  private project(h: tf.Tensor): tf.Tensor {',
      '    return this.outer.apply(h) as tf.Tensor;',
      '  }',
      '  call(x: tf.Tensor): tf.Tensor {',
      '    const run = (t: tf.Tensor) => {',
      '      return this.project(tf.add(t, this.inner.apply(t) as tf.Tensor));',
      '    };',
      "    return tf.tidy('block', () => run(x));",
      '  }',
      '}',
      'new Block().call(tf.zeros([2, 8]));',
    ].join('\n');
    assert.deepStrictEqual(await countsOf(code), [8 * 8 + 8, 8 * 2 + 2]);
  });

  test('a layer applied only in an arrow function nobody calls gets no size', async () => {
    const code =
      'const dense = tf.layers.dense({ units: 3 });\nexport function later(): void {\n  const f = () => {\n    return dense.apply(tf.zeros([2, 5]));\n  };\n}';
    assert.deepStrictEqual(await countsOf(code), [null]);
  });

  test('super(...) with arguments runs the base class constructor with them', async () => {
    const code =
      'class Block extends nn.Module {\n  constructor(width = 6) {\n    super();\n    this.fc = new nn.Linear(width, 2);\n  }\n}\nexport class Small extends Block {\n  constructor() {\n    super(3);\n  }\n}';
    const analysis = await analyzeText(PRELUDE + code, 'typescript');
    assert.deepStrictEqual(
      analysis.modules.map((m) => [m.name, Number(m.summary.params?.constant)]),
      [
        ['Block', 6 * 2 + 2],
        ['Small', 3 * 2 + 2],
      ],
    );
  });

  test('a default reads the parameters before it, as JavaScript evaluates it at each call', async () => {
    assert.deepStrictEqual(
      await countsOf(
        'function make(dim: number, hidden = 2 * dim) {\n  return new nn.Linear(dim, hidden);\n}\nmake(3);',
      ),
      [3 * 6 + 6],
    );
  });

  test('a function assigning a name it does not declare writes the enclosing variable, as JavaScript does', async () => {
    const code =
      'let width = 4;\nfunction widen() {\n  width = 8;\n}\nconst grow = () => {\n  width = width * 2;\n};\nwiden();\ngrow();\nconst layer = new nn.Linear(width, 1);';
    assert.deepStrictEqual(await countsOf(code), [16 + 1]);
  });

  test('a name the function declares itself (let, a loop variable, a parameter) stays its own', async () => {
    const code =
      'let width = 4;\nlet i = 2;\nfunction local(width: number) {\n  width = 100;\n  for (const i of [7]) {}\n  let n = 3;\n  n = 5;\n}\nlet n = 6;\nlocal(1);\nconst layer = new nn.Linear(width * i, n);';
    assert.deepStrictEqual(await countsOf(code), [8 * 6 + 6]);
  });

  test('a write in a branch not known to run leaves the enclosing variable unknown', async () => {
    const code =
      'let width = 4;\nfunction maybe(flag: boolean) {\n  if (flag) {\n    width = 8;\n  }\n}\nexport function build(flag: boolean) {\n  maybe(flag);\n  return new nn.Linear(width, 1);\n}';
    assert.deepStrictEqual(await countsOf(code), [null]);
  });

  test("a destructured parameter takes its argument's properties, defaults where they are undefined", async () => {
    const code =
      'const units = 10;\nconst make = ({ units, bias = false }: { units: number; bias?: boolean }, width: number) => {\n  return tf.layers.dense({ units, useBias: bias, inputShape: [width] });\n};\nmake({ units: 3 }, 5);';
    assert.deepStrictEqual(await countsOf(code), [5 * 3]);
  });

  test('a constructor destructuring its config with defaults is built with them', async () => {
    const code =
      'export class Head extends nn.Module {\n  constructor({ dim = 8, classes: n = 3 }: { dim?: number; classes?: number } = {}) {\n    super();\n    this.fc = new nn.Linear(dim, n);\n  }\n}\nexport const wide = new Head({ dim: 16 });';
    const analysis = await analyzeText(PRELUDE + code, 'typescript');
    assert.deepStrictEqual(
      analysis.modules.map((m) => Number(m.summary.params?.constant)),
      [8 * 3 + 3],
    );
    assert.deepStrictEqual(
      analysis.instances.map((i) => Number(i.summary.params?.constant)),
      [16 * 3 + 3],
    );
  });

  test('a destructured argument that is not a known object leaves its names as names', async () => {
    const code =
      'export function make({ units }: { units: number }, width: number) {\n  return tf.layers.dense({ units, inputShape: [width] });\n}';
    const analysis = await analyzeText(PRELUDE + code, 'typescript');
    assert.deepStrictEqual(
      analysis.layers.map((l) => l.layer.params?.constant),
      [undefined],
    );
  });

  test('a script that throws adding a layer leaves its Sequential without a total, not 0', async () => {
    const code =
      'const model = tf.sequential();\nmodel.add(tf.layers.dense({ units: 4, inputShape: [8] }));\nmodel.add(tf.layers.dense({ units: -2 }));\n';
    const analysis = await analyzeText(PRELUDE + code, 'typescript');
    assert.deepStrictEqual(
      analysis.instances.map((i) => [i.className, i.summary.params?.toString(), i.summary.reason]),
      [['Sequential', undefined, 'the file throws at line 6']],
    );
  });
});
