/** The command line as eslint, ruff and tsc read theirs: options anywhere, `--` ends them. */
import { DEFAULT_SIZING, OPTIMIZERS, WEIGHT_DTYPES, type SizingOptions } from '../core/sizing/memory';

export type Format = 'text' | 'json' | 'sarif';

export type Command =
  | {
      readonly kind: 'analyse';
      readonly format: Format;
      readonly paths: readonly string[];
      readonly sizing: SizingOptions;
      readonly jobs?: number;
      /** The configurations `--config` names, shown where they build a class or layer. */
      readonly chosen: readonly string[];
      /** Folders `--workspace` names, where imports and the files importing a file are read too. */
      readonly workspace: readonly string[];
      /** What `--python-path` names: environments or site-packages folders, where installed packages are read. */
      readonly pythonPath: readonly string[];
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'usage-error'; readonly message: string };

const FORMATS: readonly Format[] = ['text', 'json', 'sarif'];

/** What the options set, as they are read. */
type Settings = {
  format: Format;
  jobs?: number;
  chosen: readonly string[];
  workspace: readonly string[];
  pythonPath: readonly string[];
} & SizingOptions;

export const USAGE = `usage: attention-lens [options] [--] PATH...

Counts the parameters of the layers in .py, .ts and .ipynb files (folders are searched) and reports
the shape errors the framework would raise.

options:
  --format text|json|sarif  output format (default: text; sarif is SARIF 2.1.0 for code scanning)
  --json                    same as --format json
  --dtype fp32|bf16|fp16|int8|int4
                            storage type of a model's sizing in JSON: KV cache, activations (default bf16)
  --optimizer adamwMixed|adamwFp32|sgdMomentum
                            optimizer of a model's training memory in JSON (default adamwMixed)
  --batch N, --seq N        batch size and sequence length of the activations, FLOPs and KV cache in
                            JSON (default 1 and 1024)
  --config NAME             show the configuration NAME where it builds a class or layer: a preset's
                            name (gpt2-medium for GPT.from_pretrained('gpt2-medium')), a factory's
                            (vit_base), a configuration file's beside the model (params.json,
                            config.json, model_configs/tiny.json), or a context as the output lists
                            it; may be given again
  --workspace DIR           read imports, and the files that import a file (a train script, a
                            builder: their models are configurations too), anywhere in DIR, not
                            only in the folders the paths name; may be given again
  --python-path DIR         read imports of installed packages (from timm.layers import Mlp) from DIR:
                            a Python environment (.venv), its site-packages, or its interpreter; only
                            .py files are read, never run; may be given again
  --jobs N                  files analysed at once, each in a process of its own (default: one for
                            every 8 files, up to the number of cores; 1 analyses them one after
                            another in the command's own process)
  -h, --help                show this help
  --version                 show the version

exit status: 0 clean, 1 an error diagnostic was found, 2 bad usage, a --config name that names no
configuration, or a path or file that could not be read or parsed (the other paths are still analysed).`;

/** Options that take a value (`--seq 2048` or `--seq=2048`): what each accepts, and where it goes. */
const VALUED: Readonly<
  Record<string, { readonly accepts: string; readonly read: (v: string) => Partial<Settings> | undefined }>
> = {
  '--format': {
    accepts: 'text, json or sarif',
    read: (v) => (FORMATS.includes(v as Format) ? { format: v as Format } : undefined),
  },
  '--dtype': {
    accepts: WEIGHT_DTYPES.join(', '),
    read: (v) =>
      WEIGHT_DTYPES.includes(v as SizingOptions['dtype']) ? { dtype: v as SizingOptions['dtype'] } : undefined,
  },
  '--optimizer': {
    accepts: OPTIMIZERS.join(', '),
    read: (v) =>
      OPTIMIZERS.includes(v as SizingOptions['optimizer']) ? { optimizer: v as SizingOptions['optimizer'] } : undefined,
  },
  '--batch': { accepts: 'a positive whole number', read: (v) => positive(v, (batch) => ({ batch })) },
  '--seq': { accepts: 'a positive whole number', read: (v) => positive(v, (sequence) => ({ sequence })) },
  '--jobs': { accepts: 'a positive whole number', read: (v) => positive(v, (jobs) => ({ jobs })) },
  '--config': { accepts: "a configuration's name", read: (v) => (v ? { chosen: [v] } : undefined) },
  '--workspace': { accepts: 'a folder', read: (v) => (v ? { workspace: [v] } : undefined) },
  '--python-path': { accepts: 'a folder', read: (v) => (v ? { pythonPath: [v] } : undefined) },
};

function positive<T>(v: string, make: (n: number) => T): T | undefined {
  const n = Number(v);
  return /^[0-9]+$/.test(v) && Number.isSafeInteger(n) && n > 0 ? make(n) : undefined;
}

export function parseArgs(argv: readonly string[]): Command {
  let settings: Settings = { format: 'text', chosen: [], workspace: [], pythonPath: [], ...DEFAULT_SIZING };
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      paths.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    if (arg === '--json') {
      settings = { ...settings, format: 'json' };
      continue;
    }
    const name = arg.split('=')[0];
    const option = VALUED[name];
    if (option) {
      const value = arg === name ? argv[++i] : arg.slice(name.length + 1);
      if (value === undefined) return { kind: 'usage-error', message: `${name} needs a value: ${option.accepts}` };
      const read = option.read(value);
      if (!read)
        return {
          kind: 'usage-error',
          message:
            name === '--format'
              ? `unknown format ${value} (${option.accepts})`
              : `${name} ${value}: expected ${option.accepts}`,
        };
      // `--config`, `--workspace` and `--python-path` add to the ones given before them; the others replace.
      settings = {
        ...settings,
        ...read,
        chosen: [...settings.chosen, ...(read.chosen ?? [])],
        workspace: [...settings.workspace, ...(read.workspace ?? [])],
        pythonPath: [...settings.pythonPath, ...(read.pythonPath ?? [])],
      };
      continue;
    }
    if (arg.startsWith('-')) return { kind: 'usage-error', message: `unknown option ${arg}` };
    paths.push(arg);
  }
  if (!paths.length) return { kind: 'usage-error', message: 'no path given' };
  const { format, jobs, chosen, workspace, pythonPath, ...sizing } = settings;
  return {
    kind: 'analyse',
    format,
    paths,
    sizing,
    chosen,
    workspace,
    pythonPath,
    ...(jobs === undefined ? {} : { jobs }),
  };
}
