/**
 * attention-lens [--json] PATH...: the same analysis as the extension, for CI. Exit 1 when an error
 * diagnostic is found, 2 for bad usage or an unreadable path (the other paths are still analysed), else 0.
 */
import { promises as fs, readFileSync } from 'fs';
import * as path from 'path';
import type { Analysis } from './core/analysis';
import type { Language } from './core/source';
import { formatCount, formatTotal } from './core/format';
import { dimText } from './core/catalog/spec';
import { Grammars } from './syntax/parser';
import { fsWasmLoader } from './syntax/fsLoader';
import { DocumentAnalyzer } from './syntax/documentAnalyzer';
import { WorkspaceModels } from './syntax/workspaceModels';

const EXTENSIONS: Record<string, Language> = { '.py': 'python', '.ts': 'typescript' };
const SKIP_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', 'dist', 'out']);
const USAGE = 'usage: attention-lens [--json] PATH...\n  Counts the parameters of attention and linear layers in .py and .ts files (folders are searched).';

interface FileReport {
  readonly path: string;
  readonly language: Language;
  readonly analysis: Analysis;
}

async function collect(target: string, out: string[]): Promise<void> {
  const stat = await fs.stat(target);
  if (stat.isFile()) {
    out.push(target);
    return;
  }
  const entries = await fs.readdir(target, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(target, e.name);
    if (e.isDirectory() && !SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await collect(full, out);
    else if (e.isFile() && EXTENSIONS[path.extname(e.name)] && !e.name.endsWith('.d.ts')) out.push(full);
  }
}

function toJson(reports: readonly FileReport[]): unknown {
  return {
    files: reports.map((r) => ({
      path: r.path.split(path.sep).join('/'),
      language: r.language,
      layers: r.analysis.layers.map((l) => ({
        line: l.span.startLine + 1,
        column: l.span.startChar + 1,
        kind: l.layer.kind,
        framework: l.layer.framework,
        params: l.layer.params?.constant !== undefined ? Number(l.layer.params.constant) : null,
        formula: l.layer.formula,
      })),
      modules: r.analysis.modules.map((m) => ({
        name: m.name,
        line: m.span.startLine + 1,
        params: m.summary.params?.constant !== undefined ? Number(m.summary.params.constant) : null,
      })),
      diagnostics: r.analysis.findings.map((f) => ({ line: f.span.startLine + 1, column: f.span.startChar + 1, severity: f.severity, code: f.code, message: f.message })),
    })),
  };
}

function toTable(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (!r.analysis.layers.length && !r.analysis.findings.length) continue;
    lines.push(r.path.split(path.sep).join('/'));
    for (const l of r.analysis.layers) {
      const where = `${l.span.startLine + 1}:${l.span.startChar + 1}`.padEnd(8);
      lines.push(`  ${where} ${l.layer.kind.padEnd(26)} ${formatCount(l.layer).padStart(16)}  ${l.layer.summary}`);
    }
    for (const m of r.analysis.modules) {
      const where = `${m.span.startLine + 1}:${m.span.startChar + 1}`.padEnd(8);
      lines.push(`  ${where} ${`class ${m.name}`.padEnd(26)} ${formatTotal(m.summary).padStart(16)}  ${m.summary.stack ? `${dimText(m.summary.stack.count)} × ${m.summary.stack.kind}` : ''}`);
    }
    for (const f of r.analysis.findings) lines.push(`  ${`${f.span.startLine + 1}:${f.span.startChar + 1}`.padEnd(8)} ${f.severity} [${f.code}] ${f.message}`);
  }
  return lines.join('\n');
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes('--json');
  const targets = argv.filter((a) => a !== '--json');
  const unknownFlag = targets.find((a) => a.startsWith('-'));
  if (!targets.length || unknownFlag || argv.includes('--help')) {
    process.stderr.write(`${unknownFlag && unknownFlag !== '--help' ? `attention-lens: unknown option ${unknownFlag}\n` : ''}${USAGE}\n`);
    return argv.includes('--help') ? 0 : 2;
  }
  let usageError = false;
  const files: string[] = [];
  for (const t of targets) {
    try {
      await collect(t, files);
    } catch (e) {
      process.stderr.write(`attention-lens: cannot read ${t}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
      usageError = true;
    }
  }
  const grammars = await Grammars.load(fsWasmLoader);
  const workspace = new WorkspaceModels(grammars, readIfPresent);
  const reports: FileReport[] = [];
  for (const file of files) {
    const language = EXTENSIONS[path.extname(file)];
    if (!language) {
      process.stderr.write(`attention-lens: ${file} is neither a .py nor a .ts file\n`);
      usageError = true;
      continue;
    }
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      process.stderr.write(`attention-lens: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
      usageError = true;
      continue;
    }
    const analyzer = new DocumentAnalyzer(grammars, language);
    const analysis = analyzer.update(text, undefined, workspace.resolverFor(path.resolve(file), language));
    analyzer.dispose();
    if (analysis) reports.push({ path: file, language, analysis });
  }
  workspace.dispose();
  grammars.dispose();
  process.stdout.write(json ? `${JSON.stringify(toJson(reports))}\n` : `${toTable(reports)}\n`);
  if (usageError) return 2;
  return reports.some((r) => r.analysis.findings.some((f) => f.severity === 'error')) ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`attention-lens: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(2);
    },
  );
}
