#!/usr/bin/env node
// Stands in for the VS Code desktop executable, so that @vscode/test-electron's
// runTests({ vscodeExecutablePath: <this file> }) (or @vscode/test-cli's useInstallation.fromPath)
// works unchanged on a machine where desktop VS Code cannot be downloaded. It accepts the flags
// VS Code takes for tests (--extensionDevelopmentPath=, --extensionTestsPath=, a folder to open),
// ignores the others (--no-sandbox, --user-data-dir=... make no sense for code-server, which gets
// throwaway profiles), and runs the tests in code-server's Node extension host instead of Electron.
// With internet access the same tests run in desktop VS Code by dropping vscodeExecutablePath.
'use strict';
const fs = require('fs');
const { runExtensionTests } = require('./lib-codeserver');

const extensionDevelopmentPaths = [];
let extensionTestsPath, workspace;
for (const a of process.argv.slice(2)) {
  let m;
  if ((m = /^--extensionDevelopmentPath=(.*)$/.exec(a))) extensionDevelopmentPaths.push(m[1]);
  else if ((m = /^--extensionTestsPath=(.*)$/.exec(a))) extensionTestsPath = m[1];
  else if (!a.startsWith('-')) workspace = a; // positional: the folder to open (runTests' launchArgs)
}
if (!extensionTestsPath || !extensionDevelopmentPaths.length) {
  console.error('code-shim: need --extensionDevelopmentPath= and --extensionTestsPath=');
  process.exit(2);
}

runExtensionTests({
  extensionDevelopmentPaths,
  extensionTestsPath,
  workspace,
  timeoutMs: +(process.env.TEST_TIMEOUT_MS || 240000),
}).then(({ code, stats }) => {
  // scripts/run-integration.js asks for the counts in a file (test-electron only passes on the exit
  // code) and prints the closing line itself, last; run alone, the shim prints it.
  const file = process.env.ATTENTION_LENS_RESULT_FILE;
  if (file) fs.writeFileSync(file, JSON.stringify({ code, ...stats }));
  else if (stats)
    console.log(
      `integration: ${stats.passes} passed, ${stats.failures} failed${stats.pending ? `, ${stats.pending} skipped` : ''}`,
    );
  process.exit(code);
});
