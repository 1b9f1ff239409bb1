/**
 * Long chains: a class inheriting from hundreds of classes, and files importing each other in a line of
 * hundreds, the imported files read from memory as the editor reads them from the workspace. The model at
 * the end has its exact count.
 */
import { LIMITS } from '../../src/core/limits/budget';
import { Lines, type FuzzInput } from './input';
import type { Choices } from './random';
import type { Scale } from './scale';

/** C0 holds a Linear(d, d); each level may add a Linear(d, 2), define its own default for d, or only `pass`. */
export function inheritanceInput(c: Choices, index: number, scale: Scale): FuzzInput {
  // From chains the interpreter follows whole (under LIMITS.depth constructors) to ones far deeper.
  const length = c.chance(0.5) ? c.int(2, 50) : c.int(Math.floor(scale.classes / 4), scale.classes);
  const lines = new Lines();
  lines.add(
    'import torch.nn as nn',
    'class C0(nn.Module):',
    '    def __init__(self, d=4):',
    '        super().__init__()',
    '        self.l = nn.Linear(d, d)',
  );
  // What C_i() builds: the default of the nearest class defining __init__, and the Linear(d, 2) of each level.
  let d = 4n;
  let extras = 0;
  // The model's build and each constructor of the chain run one call inside the other.
  let nested = 2;
  for (let i = 1; i < length; i++) {
    const kind = c.int(0, 3);
    lines.add(`class C${i}(C${i - 1}):`);
    if (kind === 0) {
      lines.add('    pass');
      continue;
    }
    nested++;
    d = BigInt(c.int(1, 9));
    const call =
      kind === 1
        ? 'super().__init__(d)'
        : kind === 2
          ? `super(C${i}, self).__init__(d)`
          : `C${i - 1}.__init__(self, d)`;
    lines.add(`    def __init__(self, d=${d}):`, `        ${call}`);
    if (c.chance(0.3)) {
      lines.add(`        self.x${i} = nn.Linear(d, 2)`);
      extras++;
    }
  }
  const model = lines.add(`m = C${length - 1}()`);
  const params = d * d + d + BigInt(extras) * (2n * d + 2n);
  // Deeper than the interpreter follows, the count is not known: never another one.
  const required = nested <= LIMITS.depth;
  return {
    name: `inheritance chain of ${length} classes #${index}`,
    language: 'python',
    text: lines.text,
    expect: { counts: [{ line: model, params, required }] },
  };
}

/**
 * How file i of the chain imports W and class C{i-1} from the file before it. Only names imported by name
 * are followed (`import m` and `import *` are not): the chain must give their counts.
 */
const STYLES = [
  (i: number) => ({ head: `from m${i} import W, C${i}`, w: 'W', c: `C${i}`, followed: true }),
  (i: number) => ({ head: `from .m${i} import W, C${i}`, w: 'W', c: `C${i}`, followed: true }),
  (i: number) => ({ head: `import m${i}`, w: `m${i}.W`, c: `m${i}.C${i}`, followed: false }),
  (i: number) => ({ head: `from m${i} import *`, w: 'W', c: `C${i}`, followed: false }),
];

/**
 * m0.py defines W and a class C0 holding a Linear(W, W); each next file imports both from the one before,
 * adds to W and subclasses the class. Some files open with a run of comment lines, as commented-out code does.
 */
export function importChainInput(c: Choices, index: number, scale: Scale, folder = '/fuzz/chain'): FuzzInput {
  const length = c.int(Math.floor(scale.importFiles / 4), scale.importFiles);
  const style = c.int(0, STYLES.length - 1);
  const comments = c.chance(0.3) ? c.int(1, scale.commentLines / 10) : 0;
  const files = new Map<string, string>();
  const padding = Array.from({ length: comments }, (_, i) => `    # self.l${i} = nn.Linear(${i}, ${i})`).join('\n');
  const first = BigInt(c.int(1, 16));
  let w = first;
  files.set(
    `${folder}/m0.py`,
    `${padding}\nimport torch.nn as nn\nW = ${w}\nclass C0(nn.Module):\n    def __init__(self, d=W):\n        super().__init__()\n        self.l = nn.Linear(d, d)\n`,
  );
  for (let i = 1; i < length; i++) {
    const add = BigInt(c.int(0, 3));
    const { head, w: prevW, c: prevC } = STYLES[style](i - 1);
    files.set(`${folder}/m${i}.py`, `${padding}\n${head}\nW = ${prevW} + ${add}\nclass C${i}(${prevC}):\n    pass\n`);
    w += add;
  }
  const last = STYLES[style](length - 1);
  const lines = new Lines();
  lines.add('import torch.nn as nn', last.head);
  const fc = lines.add(`fc = nn.Linear(${last.w}, 2)`);
  const model = lines.add(`m = ${last.c}(${last.w})`);
  // The default for d is m0's W, read when C0's def ran.
  const byDefault = lines.add(`base = ${last.c}()`);
  return {
    name: `import chain of ${length} files (${last.head}${comments ? `, ${comments} comment lines each` : ''}) #${index}`,
    language: 'python',
    text: lines.text,
    path: `${folder}/main.py`,
    files,
    expect: {
      counts: [
        { line: fc, params: 2n * w + 2n, required: last.followed },
        { line: model, params: w * w + w, required: last.followed },
        { line: byDefault, params: first * first + first, required: last.followed },
      ],
    },
  };
}
