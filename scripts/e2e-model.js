// The end-to-end steps of the "Explain model sizing" panel: opened from the palette on the model under the
// cursor, read in a 500-pixel-wide editor group (cards, units, the layers largest first), a field's message,
// Copy as Markdown and a layer's link. Run by run-e2e.js, in its workbench, on gpt2_small.py: the GPT-2 small
// of test/fixtures/models/pytorch/gpt.py (`model = GPT(GPTConfig())` on line 202), whose activations are
// followed (examples/gpt.py's are not: it calls F.layer_norm with sizes the analysis does not follow).
'use strict';
const assert = require('assert');
const { flat } = require('./e2e-workbench');

const TAB = 'Explain model sizing';

async function modelSteps({ page, step, shot, shotOf, wb }) {
  const { goTo, openFile, runCommand, panel, panelGroupWidth } = wb;
  const panelText = async () => flat(await panel().locator('main').innerText());

  await step(
    'the palette opens "Explain model sizing" on the model under the cursor, readable in a 500-pixel group',
    async () => {
      // The attention panel closed: the model panel is then the only webview, in the group beside the code.
      const attention = page.locator('.tab', { hasText: 'Explain attention shapes' });
      await attention.locator('.tab-actions .action-label').first().click();
      await attention.waitFor({ state: 'detached' });
      await openFile('gpt2_small.py', 'Full definition of a GPT Language Model');
      await goTo(202, 10);
      await runCommand(`Attention Lens: ${TAB}`);
      await page.locator('.tab', { hasText: TAB }).waitFor();
      await panel().locator('h1', { hasText: 'gpt2_small.py:202' }).waitFor();
      const width = await panelGroupWidth(500, TAB);
      assert.ok(Math.abs(width - 500) <= 2, `the group is ${width} px wide`);
      const text = await panelText();
      console.log('    model panel:', JSON.stringify(text.slice(0, 400)));
      assert.match(text, /total 124,439,808/);
      assert.match(text, /non-embedding 85,056,000/);
      assert.match(text, /Total: 589\.6 MiB/); // 618,255,976 bytes kept in bf16 for 1 × 1,024 tokens
      const layout = await panel()
        .locator('table.wide')
        .first()
        .evaluate((table) => {
          const row = table.querySelector('tbody tr');
          return {
            row: getComputedStyle(row).display,
            first: row.querySelector('td').textContent,
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          };
        });
      console.log('    narrow layout:', JSON.stringify(layout));
      assert.deepStrictEqual(
        [layout.row, layout.first, layout.overflow],
        ['block', 'transformer.h', 0],
        'the layers are cards, the largest first, nothing wider than the panel',
      );
      await shot('14a-model-500px.png');
      // The README's picture of the panel: its group alone, from the top.
      await shotOf(
        '14f-model-500px-group.png',
        page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: TAB }) }),
      );
      for (const [i, title] of ['Training memory', 'KV cache', 'Activations', 'What the figures'].entries()) {
        await panel()
          .locator('h2', { hasText: title })
          .evaluate((h) => h.scrollIntoView({ block: 'start' }));
        await shot(`14${'bcde'[i]}-model-500px-${title.split(' ')[0].toLowerCase()}.png`);
      }
      await panel().locator('h1').scrollIntoViewIfNeeded();
    },
  );

  await step("the model panel: a field's message, Copy as Markdown, a layer's link to its line", async () => {
    const sequence = panel().locator('#sequence');
    await sequence.fill('0');
    await panel().locator('#sequence-error', { hasText: '0 is not a size: enter 1 or more.' }).waitFor();
    await shot('14g-model-invalid.png');
    await sequence.fill('1024');
    await panel().locator('#sequence:not([aria-invalid])').waitFor();
    await panel().locator('#copy').click();
    await panel().locator('#copy', { hasText: 'Copied ✓' }).waitFor();
    await panel().locator('a', { hasText: 'line 92' }).first().click(); // transformer.h: class Block
    await page
      .locator('.statusbar-item', { hasText: /Ln 92, Col 7/ })
      .first()
      .waitFor();
  });
}

module.exports = { modelSteps };
