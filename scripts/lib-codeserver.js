// Shared helpers for the integration tests, the end-to-end tests and `npm start`:
// start code-server (a real VS Code 1.100: server + web workbench + Node extension host) on loopback,
// drive its workbench with headless Debian Chromium through playwright-core, and run an extension
// test module inside its extension host. Desktop VS Code is not obtainable on an offline machine
// (npm and apt only), code-server is; see scripts/setup-code-server.sh for the install.
'use strict';
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const http = require('http');
const util = require('util');

const ROOT = path.resolve(__dirname, '..');
const CS_DIR = process.env.CODE_SERVER_DIR || path.join(ROOT, '.vscode-test/cs');
const CS_BIN = process.env.CODE_SERVER_BIN || path.join(CS_DIR, 'node_modules/code-server/out/node/entry.js');
// The Node that runs code-server (and so the extension host) must be the one its native modules
// were built for: the one setup-code-server.sh recorded.
const CS_NODE =
  process.env.CODE_SERVER_NODE ||
  (fs.existsSync(path.join(CS_DIR, 'node-path'))
    ? fs.readFileSync(path.join(CS_DIR, 'node-path'), 'utf8').trim()
    : process.execPath);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Installs Chromium/code-server when missing (about a second when already there). */
function ensureCodeServer() {
  const r = spawnSync('bash', [path.join(__dirname, 'setup-code-server.sh')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('scripts/setup-code-server.sh failed');
}

/** A throwaway copy of a fixture folder, so that nothing a test types can reach the repository. */
function copyToTemp(dir) {
  const dest = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lens-ws-')), path.basename(dir));
  fs.cpSync(dir, dest, { recursive: true });
  return dest;
}

/** Runs a command with inherited output; returns its exit code. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  return r.status === null ? 1 : r.status;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(0);
    });
  });
}

// User settings for a quiet, deterministic workbench: a bare start shows a welcome page, a trust
// prompt, telemetry and chat banners, all of which steal focus from what the tests look at.
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'window.commandCenter': false,
  'editor.hover.delay': 100,
  // VS Code for the web saves edits after a second by default; tests edit fixture files and must
  // leave them as they are on disk.
  'files.autoSave': 'off',
};

/**
 * Starts code-server on a free loopback port with throwaway profile folders (HOME included, since
 * code-server writes ~/.config/code-server/config.yaml on any start).
 * options: installVsix (install a packaged extension first, as a user would), folder (opened when the
 * bare address is visited), settings (extra user settings), port, verbose, env, extraArgs.
 */
async function startCodeServer({
  env = {},
  extraArgs = [],
  verbose = false,
  installVsix,
  folder,
  settings = {},
  port,
} = {}) {
  if (!fs.existsSync(CS_BIN))
    throw new Error(`code-server not installed at ${CS_BIN}: run bash scripts/setup-code-server.sh`);
  port = port || (await freePort());
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lens-cs-'));
  const home = path.join(root, 'home');
  const userData = path.join(root, 'user-data');
  const extDir = path.join(root, 'extensions');
  for (const d of [home, userData, extDir, path.join(userData, 'User')]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2),
  );
  const configFile = path.join(root, 'config.yaml');
  fs.writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const common = ['--config', configFile, '--user-data-dir', userData, '--extensions-dir', extDir];
  const childEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    EXTENSIONS_GALLERY: '{}', // no marketplace look-ups on a closed network
    ...env,
  };
  if (installVsix) {
    const ti = Date.now();
    const r = spawnSync(CS_NODE, [CS_BIN, ...common, '--install-extension', path.resolve(installVsix), '--force'], {
      env: childEnv,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error('--install-extension failed: ' + r.stdout + r.stderr);
    console.log(
      `[cs] installed ${path.basename(installVsix)} in ${Date.now() - ti} ms: ${r.stdout.trim().split('\n').pop()}`,
    );
  }
  const args = [
    CS_BIN,
    ...common,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
    ...extraArgs,
    ...(folder ? [path.resolve(folder)] : []),
  ];
  const t0 = Date.now();
  // Own process group, so stop() can end code-server together with the extension host and
  // file watcher processes it forks, and nothing is left running.
  const child = spawn(CS_NODE, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const logFile = path.join(root, 'server.log');
  const log = fs.createWriteStream(logFile);
  child.stdout.on('data', (d) => {
    log.write(d);
    if (verbose) process.stdout.write('[server] ' + d);
  });
  child.stderr.on('data', (d) => {
    log.write(d);
    if (verbose) process.stderr.write('[server] ' + d);
  });
  const url = `http://127.0.0.1:${port}`;
  const killGroup = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => {
          killGroup('SIGKILL');
          r();
        }, 5000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
    killGroup('SIGKILL'); // forked helpers that outlived their parent
    log.end();
    if (!process.env.KEEP_TMP) fs.rmSync(root, { recursive: true, force: true });
  };
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`code-server exited early (${child.exitCode}): ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    if ((await httpStatus(url + '/healthz')) === 200) break;
    if (Date.now() - t0 > 60000) {
      await stop();
      throw new Error('code-server did not start in 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, root, logFile, startMs: Date.now() - t0, child, stop };
}

/** Headless Debian Chromium with a fresh profile; returns a playwright BrowserContext. */
async function launchChromium() {
  const { chromium } = require('playwright-core');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lens-chromium-'));
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--disable-breakpad',
    '--disable-crash-reporter',
  ];
  // Chromium writes crash reports and dconf files under $HOME: keep them in the throwaway profile.
  const home = path.join(userDataDir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  // launchPersistentContext is how playwright takes a --user-data-dir.
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args,
    env,
    viewport: { width: 1400, height: 900 },
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close().catch(() => {});
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return context;
}

// Workbench start-up chatter relayed with the extension host's console; shown with VERBOSE=1.
const WORKBENCH_NOISE =
  /^(Resolving connection token|Resolved connection token|Creating a socket|\[Service Worker\]|Ignoring fetching additional builtin extensions|Updating additional builtin extensions cache|ChatSessionStore:)/;

/** A path on the server machine as the workbench addresses it (code-server is its own "remote"). */
const remoteUri = (port, p) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;

/**
 * Runs an extension test module (exports run(): Promise) in code-server's extension host, the
 * way desktop VS Code does for --extensionTestsPath. code-server has no test flags, but the
 * workbench URL takes the same options as a `payload`, and the workbench reports the extension
 * host's exit code and console output through window.codeAutomationExit / codeAutomationLog.
 * Resolves to { code: 0 passed | 1 tests failed | 2 harness error, stats: {passes, failures, pending} }.
 */
async function runExtensionTests({
  extensionDevelopmentPaths,
  extensionTestsPath,
  workspace,
  timeoutMs = 240000,
  env = {},
}) {
  const t0 = Date.now();
  let server,
    context,
    code = 2,
    stats;
  const cleanup = async () => {
    if (context) await context.close();
    if (server) await server.stop();
    context = server = undefined;
  };
  // test-electron forwards Ctrl+C as SIGINT: leave no server or browser behind.
  const onSignal = async () => {
    await cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    server = await startCodeServer({ verbose: !!process.env.VERBOSE, env });
    console.log(`[runner] code-server up at ${server.url} in ${server.startMs} ms`);
    context = await launchChromium();
    const page = context.pages()[0] || (await context.newPage());
    const done = new Promise((resolve) => {
      page.exposeFunction('codeAutomationLog', (type, args) => {
        const line = util.format(...args); // args[0] is a printf-style format string
        const m = /^MOCHA_RESULT (.*)$/.exec(line);
        if (m) {
          stats = JSON.parse(m[1]);
          return;
        }
        if (!process.env.VERBOSE && WORKBENCH_NOISE.test(line)) return;
        (type === 'error' ? console.error : console.log)(line);
      });
      page.exposeFunction('codeAutomationExit', (exitCode) => resolve(exitCode));
    });
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    if (process.env.VERBOSE) page.on('console', (m) => console.log('[browser]', m.type(), m.text()));
    const payload = JSON.stringify([
      ...extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', remoteUri(server.port, p)]),
      ['extensionTestsPath', remoteUri(server.port, extensionTestsPath)],
      ['skipWelcome', 'true'],
    ]);
    const ws = workspace ? `folder=${encodeURIComponent(path.resolve(workspace))}&` : 'ew=true&';
    await page.goto(`${server.url}/?${ws}payload=${encodeURIComponent(payload)}`);
    let timer;
    const result = await Promise.race([
      done,
      new Promise((r) => {
        timer = setTimeout(() => r('timeout'), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (result === 'timeout') {
      const shot = path.join(ROOT, 'test-output', 'integration-timeout.png');
      fs.mkdirSync(path.dirname(shot), { recursive: true });
      await page.screenshot({ path: shot }).catch(() => {});
      console.error(`[runner] timed out after ${timeoutMs} ms waiting for the extension host (screenshot: ${shot})`);
    } else {
      code = result === 0 ? 0 : 1;
      console.log(`[runner] extension host exited with code ${result}`);
      if (!stats) {
        console.error('[runner] the test module reported no MOCHA_RESULT line');
        code = 2;
      }
    }
  } catch (e) {
    console.error('[runner] error:', (e && e.stack) || e);
    code = 2;
  } finally {
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    console.log(`[runner] total ${Date.now() - t0} ms, exit ${code}`);
  }
  return { code, stats };
}

module.exports = {
  ROOT,
  CS_BIN,
  CS_NODE,
  ensureCodeServer,
  copyToTemp,
  run,
  startCodeServer,
  launchChromium,
  runExtensionTests,
  remoteUri,
};
