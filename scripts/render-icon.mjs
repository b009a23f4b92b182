#!/usr/bin/env node
// Renders resources/icon.svg to resources/icon.png (1024×1024, transparent
// corners) with headless Chromium, the PNG electron-builder turns into the
// .icns/.ico/Linux icons. Run after editing the SVG:
//   node scripts/render-icon.mjs [--chromium /usr/bin/chromium] [--size 1024]
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { AUTOMATION_FLAGS } from '../app/cli/browser-lookup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    size: { type: 'string', default: '1024' },
    input: { type: 'string', default: join(root, 'resources', 'icon.svg') },
    output: { type: 'string', default: join(root, 'resources', 'icon.png') },
  },
});

const size = Number.parseInt(values.size, 10);
if (!Number.isInteger(size) || size < 16 || size > 4096) {
  console.error(`--size must be an integer between 16 and 4096 (got ${values.size})`);
  process.exit(2);
}

const svg = await readFile(values.input, 'utf8');
if (!svg.includes('<svg')) {
  console.error(`${values.input} does not look like an SVG file`);
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: values.chromium,
  args: [...AUTOMATION_FLAGS],
});
try {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">` +
      `<img id="icon" src="${dataUrl}" width="${size}" height="${size}" style="display:block"></body></html>`,
  );
  // decode() rejects when the SVG is broken, instead of screenshotting an empty box.
  const width = await page.locator('#icon').evaluate(async (img) => {
    await img.decode();
    return img.naturalWidth;
  });
  if (width === 0) throw new Error(`${values.input} rendered with no size`);
  const png = await page.locator('#icon').screenshot({ omitBackground: true, type: 'png' });
  await writeFile(values.output, png);
  console.log(`wrote ${values.output} (${size}×${size}, ${png.length} bytes)`);
} finally {
  await browser.close();
}
