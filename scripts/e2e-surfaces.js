// The end-to-end steps of the surfaces a person reads at a glance: the Explain panel wide and in a
// 500-pixel group (cards, units, checked sizes, Copy as Markdown, the title's link), the short hover and its
// More link, and each CodeLens / inline mode set in the Settings editor. Run by run-e2e.js, in its workbench.
'use strict';
const assert = require('assert');
const { flat } = require('./e2e-workbench');

async function surfaceSteps({ page, step, shot, shotOf, wb }) {
  const { editorLine, wordBox, goTo, runCommand, setSetting, panel, panelGroupWidth } = wb;
  const panelText = async () => flat(await panel().locator('main').innerText());

  await step(
    'the panel in a 500-pixel-wide editor group: each table row a card, nothing wrapped word by word',
    async () => {
      await runCommand('View: Hide Panel'); // the Problems panel away: the editors get the whole height
      // Wide first: the steps as a table.
      assert.ok(Math.abs((await panelGroupWidth(900)) - 900) <= 2, 'a 900-pixel group');
      await panel()
        .locator('h2', { hasText: 'Each step' })
        .evaluate((h) => h.scrollIntoView({ block: 'start' }));
      assert.strictEqual(
        await panel()
          .locator('table.wide tbody tr')
          .first()
          .evaluate((row) => getComputedStyle(row).display),
        'table-row',
      );
      await shot('11w-explain-900px-each.png');
      await panel().locator('h1').scrollIntoViewIfNeeded();
      const width = await panelGroupWidth(500);
      assert.ok(Math.abs(width - 500) <= 2, `the group is ${width} px wide`);
      await panel().locator('h1', { hasText: 'attention.py:12' }).waitFor();
      const layout = await panel()
        .locator('table.wide')
        .first()
        .evaluate((table) => {
          const row = table.querySelector('tbody tr');
          const cells = [...row.querySelectorAll('td')].filter((td) => td.textContent);
          return {
            row: getComputedStyle(row).display,
            narrowest: Math.min(...cells.map((td) => td.getBoundingClientRect().width)),
            width: table.getBoundingClientRect().width,
          };
        });
      console.log('    narrow layout:', JSON.stringify(layout));
      assert.strictEqual(layout.row, 'block', 'rows are cards');
      assert.ok(layout.narrowest > layout.width * 0.9, 'each cell spans the card');
      assert.match(await panelText(), /Total: \d+(\.\d+)? GFLOP\./);
      await shot('11a-explain-500px.png');
      for (const [i, title] of ['Each step', 'Parameters', 'Why W_Q and W_K are two matrices'].entries()) {
        await panel()
          .locator('h2', { hasText: title })
          .evaluate((h) => h.scrollIntoView({ block: 'start' }));
        await shot(`11${'bcd'[i]}-explain-500px-${title.split(' ')[0].toLowerCase()}.png`);
        if (i === 0)
          await shotOf(
            '11e-explain-500px-group.png',
            page.locator('.editor-group-container', {
              has: page.locator('.tab', { hasText: 'Explain attention shapes' }),
            }),
          );
      }
      await panel().locator('h1').scrollIntoViewIfNeeded();
    },
  );

  await step('a size that is not one gets a message beside its field; a right one clears it', async () => {
    const batch = panel().locator('#batch');
    await batch.fill('0');
    const error = panel().locator('#batch-error');
    await error.filter({ hasText: '0 is not a size: enter 1 or more.' }).waitFor();
    assert.strictEqual(await batch.getAttribute('aria-invalid'), 'true');
    await shot('12a-explain-invalid-size.png');
    await batch.fill('2');
    await panel().locator('#batch:not([aria-invalid])').waitFor();
    assert.strictEqual(await error.innerText(), '');
    await batch.fill('8');
  });

  await step('the short hover, and More for the notes that teach', async () => {
    const box = await wordBox(editorLine('nn.MultiheadAttention(512, 8)'), 'MultiheadAttention');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: '1,050,624' }).first();
    await hover.waitFor();
    await hover.evaluate((el) =>
      Promise.all(
        el
          .closest('.monaco-hover')
          .getAnimations({ subtree: true })
          .map((a) => a.finished),
      ),
    );
    const short = flat(await hover.innerText());
    console.log('    short hover:', JSON.stringify(short));
    assert.ok(short.includes('d_k = 512 / 8 = 64') && !short.includes('holds no parameters'), short);
    // The README's first picture: the editors only (code, lens and hover on the left, the panel on the right).
    await shotOf('11-lens-hover-panel.png', page.locator('.part.editor'));
    await hover.locator('a', { hasText: 'More' }).click();
    const full = page.locator('.monaco-hover:not(.hidden)', { hasText: 'holds no parameters' }).first();
    await full.waitFor();
    await full.evaluate((el) =>
      Promise.all(
        el
          .closest('.monaco-hover')
          .getAnimations({ subtree: true })
          .map((a) => a.finished),
      ),
    );
    await shot('12c-hover-more.png');
    await page.keyboard.press('Escape');
    await page.mouse.move(5, 5);
  });

  await step('Copy as Markdown says it copied; the title goes back to the layer', async () => {
    await panel().locator('#copy').click();
    await panel().locator('#copy', { hasText: 'Copied ✓' }).waitFor();
    await shot('12b-explain-copied.png');
    await page.locator('.tab', { hasText: 'attention.py' }).first().click();
    await goTo(30, 1); // elsewhere in the file, away from any attention layer
    await panel().locator('#source').click();
    await page
      .locator('.statusbar-item', { hasText: /Ln 12, Col 21/ })
      .first()
      .waitFor();
  });

  /** Back to attention.py, once the editor shows what `ready` (an expression run in the page) waits for. */
  async function density(ready) {
    await page.locator('.tab', { hasText: 'attention.py' }).first().click();
    await editorLine('class SelfAttentionBlock').waitFor();
    await page.waitForFunction(ready, undefined, { timeout: 15000 });
    const lenses = (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts())
      .map(flat)
      .filter(Boolean);
    const lines = (await page.locator('.editor-instance .view-line').allInnerTexts()).map(flat);
    return { lenses, inline: lines.filter((l) => /\) ?[\d,]+$|: ?[\d,]+$/.test(l)) };
  }

  // What the editor shows, read in the page: lens titles, and lines holding a count at their end.
  const lensTitles = () =>
    [...document.querySelectorAll('.monaco-editor .codelens-decoration')]
      .map((e) => e.textContent.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  const countLines = () =>
    [...document.querySelectorAll('.editor-instance .view-line')].map((l) => l.textContent.replace(/\s+/g, ' '));

  await step('density: CodeLens on classes only, inline counts, inline only', async () => {
    await runCommand('View: Toggle Maximize Editor Group'); // the code's group alone, as wide as the window
    try {
      await setSetting('attentionLens.codeLens.mode', 'classes');
      await shot('13-settings-codelens-mode.png');
      // A layer's lens reads `262,656 params · 512 → 512`; a class's `2,101,248 params (2.1 M)`.
      const classes = await density(
        `(${lensTitles})().length > 0 && !(${lensTitles})().some(t => /^[\\d,]+ params · /.test(t))`,
      );
      console.log('    classes:', JSON.stringify(classes.lenses));
      await shot('13a-density-classes.png');
      await setSetting('attentionLens.codeLens.mode', 'all');
      await setSetting('attentionLens.inline.enabled', true);
      // Lenses get their titles once on screen (resolveCodeLens): the class totals are waited for too.
      const inline = await density(
        `(${countLines})().some(l => /nn\\.MultiheadAttention\\(512, 8\\) ?1,050,624$/.test(l)) && !(${lensTitles})().some(t => t.includes('8 heads × 64')) && (${lensTitles})().some(t => /^[\\d,]+ params \\(/.test(t))`,
      );
      console.log('    inline:', JSON.stringify(inline.inline));
      assert.ok(
        inline.lenses.some((t) => /^[\d,]+ params \(/.test(t)),
        'class totals stay in their lenses',
      );
      await shot('13b-density-inline.png');
      await shotOf('13d-density-inline-editor.png', page.locator('.part.editor'));
      await setSetting('attentionLens.codeLens.mode', 'off');
      const only = await density(
        `(${lensTitles})().length === 0 && (${countLines})().some(l => /class SelfAttentionBlock\\(nn\\.Module\\): ?[\\d,]+$/.test(l))`,
      );
      assert.deepStrictEqual(only.lenses, []);
      await shot('13c-density-inline-only.png');
      // Ctrl+click on a class's inline count shows what the model is made of, as its lens does.
      const hint = page.locator('.editor-instance .view-line span', { hasText: /^[\d,]{5,}$/ }).first();
      await hint.click({ modifiers: ['Control'] });
      await page.locator('.monaco-hover:not(.hidden)', { hasText: 'SelfAttentionBlock' }).first().waitFor();
      await page.keyboard.press('Escape');
    } finally {
      await setSetting('attentionLens.codeLens.mode', 'all');
      await setSetting('attentionLens.inline.enabled', false);
      await density(`(${lensTitles})().length > 0`).catch(() => {});
      await runCommand('View: Toggle Maximize Editor Group');
    }
  });

  await step('typing: the lenses on screen keep their words while each pause analyses the file again', async () => {
    await page.locator('.tab', { hasText: 'attention.py' }).first().click();
    await editorLine('class SelfAttentionBlock').waitFor();
    await page.waitForFunction(`(${lensTitles})().length >= 5`, undefined, { timeout: 15000 });
    const before = await page.evaluate(`(${lensTitles})().length`);
    await goTo(21, 1); // the blank line after SelfAttentionBlock's forward()
    const worded = [];
    const watch = async (ms) => {
      for (const end = Date.now() + ms; Date.now() < end; await page.waitForTimeout(20))
        worded.push(await page.evaluate(`(${lensTitles})().length`));
    };
    // Lenses are worded when shown (resolveCodeLens): those on screen must not go blank after each pause.
    for (const key of '# typed here') await page.keyboard.type(key).then(() => watch(key === ' ' ? 700 : 60));
    await watch(1200);
    for (let i = 0; i < '# typed here'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+S'); // the text as it was, saved: the file is not left modified
    await goTo(1, 1);
    console.log(`    lenses worded while typing: ${Math.min(...worded)} to ${Math.max(...worded)} of ${before}`);
    assert.ok(Math.min(...worded) >= before, `a lens lost its words while typing: ${Math.min(...worded)} of ${before}`);
  });
}

module.exports = { surfaceSteps };
