// The workbench as a person drives it, for the end-to-end run: open a file, go to a line, run a command
// from the palette, change a setting in the Settings editor, find a word's place on screen, reach the
// Explain panel's webview, size the panel's editor group.
'use strict';

/** Whitespace-collapsed text, as a person reads it. */
const flat = (s) => s.replace(/\s+/g, ' ').trim();

function workbench(page) {
  // Monaco renders spaces in code as no-break spaces: match any white space.
  const loose = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s'));
  const editorLine = (text) => page.locator('.editor-instance .view-line', { hasText: loose(text) }).first();
  /**
   * Types `text` into the quick input `key` opens (Ctrl+P, or Ctrl+Shift+P with `>`) and picks the row for
   * `row`. The list filters as it is typed: Enter waits until that row is the one focused, or it would pick
   * whatever was on top before (a recently opened file).
   */
  async function pick(key, text, row) {
    await page.keyboard.press(key);
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(text);
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: row }).first().waitFor();
    await page.keyboard.press('Enter');
  }
  /** Opens a file by Ctrl+P; `firstText` is a line it shows (a file already open keeps its scroll). */
  async function openFile(name, firstText) {
    await pick('Control+P', name, name);
    await editorLine(firstText).waitFor();
  }
  // Screen box of a word inside an editor line. Monaco puts several words in one token span,
  // so measure the characters themselves with a DOM Range.
  async function wordBox(line, word) {
    return line.evaluate((el, w) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.data.indexOf(w);
        if (at < 0) continue;
        const r = document.createRange();
        r.setStart(n, at);
        r.setEnd(n, at + w.length);
        const { x, y, width, height } = r.getBoundingClientRect();
        return { x, y, width, height };
      }
      throw new Error(`"${w}" not found in the line`);
    }, word);
  }
  async function goTo(line, col) {
    // Ctrl+G, as a person would, to put the cursor on a squiggle
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    // Type only into the "Go to Line" box (prefilled ':'), never into the file.
    await page.waitForFunction(() => document.querySelector('.quick-input-widget input')?.value === ':');
    await input.fill(`:${line}:${col}`);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** Runs a command from the palette by its title, as a person does. */
  async function runCommand(title) {
    await pick('Control+Shift+P', `>${title}`, title);
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /**
   * Widens or narrows the window until the editor group of the panel titled `tab` is `width` pixels wide
   * (groups share the editor area evenly).
   */
  async function panelGroupWidth(width, tab = 'Explain attention shapes') {
    const group = page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: tab }) });
    for (let i = 0; i < 4; i++) {
      const box = await group.boundingBox();
      if (Math.abs(box.width - width) <= 2) return box.width;
      const viewport = page.viewportSize();
      await page.setViewportSize({
        width: Math.round(viewport.width + 2 * (width - box.width)),
        height: viewport.height,
      });
      await page.waitForTimeout(300); // the workbench lays out on the next frames after a resize
    }
    return (await group.boundingBox()).width;
  }

  /** Sets a setting in the Settings editor (Ctrl+,), as a person does: the drop-down of a choice, the box of a switch. */
  async function setSetting(id, value) {
    await page.keyboard.press('Control+Comma');
    const search = page.locator('.settings-editor .suggest-input-container textarea').first();
    await search.waitFor();
    await search.fill(`@id:${id}`);
    const item = page.locator(`.settings-editor .setting-item-contents[data-key="${id}"]`);
    await item.waitFor();
    if (typeof value === 'boolean') {
      const box = item.locator('.setting-value-checkbox');
      if ((await box.getAttribute('aria-checked')) !== String(value)) await box.click();
    } else {
      await item.locator('select').selectOption(value);
    }
  }

  // The panel lives in nested iframes: iframe.webview > #active-frame.
  const panel = () => page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');

  return { editorLine, pick, openFile, wordBox, goTo, runCommand, setSetting, panel, panelGroupWidth };
}

module.exports = { flat, workbench };
