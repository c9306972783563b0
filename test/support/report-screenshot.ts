/**
 * Screenshots of HTML reports with the same headless Chromium the browser tests use (the PNGs in
 * docs/ are made this way):
 *
 *   npx tsx test/support/report-screenshot.ts report.html docs/report.png [max-height-px]
 *
 * Waits until the page says its charts are drawn, then captures the page from the top.
 */
import { chromiumAvailable, launchChromium, openOffline } from './chromium.js';

export async function screenshotReport(html: string, png: string, maxHeight = 2600): Promise<void> {
  const browser = await launchChromium();
  try {
    const { page, errors, requests } = await openOffline(browser, html);
    await page.waitForFunction('window.tarangReport && window.tarangReport.ready');
    // Two frames: the charts paint on animation frames after their data is set.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
    await page.screenshot({ path: png, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.min(height, maxHeight) } });
    if (errors.length || requests.length) throw new Error(`report page: errors ${JSON.stringify(errors)}, requests ${JSON.stringify(requests)}`);
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [html, png, max] = process.argv.slice(2);
  if (!html || !png) {
    process.stderr.write('usage: npx tsx test/support/report-screenshot.ts report.html out.png [max-height-px]\n');
    process.exit(2);
  }
  if (!chromiumAvailable()) process.exit(1);
  await screenshotReport(html, png, max ? Number(max) : undefined);
  process.stdout.write(`wrote ${png}\n`);
}
