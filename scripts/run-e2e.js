#!/usr/bin/env node
// End-to-end check of what a person sees: packages the extension (npm run package), installs the
// .vsix into code-server the way a user would (--install-extension), opens examples/ in headless
// Chromium and drives the workbench with the keyboard and mouse: CodeLens text, hover text, the
// Problems panel, a quick fix through the light bulb (Ctrl+.), the command palette, the Explain panel
// in a 500-pixel-wide editor group, the short hover and its More link, each CodeLens / inline mode, and
// the model sizing panel in a 500-pixel group, configurations (presets, a builder beside the model file).
// Screenshots of each step go to test-output/e2e/ (11-lens-hover-panel.png is the README's picture).
//   node scripts/run-e2e.js                 package, install, test
//   node scripts/run-e2e.js --vsix=x.vsix   test an existing package
//   node scripts/run-e2e.js --dev           load the working tree as a development extension
//                                           (EXT_DEV_PATH=... to point elsewhere); needs a build
//   E2E_ONLY=REGEX node scripts/run-e2e.js  only the steps whose names match (a step may need the state
//                                           that the steps before it leave)
// Exit 0 all passed, 1 a check failed, 2 the harness failed. Last line: `e2e: N passed, N failed`.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const {
  ROOT,
  ensureCodeServer,
  copyToTemp,
  run,
  startCodeServer,
  launchChromium,
  remoteUri,
} = require('./lib-codeserver');
const { flat, workbench } = require('./e2e-workbench');
const { surfaceSteps } = require('./e2e-surfaces');
const { modelSteps } = require('./e2e-model');
const { papercutSteps } = require('./e2e-papercuts');

const OUT = path.join(ROOT, 'test-output', 'e2e');
const arg = (name) => process.argv.slice(2).find((a) => a === `--${name}` || a.startsWith(`--${name}=`));

