#!/usr/bin/env node
// `npm test`: the unit tests (npm run test:unit), the static checks (npm run check: ESLint, Prettier and
// the import cycles, one row), then the integration tests in a real VS Code
// (scripts/run-integration.js), from a fresh clone after `npm ci`: it installs what the VS Code
// tests need (scripts/setup-code-server.sh: apt packages when missing, code-server into
// .vscode-test/) and builds the extension. Both runners always run, so one failure does not hide
// the other's results. It ends with each runner's counts and a combined `N passed, N failed` line;
// a runner that fails without counts (a compile error, a harness crash) counts as one failure, so
// the total can never read "0 failed" when something broke. Exit code non-zero on any failure.
'use strict';
const { spawn } = require('child_process');
const { ROOT, ensureCodeServer } = require('./lib-codeserver');

/** Runs a command, echoing its output live, and resolves with { code, output }. */
function runCaptured(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code: code === null ? 1 : code, output }));
  });
}

// Counts from mocha's spec reporter ("  12 passing (30ms)", "  1 failing", "  2 pending").
function mochaCounts(output) {
  const n = (re) => {
    const m = [...output.matchAll(re)].pop();
    return m ? +m[1] : 0;
  };
  const seen = /^\s*\d+ passing/m.test(output) || /^\s*\d+ failing/m.test(output);
  return seen
    ? { passed: n(/^\s*(\d+) passing/gm), failed: n(/^\s*(\d+) failing/gm), skipped: n(/^\s*(\d+) pending/gm) }
    : null;
}

// Counts from our runners' closing line ("integration: 24 passed, 0 failed[, 1 skipped]").
function closingCounts(output, label) {
  const m = [
    ...output.matchAll(new RegExp(`^${label}: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?$`, 'gm')),
  ].pop();
  return m ? { passed: +m[1], failed: +m[2], skipped: +(m[3] || 0) } : null;
}

async function main() {
  const t0 = Date.now();
  const rows = [];
  const record = (label, { code, output }, counts) => {
    let c = counts(output) || { passed: 0, failed: 0, skipped: 0 };
    if (code !== 0 && c.failed === 0) c = { ...c, failed: 1 }; // failed without reporting a failure
    rows.push({ label, code, ...c });
  };

  console.log('== unit tests (npm run test:unit)');
  record('unit', await runCaptured('npm', ['run', 'test:unit']), mochaCounts);

  // ESLint, Prettier and the import cycles: one check, passed or failed.
  console.log('\n== static checks (npm run check)');
  const checks = await runCaptured('npm', ['run', '--silent', 'check']);
  rows.push({
    label: 'checks',
    code: checks.code,
    passed: checks.code === 0 ? 1 : 0,
    failed: checks.code === 0 ? 0 : 1,
    skipped: 0,
  });

  console.log('\n== integration tests (real VS Code extension host)');
  let setupOk = true;
  try {
    ensureCodeServer();
  } catch (e) {
    console.error(String(e.message));
    setupOk = false;
  }
  const build = setupOk ? await runCaptured('npm', ['run', '--silent', 'build']) : { code: 1, output: '' };
  if (build.code !== 0) {
    console.error(
      setupOk ? 'npm run build failed: integration tests not run' : 'setup failed: integration tests not run',
    );
    rows.push({ label: 'integration', code: 2, passed: 0, failed: 1, skipped: 0 });
  } else {
    // out/ was compiled by test:unit (tsc -p . covers test/integration too).
    record('integration', await runCaptured(process.execPath, ['scripts/run-integration.js', '--no-build']), (out) =>
      closingCounts(out, 'integration'),
    );
  }

  const total = rows.reduce(
    (a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  console.log(`\n== summary (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  for (const r of rows)
    console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  return rows.some((r) => r.code !== 0) || total.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
