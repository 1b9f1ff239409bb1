// The end-to-end steps of what a new user hit first (issue 24): the Explain command run from inside a class,
// inline counts on GPT-2's long lines, the model hover, a notebook whose class is built in a later cell, the
// CLI's rows opened from a VS Code terminal as links, and (issue 28) a file of models that take a
// configuration, counted with its defaults on first open, and a file of preset tables whose configuration is
// switched from the class lens. Run by run-e2e.js, in its workbench, after the
// model panel's steps; later_cells.ipynb is test/integration/workspace's, copied beside the examples.
'use strict';
const assert = require('assert');
const path = require('path');
const { ROOT } = require('./lib-codeserver');
const { flat } = require('./e2e-workbench');

async function papercutSteps({ page, step, shot, shotOf, wb }) {
  const { editorLine, pick, wordBox, goTo, runCommand, setSetting, panel } = wb;
  const closeTab = async (title) => {
    const tab = page.locator('.tab', { hasText: title });
    if (!(await tab.count())) return;
    await tab.locator('.tab-actions .action-label').first().click();
    await tab.waitFor({ state: 'detached' });
  };
  // Opened by Ctrl+P as a person does; an editor already open keeps its scroll, so the line is gone to with Ctrl+G.
  const openAt = async (name, line, col, text) => {
    await pick('Control+P', name, name);
    await page.locator('.tab.active', { hasText: name }).waitFor();
    await goTo(line, col);
    await editorLine(text).waitFor();
  };
  // Keyboard focus back in the code (a closed panel leaves it nowhere), before any shortcut.
  const focusCode = async () => {
    const lines = page.locator('.editor-instance .view-lines').filter({ visible: true }).first();
    if (await lines.count()) await lines.click();
  };

  await step('"Explain attention shapes" from a line inside a class opens its attention layer', async () => {
    await closeTab('Explain model sizing');
    await focusCode();
    await openAt('attention.py', 17, 9, 'def forward(self, x: torch.Tensor)'); // SelfAttentionBlock's: no layer on that line
    await runCommand('Attention Lens: Explain attention shapes');
    await panel().locator('h1', { hasText: 'attention.py:12' }).waitFor();
    await shot('20-explain-inside-class.png');
  });

  await step("inline counts on GPT-2's long lines: the count alone, at the end of the line", async () => {
    await closeTab('Explain attention shapes');
    await focusCode();
    await setSetting('attentionLens.inline.enabled', true);
    await closeTab('Settings');
    try {
      await focusCode();
      await openAt('gpt2_small.py', 36, 1, 'self.c_attn = nn.Linear(');
      // Monaco draws the lines again as it scrolls: the line is looked up anew at each try.
      // The layers' CodeLenses go once their counts are inline; the class's total stays in its lens.
      await page.waitForFunction(() => {
        const lenses = [...document.querySelectorAll('.monaco-editor .codelens-decoration')].map((c) => c.textContent);
        const inline = [...document.querySelectorAll('.editor-instance .view-line')].some((l) =>
          /self\.c_attn = nn\.Linear\(.*bias=config\.bias\)\s?[\d,]+$/.test(l.textContent.replace(/\s+/g, ' ')),
        );
        return (
          inline && !lenses.some((t) => t.includes('768 → 2,304')) && lenses.some((t) => t.includes('2,362,368 params'))
        );
      });
      const text = flat(await editorLine('self.c_attn = nn.Linear(').textContent());
      console.log('    long line:', JSON.stringify(text));
      assert.ok(!text.includes('params ·'), 'the inline count carries the lens title');
      await shotOf('21-inline-long-lines.png', page.locator('.part.editor'));
    } finally {
      await setSetting('attentionLens.inline.enabled', false);
      await closeTab('Settings');
    }
  });

  await step('the model hover: the total, the memory once, the sizing link under the title', async () => {
    await focusCode();
    await openAt('gpt2_small.py', 202, 1, 'model = GPT(GPTConfig())');
    const box = await wordBox(editorLine('model = GPT(GPTConfig())'), 'GPT');
    // The editor may close a hover while its lenses are drawn again (after the previous step's setting change),
    // and a hover fades in: the pointer comes back from outside until one is shown whole, and its text is read
    // in the frame it is found opaque.
    const hoverText = () =>
      [...document.querySelectorAll('.monaco-hover:not(.hidden)')].find(
        (h) => h.innerText.includes('124,439,808') && getComputedStyle(h).opacity === '1',
      )?.innerText;
    let text;
    for (let tries = 0; tries < 3 && !text; tries++) {
      await page.mouse.move(5, 5);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      text = await page
        .waitForFunction(hoverText, undefined, { timeout: 10000 })
        .then((h) => h.jsonValue())
        .catch(() => undefined);
    }
    assert.ok(text, 'no model hover');
    await shot('22-model-hover.png');
    text = flat(text);
    console.log('    model hover:', JSON.stringify(text.slice(0, 300)));
    assert.ok(/sizing/i.test(text), 'no sizing link in the hover');
    await page.mouse.move(5, 5);
  });

  await step(
    'a notebook whose class is built in a later cell: the class cell shows the sizes built below',
    async () => {
      await focusCode();
      // A notebook's cells are editors of their own, outside the text editor's `.editor-instance`.
      await pick('Control+P', 'later_cells.ipynb', 'later_cells.ipynb');
      await page
        .locator('.notebook-editor .view-line', { hasText: /class\sHead/ })
        .first()
        .waitFor();
      const lenses = () =>
        page
          .locator('.codelens-decoration')
          .allInnerTexts()
          .then((all) => all.map(flat));
      for (let i = 0; i < 60 && !(await lenses()).some((t) => t.startsWith('2 sizes: 262,656 … 1,049,600 params')); i++)
        await page.waitForTimeout(500);
      const titles = await lenses();
      console.log('    notebook lenses:', JSON.stringify(titles));
      assert.ok(
        titles.some((t) => t.startsWith('2 sizes: 262,656 … 1,049,600 params')),
        'no sizes on the class cell',
      );
      assert.ok(
        titles.some((t) => t.startsWith('Head: 1,049,600')),
        'no model in the later cell',
      );
      await shot('23-notebook-later-cells.png');
    },
  );

  await step(
    "the CLI's text rows are links in a VS Code terminal: one opens the file at its line and column",
    async () => {
      await focusCode();
      await openAt('attention.py', 1, 1, 'import torch');
      await runCommand('Terminal: Create New Terminal');
      await page.locator('.terminal-wrapper.active .xterm').waitFor();
      await page.keyboard.type(`node ${JSON.stringify(path.join(ROOT, 'dist', 'cli.js'))} shape_errors.py\n`);
      // The rows are found by the terminal's own link detection, as Ctrl+click finds them.
      await page.waitForTimeout(3000);
      await shot('24a-cli-in-terminal.png');
      // Its own quick pick follows the palette's: runCommand would wait for the palette to close.
      await pick('Control+Shift+P', '>Terminal: Open Detected Link', 'Terminal: Open Detected Link');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: /shape_errors\.py:\d+:\d+/ }).first();
      await row.waitFor();
      const label = flat(await row.innerText());
      console.log('    detected link:', JSON.stringify(label));
      const [, line, col] = label.match(/shape_errors\.py:(\d+):(\d+)/);
      await shot('24b-cli-detected-links.png');
      await row.click();
      await page.locator('.tab.active', { hasText: 'shape_errors.py' }).waitFor();
      await page
        .locator('.statusbar-item', { hasText: `Ln ${line}, Col ${col}` })
        .first()
        .waitFor();
      await shot('24c-cli-link-opened.png');
    },
  );

  await step(
    "models that take a configuration, opened as shipped: each counted with its configuration's defaults",
    async () => {
      await focusCode();
      await openAt('config_defaults.py', 50, 1, 'class GPT(nn.Module):');
      const lens = page.locator('.codelens-decoration', {
        hasText: '30,592 params (30.6 K) · 2 × Block · as GPT(GPTConfig())',
      });
      await lens.first().waitFor();
      await shot('25-configuration-defaults.png');
    },
  );

  await step(
    'a preset table: the class lens lists its configurations, and the one picked is what the class, its layers and the Explain panel show',
    async () => {
      await focusCode();
      await openAt('presets.py', 26, 1, 'class GPT(nn.Module):');
      const gpt = page.locator('.codelens-decoration a', { hasText: '23,168 params (23.2 K) · 2 × Block' }).first();
      await gpt.waitFor();
      await page.locator('.codelens-decoration', { hasText: '4,224 params · 4 heads × 8' }).first().waitFor();
      await shot('26-presets-first-open.png');
      await gpt.click();
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: "GPT.from_pretrained('gpt-small')" });
      await row.first().waitFor();
      const rows = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map(flat);
      console.log('    configurations:', JSON.stringify(rows));
      assert.ok(rows[0].startsWith('Automatic'), rows[0]);
      assert.ok(
        rows.some((r) => /GPT\.from_pretrained\('gpt-wide'\) ?81,152 params/.test(r)),
        'gpt-wide row missing',
      );
      await shot('27-presets-choose.png');
      await row.first().click();
      await page
        .locator('.codelens-decoration', {
          hasText: "67,104 params (67.1 K) · 3 × Block · in GPT.from_pretrained('gpt-small')",
        })
        .first()
        .waitFor();
      const attention = page.locator('.codelens-decoration a', { hasText: '9,216 params · 4 heads × 12' }).first();
      await attention.waitFor();
      await shot('28-presets-chosen.png');
      // The class's sizing is the chosen configuration's.
      await focusCode();
      await goTo(27, 9);
      await runCommand('Attention Lens: Explain model sizing');
      await panel().locator('h1', { hasText: "GPT as GPT.from_pretrained('gpt-small') at presets.py:26" }).waitFor();
      assert.match(flat(await panel().locator('main').innerText()), /total 67,104/);
      await shot('29-presets-sizing.png');
      await closeTab('Explain model sizing');
      // The layer's lens opens its walkthrough, in gpt-small's sizes.
      await attention.click();
      await panel().locator('h1', { hasText: 'presets.py:22' }).waitFor();
      assert.match(flat(await panel().locator('main').innerText()), /total 9,216/);
      await shot('29-presets-explain-attention.png');
      await closeTab('Explain attention shapes');
      // Sizes of one's own, typed as the expression that builds the model.
      await focusCode();
      await openAt('presets.py', 26, 1, 'class GPT(nn.Module):');
      await page.locator('.codelens-decoration a', { hasText: '67,104 params' }).first().click();
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Count with other sizes' }).first().click();
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      await input.fill('GPT(GPTConfig(n_layer=5, n_embd=64))');
      await shot('30-presets-own-sizes.png');
      await page.keyboard.press('Enter');
      await page
        .locator('.codelens-decoration', {
          hasText: '179,328 params (179.3 K) · 5 × Block · in GPT(GPTConfig(n_layer=5',
        })
        .first()
        .waitFor();
      await page.locator('.codelens-decoration', { hasText: '16,640 params · 4 heads × 16' }).first().waitFor();
      await shot('31-presets-own-counted.png');
      // Back to what the file shows by itself, for whoever opens it next.
      await page.locator('.codelens-decoration a', { hasText: '179,328 params' }).first().click();
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Automatic' }).first().click();
      await page.locator('.codelens-decoration', { hasText: '23,168 params (23.2 K)' }).first().waitFor();
    },
  );

  await step(
    'a model file whose builder and train script live beside it: their models are its configurations, each with where it is stated',
    async () => {
      await focusCode();
      await pick('Control+P', 'modeling/net.py', 'net.py');
      await page.locator('.tab.active', { hasText: 'net.py' }).waitFor();
      await goTo(5, 1);
      await editorLine('class Net(nn.Module):').waitFor();
      // build.py's build_net_small(), found by the analysis after the first.
      const net = page
        .locator('.codelens-decoration a', {
          hasText: '149,962 params (150.0 K) · 2 × EncoderBlock · in build_net_small()',
        })
        .first();
      await net.waitFor();
      await shot('32-importers-first-open.png');
      await net.click();
      const large = page.locator('.quick-input-list .monaco-list-row', { hasText: 'build_net_large()' });
      await large.first().waitFor();
      const rows = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map(flat);
      console.log('    configurations:', JSON.stringify(rows));
      assert.ok(
        rows.some((r) => /build_net_large\(\) ?904,676 params · \.\.\/build\.py:16/.test(r)),
        'build_net_large() row missing',
      );
      assert.ok(
        rows.some((r) => /Net \(\.\.\/train\.py, line 15\) ?413,125 params · \.\.\/train\.py:15/.test(r)),
        'train.py row missing',
      );
      await shot('33-importers-choose.png');
      await large.first().click();
      await page.locator('.codelens-decoration', { hasText: '904,676 params' }).first().waitFor();
      await page
        .locator('.codelens-decoration', { hasText: '12,900 params · 128 → 100 · in build_net_large()' })
        .first()
        .waitFor();
      await shot('34-importers-chosen.png');
      await page.locator('.codelens-decoration a', { hasText: '904,676 params' }).first().click();
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Automatic' }).first().click();
      await page.locator('.codelens-decoration', { hasText: '149,962 params' }).first().waitFor();
    },
  );
}

module.exports = { papercutSteps };
