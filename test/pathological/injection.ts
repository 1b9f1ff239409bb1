/**
 * Text from the file that would act instead of showing: terminal escape sequences (CSI, OSC 8 links, OSC 52
 * clipboard writes, BEL), C1 controls, DEL, bidirectional and zero-width marks, and `$(icon)` syntax, in
 * string literals, config keys, module names, class names and file and folder names.
 */
import { importChainInput } from './chains';
import { Lines, type FuzzInput } from './input';
import type { Choices } from './random';

const PIECES = [
  '\x1b[2K',
  '\x1b[1A\x1b[2K',
  '\x1b[31m',
  '\x1b]8;;https://example.com/\x07link\x1b]8;;\x07',
  '\x1b]52;c;aGVsbG8=\x07',
  '\x1bP+q\x1b\\',
  '\x07',
  '\x08',
  '\x0b',
  '\x0c',
  '\r',
  '\x9b2K',
  '\x9d8;;x\x9c',
  '\x85',
  '\x7f',
  '\u202e',
  '\u202d',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '$(alert)',
  '$(zap~spin)',
  '$(',
  '\\$(x)',
];

function payload(c: Choices): string {
  return Array.from({ length: c.int(1, 4) }, () => `${c.pick(['', 'a', 'key', 'x y'])}${c.pick(PIECES)}`).join('');
}

/** A string literal holding `text`: its controls written raw where the language allows it, or as escapes. */
function literal(text: string, escaped: boolean): string {
  const written = text.replace(/[\\"]/g, (ch) => `\\${ch}`);
  // A raw carriage return would end the line, and with it the literal.
  const code = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return `"${escaped ? written.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, code) : written.replace(/\r/g, code)}"`;
}

/** Marks that tree-sitter may keep inside a name (JavaScript allows the zero-width joiners there). */
const NAME_MARKS = ['', '\u200b', '\u200c', '\u200d', '\u202e', '\u2066x\u2069', '\u00ad'];

function pythonInput(c: Choices, index: number): FuzzInput {
  const escaped = c.chance(0.3);
  const s = () => literal(payload(c), escaped);
  const [key, missing, message, child, added] = [s(), s(), s(), s(), s()];
  const name = `Block${c.pick(NAME_MARKS)}`;
  const lines = new Lines();
  lines.add(
    'import torch.nn as nn',
    `cfg = {${key}: 8, "n": 4}`,
    `class ${name}(nn.Module):`,
    `    ${literal(payload(c), escaped)}`,
    '    def __init__(self, config):',
    '        super().__init__()',
    `        self.fc = nn.Linear(config[${key}], 4)`,
    `        self.blocks = nn.ModuleDict({${child}: nn.Linear(4, 4)})`,
    `        self.add_module(${added}, nn.Linear(2, 2))`,
    `        self.attn = nn.MultiheadAttention(config.get(${missing}, 8), 2)`,
    '        if config["n"] > 100:',
    `            raise ValueError(${message})`,
    `# ${payload(c).replace(/[\r\n]/g, '')}`,
    'def make(c):',
    `    return nn.Linear(c[${missing}], 3)`,
    `model = ${name}(cfg)`,
    `bad = ${name}({${key}: 8, "n": 1000})`,
  );
  const folder = payload(c).replace(/[/\0]/g, '');
  return {
    name: `injection in Python (${escaped ? 'escaped' : 'raw'}) #${index}`,
    language: 'python',
    text: lines.text,
    path: `/fuzz/${folder}/${payload(c).replace(/[/\0]/g, '')}.py`,
  };
}

function typescriptInput(c: Choices, index: number): FuzzInput {
  const escaped = c.chance(0.3);
  const s = () => literal(payload(c), escaped);
  const [key, modelName, layerName, missing] = [s(), s(), s(), s()];
  const name = `Net${c.pick(NAME_MARKS)}`;
  const lines = new Lines();
  lines.add(
    "import * as tf from '@tensorflow/tfjs';",
    `const cfg: Record<string, number> = { ${key}: 8 };`,
    'export function build(c: Record<string, number>): tf.Sequential {',
    `  const model = tf.sequential({ name: ${modelName} });`,
    `  model.add(tf.layers.dense({ units: cfg[${key}], inputShape: [c[${missing}]], name: ${layerName} }));`,
    '  model.add(tf.layers.dense({ units: 2 }));',
    '  return model;',
    '}',
    `class ${name} {`,
    `  readonly dense = tf.layers.dense({ units: cfg[${key}], inputDim: 4, name: ${layerName} });`,
    '}',
    `const built = build({ ${missing}: 4 });`,
    `const net = new ${name}();`,
  );
  return {
    name: `injection in TypeScript (${escaped ? 'escaped' : 'raw'}) #${index}`,
    language: 'typescript',
    text: lines.text,
    path: `/fuzz/${payload(c).replace(/[/\0]/g, '')}.ts`,
  };
}

/** Files imported from a folder whose name holds the sequences. */
function importedInput(c: Choices, index: number): FuzzInput {
  const input = importChainInput(
    c,
    index,
    { commentLines: 10, fileLines: 0, classes: 0, importFiles: 4 },
    `/fuzz/${payload(c).replace(/[/\0]/g, '')}`,
  );
  return { ...input, name: `injection in a folder name: ${input.name}` };
}

export function injectionInput(c: Choices, index: number): FuzzInput {
  return c.pick([pythonInput, typescriptInput, importedInput])(c, index);
}
