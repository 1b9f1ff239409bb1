/**
 * attention-lens [options] [--] PATH...: the same analysis as the extension, for CI. Exit 1 when an error
 * diagnostic is found, 2 for bad usage or a path or file that could not be read or parsed (the other paths
 * are still analysed), else 0.
 */
import { sitePackagesOf } from './service/pythonEnvironments';
import { analyzeFiles, defaultWorkers } from './cli/analyze';
import { parseArgs, USAGE } from './cli/args';
import { wantsColour } from './cli/colour';
import { chosenMissing, exitCodeOf, runOutput, type OutputSettings } from './cli/fileOutput';
import { collectFiles } from './cli/files';
import { packageVersion } from './cli/version';
import { tuneCompilerForShortRun } from './cli/jit';
import { visibleControls } from './core/present/controls';
import { isCliWorker, serveJobs } from './cli/worker';

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
  const settings: OutputSettings = {
    format: command.format,
    sizing: command.sizing,
    colour: wantsColour(process.env, process.stdout.isTTY === true),
    chosen: command.chosen,
  };
  const packages = command.pythonPath.flatMap((given) => {
    const found = sitePackagesOf(given);
    if (!found.length)
      process.stderr.write(`attention-lens: --python-path ${visibleControls(given)}: no Python packages there\n`);
    return found;
  });
  const outputs = await analyzeFiles(files, { folders: [...roots, ...command.workspace], packages }, settings, {
    count: command.jobs ?? defaultWorkers(files.length),
    script: __filename,
  });
  const missing = chosenMissing(outputs, settings);
  for (const name of missing)
    process.stderr.write(
      `attention-lens: --config ${visibleControls(name)}: no class of the files analysed has a configuration of that name\n`,
    );
  const code = exitCodeOf(outputs, problems.length > 0 || missing.length > 0);
  process.stdout.write(runOutput(outputs, settings, problems, code, packageVersion()));
  return code;
}

if (isCliWorker()) {
  tuneCompilerForShortRun();
  serveJobs();
} else if (require.main === module) {
  tuneCompilerForShortRun();
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
