/** The command line as eslint, ruff and tsc read theirs: options anywhere, `--` ends them. */

export type Format = 'text' | 'json' | 'sarif';

export type Command =
  | { readonly kind: 'analyse'; readonly format: Format; readonly paths: readonly string[] }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'usage-error'; readonly message: string };

const FORMATS: readonly Format[] = ['text', 'json', 'sarif'];

export const USAGE = `usage: attention-lens [options] [--] PATH...

Counts the parameters of the layers in .py, .ts and .ipynb files (folders are searched) and reports
the shape errors the framework would raise.

options:
  --format text|json|sarif  output format (default: text; sarif is SARIF 2.1.0 for code scanning)
  --json                    same as --format json
  -h, --help                show this help
  --version                 show the version

exit status: 0 clean, 1 an error diagnostic was found, 2 bad usage or a path or file that could not be
read or parsed (the other paths are still analysed).`;

export function parseArgs(argv: readonly string[]): Command {
  let format: Format = 'text';
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
      format = 'json';
      continue;
    }
    if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? argv[++i] : arg.slice('--format='.length);
      if (value === undefined) return { kind: 'usage-error', message: '--format needs a value: text, json or sarif' };
      if (!FORMATS.includes(value as Format)) return { kind: 'usage-error', message: `unknown format ${value} (text, json or sarif)` };
      format = value as Format;
      continue;
    }
    if (arg.startsWith('-')) return { kind: 'usage-error', message: `unknown option ${arg}` };
    paths.push(arg);
  }
  if (!paths.length) return { kind: 'usage-error', message: 'no path given' };
  return { kind: 'analyse', format, paths };
}
