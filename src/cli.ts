/**
 * attention-lens [options] [--] PATH...: the same analysis as the extension, for CI. Exit 1 when an error
 * diagnostic is found, 2 for bad usage or a path or file that could not be read or parsed (the other paths
 * are still analysed), else 0.
 */
import { analyzeFiles } from './cli/analyze';
import { parseArgs, USAGE } from './cli/args';
import { paint, wantsColour } from './cli/colour';
import { collectFiles } from './cli/files';
import { toJson } from './cli/json';
import { isFailed, type FileReport } from './cli/report';
import { toSarif } from './cli/sarif';
import { toText } from './cli/text';
import { packageVersion } from './cli/version';

export async function main(argv: readonly string[]): Promise<number> {
  const command = parseArgs(argv);
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'version':
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case 'usage-error':
      process.stderr.write(`attention-lens: ${command.message}\n${USAGE}\n`);
      return 2;
  }
  const { files, problems, roots } = await collectFiles(command.paths);
  for (const p of problems) process.stderr.write(`attention-lens: ${p}\n`);
  const reports = await analyzeFiles(files, roots);
  const code = exitCode(reports, problems.length > 0);
  const output = command.format === 'json' ? toJson(reports, command.sizing) : command.format === 'sarif' ? toSarif({ reports, problems, version: packageVersion(), exitCode: code }) : toText(reports, problems.length, paint(wantsColour(process.env, process.stdout.isTTY === true)));
  process.stdout.write(output);
  return code;
}

function exitCode(reports: readonly FileReport[], unreadable: boolean): number {
  if (unreadable || reports.some(isFailed)) return 2;
  return reports.some((r) => !isFailed(r) && r.analysis.findings.some((f) => f.severity === 'error')) ? 1 : 0;
}

if (require.main === module) {
  // A reader that stops early (`| head`) is not an error of ours.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  // exitCode rather than exit(): exit() would drop what is still queued for a pipe past its 64 KiB buffer.
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`attention-lens: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
