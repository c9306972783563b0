/**
 * Headless Chromium for tests that must see a page as a person does (the HTML reports): Debian's
 * `chromium` driven by playwright-core, which downloads no browser of its own. `.ci/run` installs
 * the package when it is absent. Without it a test is skipped with a message, except under
 * CI=true, where it fails.
 *
 * Pages are opened offline: every request that is not the report file itself is refused and
 * recorded, so a report that needed the network shows up as a failed request, not a blank chart.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env['TARANG_CHROMIUM'] ?? '/usr/bin/chromium';

/** Whether the browser is there; logs a skip, or throws under CI=true. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const msg = `chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`;
  if (process.env['CI'] === 'true') throw new Error(`${msg}; required when CI=true`);
  process.stderr.write(`SKIPPED: ${msg}; browser tests of the HTML reports are skipped.\n`);
  return false;
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with an empty profile, no background traffic, no sandbox (root in CI containers). */
export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'tarang-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    offline: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  readonly page: Page;
  /** Console errors and uncaught page errors. */
  readonly errors: string[];
  /** URLs the page tried to fetch beyond the file itself (all refused). */
  readonly requests: string[];
}

/** Opens a local HTML file with the network cut off, collecting errors and attempted requests. */
export async function openOffline(browser: Browser, file: string): Promise<OpenedPage> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(file).href;
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/*', async (route) => {
    const u = route.request().url();
    if (u === url || u.startsWith('data:')) return route.continue();
    requests.push(u);
    return route.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, requests };
}

/** An expression for `page.evaluate`: pixels that are not the background on the canvases under `selector`. */
export const inkExpr = (selector: string): string => `(() => {
  let ink = 0;
  for (const c of document.querySelectorAll(${JSON.stringify(`${selector} canvas`)})) {
    if (!c.width || !c.height) continue;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 0 && (px[i] < 235 || px[i + 1] < 235 || px[i + 2] < 235)) ink++;
  }
  return ink;
})()`;
