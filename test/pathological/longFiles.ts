/**
 * Long files of plain code: runs of comment lines (commented-out code, indented, between blank lines) and a
 * long file with one unclosed bracket, call or string, as a user has mid-typing. Neither may make the file
 * refused, and the statements they do not touch keep their exact counts.
 */
import { Lines, type ExpectedCount, type FuzzInput } from './input';
import type { Choices } from './random';
import type { Scale } from './scale';

/** Statements with the counts of their lines (offsets into `lines`). */
interface Block {
  readonly lines: string[];
  readonly counts: readonly { readonly at: number; readonly params: bigint }[];
}

const linear = (i: bigint, o: bigint) => i * o + o;

function pythonBlock(c: Choices, i: number): Block {
  const [d, o] = [BigInt(c.int(1, 64)), BigInt(c.int(1, 64))];
  if (c.chance(0.7)) return { lines: [`l${i} = nn.Linear(${d}, ${o})`], counts: [{ at: 0, params: linear(d, o) }] };
  const total = linear(d, o) + 2n * o;
  return {
    lines: [
      `class C${i}(nn.Module):`,
      `    def __init__(self, d=${d}):`,
      '        super().__init__()',
      `        self.fc = nn.Linear(d, ${o})`,
      `        self.norm = nn.LayerNorm(${o})`,
      `m${i} = C${i}()`,
    ],
    counts: [
      { at: 0, params: total },
      { at: 3, params: linear(d, o) },
      { at: 4, params: 2n * o },
      { at: 5, params: total },
    ],
  };
}

function typescriptBlock(c: Choices, i: number): Block {
  const [d, u] = [BigInt(c.int(1, 64)), BigInt(c.int(1, 64))];
  return {
    lines: [`const l${i} = tf.layers.dense({ units: ${u}, inputDim: ${d} });`],
    counts: [{ at: 0, params: linear(d, u) }],
  };
}

const HEADERS = {
  python: ['import torch', 'import torch.nn as nn'],
  typescript: ["import * as tf from '@tensorflow/tfjs';"],
} as const;

/** Writes the blocks; `shape` may change a block's lines and says which of its counts still hold. */
function write(
  language: 'python' | 'typescript',
  blocks: readonly Block[],
  shape: (block: Block, index: number, lines: Lines) => ExpectedCount['required'] | 'none',
): { text: string; counts: ExpectedCount[] } {
  const lines = new Lines();
  lines.add(...HEADERS[language]);
  const counts: ExpectedCount[] = [];
  blocks.forEach((block, index) => {
    const required = shape(block, index, lines);
    const first = lines.add(...block.lines);
    if (required !== 'none')
      for (const { at, params } of block.counts) counts.push({ line: first + at, params, required });
  });
  return { text: lines.text, counts };
}

function commentLine(c: Choices, i: number, indent: string): string {
  if (c.chance(0.15)) return c.pick(['', '    ', '\t']);
  const pad = c.pick([indent, '', ' '.repeat(c.int(0, 16)), '\t']);
  return `${pad}${c.pick([`# self.l${i} = nn.Linear(${i}, ${i})`, '#', `# ${'-'.repeat(c.int(0, 80))}`, `#    for x in range(${i}):`, `## old: ${i}`, '# TODO'])}`;
}

export function commentRunInput(c: Choices, index: number, scale: Scale): FuzzInput {
  const blocks = Array.from({ length: c.int(2, 8) }, (_, i) => pythonBlock(c, i));
  const length = c.int(Math.floor(scale.commentLines / 4), scale.commentLines);
  const at = c.int(0, blocks.length - 1);
  const target = blocks[at];
  // Inside a class the run sits between two statements of its constructor, at their indentation or another.
  const inside = target.lines.length > 1 && c.chance(0.5) ? c.int(3, 4) : 0;
  const indent = inside ? '        ' : '';
  const run = Array.from({ length }, (_, i) => commentLine(c, i, indent));
  const moved = (k: Block['counts'][number]) => ({ ...k, at: inside && k.at < inside ? k.at : k.at + length });
  blocks[at] = {
    lines: [...target.lines.slice(0, inside), ...run, ...target.lines.slice(inside)],
    counts: target.counts.map(moved),
  };
  const { text, counts } = write('python', blocks, () => true);
  return {
    name: `comment run: ${length} lines in block ${at}${inside ? ' (inside the class)' : ''} #${index}`,
    language: 'python',
    text,
    expect: { analysed: true, counts },
  };
}

/** One statement left open: its closing parenthesis dropped, or a bracket or string opened after it. */
const BREAKS: readonly [string, (line: string) => string][] = [
  ['an unclosed call', (l) => l.replace(/\);?$/, '')],
  ['an unclosed list', (l) => `${l.replace(/;$/, '')} + [3`],
  ['an unclosed dict', (l) => `${l.replace(/;$/, '')} + {`],
  ['an unclosed string', (l) => `${l.replace(/;$/, '')} + "x`],
  ['an unclosed triple-quoted string or template', (l) => `${l.replace(/;$/, '')} + ${l.endsWith(';') ? '`' : '"""'}x`],
];

export function unclosedInput(c: Choices, index: number, scale: Scale): FuzzInput {
  const language = c.chance(0.7) ? 'python' : 'typescript';
  const blocks: Block[] = [];
  const target = c.int(scale.fileLines / 4, scale.fileLines);
  for (let lines = 0; lines < target; lines += blocks[blocks.length - 1].lines.length)
    blocks.push(language === 'python' ? pythonBlock(c, blocks.length) : typescriptBlock(c, blocks.length));
  const broken = c.int(0, blocks.length - 1);
  const [what, open] = c.pick(BREAKS);
  const { text, counts } = write(language, blocks, (block, i) => {
    if (i !== broken) return i < broken;
    block.lines[block.lines.length - 1] = open(block.lines[block.lines.length - 1]);
    return 'none';
  });
  return {
    name: `long ${language} file (${blocks.length} blocks) with ${what} in block ${broken} #${index}`,
    language,
    text,
    expect: { analysed: true, counts },
  };
}