const results = [];
let page; // the workbench tab, for a screenshot when a step fails
async function step(name, fn) {
  if (process.env.E2E_ONLY && !new RegExp(process.env.E2E_ONLY, 'i').test(name)) return;
  const t = Date.now();
  try {
    await fn();
    results.push(true);
    console.log(`  ✔ ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    results.push(false);
    const shot = path.join(OUT, `failed-${results.length}.png`);
    if (page) await page.screenshot({ path: shot }).catch(() => {});
    console.log(
      `  ✘ ${name}: ${String(e && e.message)
        .split('\n')
        .slice(0, 6)
        .join('\n      ')}`,
    );
    console.log(`    (screen at failure: ${path.relative(ROOT, shot)})`);
  }
}

async function main() {
  const t0 = Date.now();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  ensureCodeServer();

  const dev = arg('dev');
  let vsix = arg('vsix') && arg('vsix').split('=')[1];
  if (!dev && !vsix) {
    if (run('npm', ['run', '--silent', 'package']) !== 0) throw new Error('npm run package failed');
    const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    vsix = path.join(ROOT, `${name}-${version}.vsix`);
  }
  // A copy: the test types into files and applies a fix, and examples/ must stay as it is.
  const examples = copyToTemp(path.join(ROOT, 'examples'));
  // GPT-2 small as the tests check it, for the model panel: its activations are followed.
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), path.join(examples, 'gpt2_small.py'));
  // Models that take a configuration, built nowhere in the file (nanoGPT's way): counted with its defaults.
  fs.copyFileSync(
    path.join(ROOT, 'test/fixtures/models/pytorch/config_defaults.py'),
    path.join(examples, 'config_defaults.py'),
  );
  // Preset tables (nanoGPT's from_pretrained, gpt-fast's from_name): a configuration picked from the class lens.
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/presets.py'), path.join(examples, 'presets.py'));
  // A package whose model files a builder and a train script beside them build.
  fs.cpSync(path.join(ROOT, 'test/fixtures/models/pytorch/importers'), path.join(examples, 'importers'), {
    recursive: true,
  });
  // A notebook whose class is built in a later cell.
  fs.copyFileSync(
    path.join(ROOT, 'test/integration/workspace/later_cells.ipynb'),
    path.join(examples, 'later_cells.ipynb'),
  );
  const server = await startCodeServer({ verbose: !!process.env.VERBOSE, installVsix: vsix });
  console.log(`[e2e] code-server up in ${server.startMs} ms`);
  const context = await launchChromium();
  try {
    page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(30000);
    const shot = (n) => page.screenshot({ path: path.join(OUT, n) });
    // A part of the window only (the README's pictures): the editors, or one editor group.
    const shotOf = async (n, locator) =>
      page.screenshot({ path: path.join(OUT, n), clip: await locator.boundingBox() });
    const payload = JSON.stringify([
      ...(dev ? [['extensionDevelopmentPath', remoteUri(server.port, process.env.EXT_DEV_PATH || ROOT)]] : []),
      ['skipWelcome', 'true'],
    ]);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(examples)}&payload=${encodeURIComponent(payload)}`);

    const wb = workbench(page);
    const { editorLine, openFile, wordBox, goTo, panel } = wb;

    await step('workbench opens examples/', async () => {
      await page.locator('.monaco-workbench').waitFor();
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'attention.py' }).waitFor();
      await shot('01-workbench.png');
    });

    await step('CodeLens "1,050,624 params · 8 heads × 64" above nn.MultiheadAttention(512, 8)', async () => {
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 700, y: 400 } })
        .catch(() => {});
      await openFile('attention.py', 'class SelfAttentionBlock');
      const lens = page
        .locator('.monaco-editor .codelens-decoration', { hasText: '1,050,624 params · 8 heads × 64' })
        .first();
      await lens.waitFor();
      const all = await page.locator('.monaco-editor .codelens-decoration').allInnerTexts();
      console.log('    lenses:', JSON.stringify(all.map(flat)));
      assert.ok(
        all.map(flat).some((t) => /^1,050,624 params · 512 → 2,?048$/.test(t)),
        'lens for nn.Linear(512, 2048) missing',
      );
      // The lens sits directly above its layer: compare vertical positions.
      const lensBox = await lens.boundingBox();
      const lineBox = await editorLine('nn.MultiheadAttention(512, 8)').boundingBox();
      assert.ok(
        lensBox && lineBox && lensBox.y < lineBox.y && lineBox.y - lensBox.y < 40,
        'lens not right above its line',
      );
      await shot('02-codelens.png');
    });

    await step('hover over MultiheadAttention shows 1,050,624, in_proj_weight and d_k', async () => {
      const box = await wordBox(editorLine('nn.MultiheadAttention(512, 8)'), 'MultiheadAttention');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: '1,050,624' }).first();
      await hover.waitFor();
      const text = flat(await hover.innerText());
      console.log('    hover:', JSON.stringify(text.slice(0, 300)));
      // Let the hover's fade-in finish so that the screenshot shows it as a person sees it.
      await hover.evaluate((el) =>
        Promise.all(
          el
            .closest('.monaco-hover')
            .getAnimations({ subtree: true })
            .map((a) => a.finished),
        ),
      );
      await shot('03-hover.png');
      assert.match(text, /in_proj_weight.*\[1536, 512\].*786,432/);
      assert.ok(text.includes('d_k = 512 / 8 = 64'), 'd_k line missing');
    });

    await step('Problems panel lists the planted heads-divisibility error', async () => {
      await page.mouse.move(5, 5); // away from the hover
      await page.keyboard.press('Escape');
      await openFile('shape_errors.py', 'class BrokenEncoder');
      await page.keyboard.press('Control+Shift+M');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'heads-divisibility' }).first();
      await row.waitFor();
      const rows = (await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map(flat);
      console.log('    problems:', JSON.stringify(rows));
      assert.match(flat(await row.innerText()), /attention-lens.*\[Ln 10, Col 21\]/);
      assert.ok(
        rows.some((r) => r.includes('negative-size')),
        'negative-size row missing',
      );
      assert.ok(
        rows.some((r) => r.includes('non-integer-size')),
        'non-integer-size row missing',
      );
      await shot('04-problems.png');
    });

    await step('light bulb (Ctrl+.) applies "Use 12 heads (768 / 12 = 64)"', async () => {
      await goTo(10, 45); // inside nn.MultiheadAttention(768, 10)
      await page.keyboard.press('Control+.');
      const item = page.locator('.action-widget .monaco-list-row', { hasText: 'Use 12 heads (768 / 12 = 64)' }).first();
      await item.waitFor();
      const items = (await page.locator('.action-widget .monaco-list-row').allInnerTexts()).map(flat);
      console.log('    quick fixes:', JSON.stringify(items));
      assert.ok(items.includes('Use 8 heads (768 / 8 = 96)'), 'the 8-heads fix is missing');
      await shot('05-quickfix-menu.png');
      // Arrow keys to the fix, then Enter, as from the keyboard (the menu animates in, which
      // makes a mouse click flaky).
      for (let i = 0; i < items.length; i++) {
        const focused = flat(
          await page
            .locator('.action-widget .monaco-list-row.focused')
            .first()
            .innerText()
            .catch(() => ''),
        );
        if (focused === 'Use 12 heads (768 / 12 = 64)') break;
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await editorLine('nn.MultiheadAttention(768, 12)').waitFor();
      await page
        .locator('.markers-panel .monaco-list-row', { hasText: 'heads-divisibility' })
        .waitFor({ state: 'detached' });
      await page
        .locator('.monaco-editor .codelens-decoration', { hasText: '2,362,368 params · 12 heads × 64' })
        .first()
        .waitFor();
      await shot('06-quickfix-applied.png');
    });

    await step('command palette finds "Attention Lens: Explain attention shapes"', async () => {
      await goTo(1, 1); // focus back in the Python editor: the palette entry is for Python/TypeScript editors
      await page.keyboard.press('Control+Shift+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      await input.fill('>Explain attention shapes');
      const row = page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'Attention Lens: Explain attention shapes' })
        .first();
      await row.waitFor();
      await shot('07-palette.png');
      await page.keyboard.press('Escape');
    });

    // The rest of the panel, section by section, as a reader scrolls it.
    async function panelSections(prefix) {
      for (const [i, title] of ['Data flow', 'Parameters', 'Why W_Q and W_K are two matrices'].entries()) {
        await panel().locator('h2', { hasText: title }).scrollIntoViewIfNeeded();
        await shot(`${prefix}${'bcd'[i]}-explain-${title.split(' ')[0].toLowerCase()}.png`);
      }
      await panel().locator('h1').scrollIntoViewIfNeeded();
    }

    await step('the palette opens "Explain attention shapes" on the layer under the cursor', async () => {
      await goTo(10, 21); // nn.MultiheadAttention(768, 12) after the quick fix
      await page.keyboard.press('Control+Shift+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      await input.fill('>Explain attention shapes');
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'Attention Lens: Explain attention shapes' })
        .first()
        .waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.tab', { hasText: 'Explain attention shapes' }).waitFor();
      await panel().locator('h1', { hasText: 'shape_errors.py:10' }).waitFor();
      const text = flat(await panel().locator('main').innerText());
      assert.match(text, /in_proj_weight W_Q, W_K, W_V stacked \[2304, 768\] 1,769,472/);
      assert.match(text, /total 2,362,368/);
      assert.match(text, /rank at most d_k = 64/);
      await shot('08-explain-from-palette.png');
    });

    await step('a CodeLens on another attention layer moves the panel to it', async () => {
      // Back to attention.py by its tab, as a person would: keys typed in the panel stay in the panel.
      await page.locator('.tab', { hasText: 'attention.py' }).first().click();
      await editorLine('class SelfAttentionBlock').waitFor();
      await page
        .locator('.monaco-editor .codelens-decoration a', { hasText: '1,050,624 params · 8 heads × 64' })
        .first()
        .click();
      await panel().locator('h1', { hasText: 'attention.py:12' }).waitFor();
      assert.match(flat(await panel().locator('main').innerText()), /d_k = E \/ h 64/);
      await shot('09-explain-from-codelens-light.png');
      await panelSections('09');
    });

    await surfaceSteps({ page, step, shot, shotOf, wb });

    await step('the panel reads well in a dark theme', async () => {
      await editorLine('import torch.nn as nn').click({ position: { x: 5, y: 5 } }); // keyboard focus in the editor
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+T'); // Preferences: Color Theme
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Dark Modern' }).first().waitFor();
      await page.keyboard.type('Dark Modern');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Dark Modern' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.monaco-workbench.vs-dark').waitFor();
      await panel().locator('h1', { hasText: 'attention.py:12' }).waitFor();
      await shot('10-explain-dark.png');
      await panelSections('10');
    });

    await modelSteps({ page, step, shot, shotOf, wb });
    await papercutSteps({ page, step, shot, shotOf, wb });
  } finally {
    await context.close();
    await server.stop();
    fs.rmSync(path.dirname(examples), { recursive: true, force: true });
    console.log(`[e2e] total ${((Date.now() - t0) / 1000).toFixed(1)} s, screenshots in ${path.relative(ROOT, OUT)}/`);
  }
}

main()
  .then(
    () => 0,
    (e) => {
      console.error('[e2e] error:', (e && e.stack) || e);
      return 2;
    },
  )
  .then((code) => {
    const passed = results.filter(Boolean).length;
    const failed = results.length - passed + (code === 2 && results.length === 0 ? 1 : 0);
    console.log(`e2e: ${passed} passed, ${failed} failed`);
    process.exit(code === 2 ? 2 : failed ? 1 : 0);
  });
