#!/usr/bin/env node
// Renders media/icon.svg to media/icon.png (128 × 128, transparent corners), the extension's icon on its
// page and in the Extensions view; the marketplace takes no SVG icon. Uses the Chromium the tests already
// drive, so no image tool has to be installed. Run after editing the SVG, and commit both files.
//   node scripts/render-icon.js
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, launchChromium } = require('./lib-codeserver');

async function main() {
  const svg = fs.readFileSync(path.join(ROOT, 'media/icon.svg'), 'utf8');
  const context = await launchChromium();
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 128, height: 128 });
    await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    const out = path.join(ROOT, 'media/icon.png');
    await page.locator('svg').screenshot({ path: out, omitBackground: true });
    console.log(`icon: ${path.relative(ROOT, out)}, ${fs.statSync(out).size} bytes`);
  } finally {
    await context.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
