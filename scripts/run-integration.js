#!/usr/bin/env node
// Integration tests: the mocha suite in test/integration/suite runs inside a real VS Code extension
// host, launched by @vscode/test-electron's stock runTests(). Only vscodeExecutablePath differs from
// the usual setup: it points at scripts/code-shim.js, which runs the tests in code-server (VS Code
// 1.100 from npm) since desktop VS Code cannot be downloaded here.
//   node scripts/run-integration.js [--no-build]     (--no-build: dist/ and out/ are already fresh)
// Env: EXT_DEV_PATH (extension folder, default the repo), TEST_TIMEOUT_MS, VERBOSE=1 (server log).
// Exit 0 all passed, 1 a test failed, 2 the harness failed. Last line: `integration: N passed, N failed`.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { runTests } = require('@vscode/test-electron');
const { ROOT, ensureCodeServer, copyToTemp, run } = require('./lib-codeserver');

const FIXTURES = ['gpt.py', 'gpt_variants.py', 'forward_errors.py', 'config_defaults.py', 'presets.py'];

async function main() {
  const t0 = Date.now();
  ensureCodeServer();
  if (!process.argv.includes('--no-build')) {
    // dist/extension.js is what VS Code loads; out/test/integration is the compiled suite.
    if (run('npm', ['run', '--silent', 'build']) !== 0) return finish(2, null, 'npm run build failed');
    if (run('npm', ['run', '--silent', 'compile']) !== 0) return finish(2, null, 'npm run compile failed');
  }
  const resultFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lens-it-')), 'result.json');
  const shim = path.join(__dirname, 'code-shim.js');
  fs.chmodSync(shim, 0o755); // test-electron executes it directly; survive a checkout that lost the mode bit
  // A throwaway copy of the fixture folder: tests edit files (and revert them), and a bug must not
  // be able to change the fixtures in the repository.
  const workspace = copyToTemp(path.join(ROOT, 'test/integration/workspace'));
  // Model files whose numbers the ground-truth scripts check join the workspace as they are, not as copies.
  for (const file of FIXTURES)
    fs.copyFileSync(path.join(ROOT, 'test/fixtures/models/pytorch', file), path.join(workspace, file));
  let code;
  try {
    code = await runTests({
      vscodeExecutablePath: shim,
      extensionDevelopmentPath: path.resolve(process.env.EXT_DEV_PATH || ROOT),
      extensionTestsPath: path.join(ROOT, 'out/test/integration/suite'),
      // The folder to open; --disable-extensions matters only for desktop VS Code (code-server
      // starts with an empty extensions folder anyway).
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv: { ATTENTION_LENS_RESULT_FILE: resultFile },
    });
  } catch (e) {
    code = typeof e.code === 'number' ? e.code : 2; // TestRunFailedError carries the shim's exit code
  }
  let res = null;
  try {
    res = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  } catch {
    /* shim died before writing */
  }
  fs.rmSync(path.dirname(resultFile), { recursive: true, force: true });
  fs.rmSync(path.dirname(workspace), { recursive: true, force: true });
  if (!res || typeof res.passes !== 'number') code = code || 2; // no counts is never a pass
  return finish(code, res, null, t0);
}

function finish(code, res, why, t0 = Date.now()) {
  if (why) console.error(`[integration] ${why}`);
  console.log(`[integration] finished in ${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${code}`);
  if (res && typeof res.passes === 'number') {
    console.log(
      `integration: ${res.passes} passed, ${res.failures} failed${res.pending ? `, ${res.pending} skipped` : ''}`,
    );
  } else {
    console.log('[integration] no test counts (the harness failed before mocha reported); counted as one failure');
    console.log('integration: 0 passed, 1 failed');
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
