import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { packageFile } from '../../emulator/assets.js';

// One headless Debian Chromium per test file (started once, reused by every test in it), with
// the flags the issue names. `launch` gives each browser a fresh temporary profile, and every
// test opens its own page in the file's phone-width context (the pages set no cookies).

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'];
export const SCREENSHOTS = packageFile('test-output/screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A phone-width context with JavaScript off: every page must work without it. */
export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, javaScriptEnabled: false });
}

export async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/**
 * Saves a full-page PNG when SVC_SCREENSHOTS is set. Screenshots assert nothing (the tests read
 * the DOM) and encoding ~36 full pages cost about a fifth of the browser files' time, so a
 * plain `npm test` skips them; `SVC_SCREENSHOTS=1 npm test` writes them for a human to look at.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.SVC_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
