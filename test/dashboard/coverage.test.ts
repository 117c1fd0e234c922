import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, newPage, screenshot } from '../pages/browser.js';
import { runBinary } from '../cli/run-binary.js';

// Coverage in a real Chromium: the dashboard's Coverage page (the count so far, updated as
// requests arrive, and its button that starts a new count through the control API), and the
// coverage.html `svc emulator exec --coverage` writes, opened from disk: it shows the same
// report and no request leaves the page (no CDN, no font, no script, no favicon).

let emu: TestEmulator;
let browser: Browser;
before(async () => {
  [emu, browser] = await Promise.all([startTestEmulator(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await emu?.stop();
});

test('the Coverage page shows the count and what was never exercised; it follows new requests; "Start a new count" resets it', async () => {
  assert.equal((await emu.request('GET', '/v1/api/payments')).status, 200);
  const page = await newPage(await browser.newContext({ viewport: { width: 1100, height: 800 } }));
  await page.goto(`${emu.baseUrl}/dashboard/coverage`);
  await page.getByRole('link', { name: 'Coverage' }).waitFor();
  assert.match(await page.locator('[data-coverage-total]').innerText(), /covered: 1 of \d+ items/);
  assert.match(await page.locator('table[data-coverage-kinds] tr', { hasText: 'route' }).innerText(), /route\s+1 of 24\s+4\.1%\s+0/);
  assert.equal(await page.locator('table[data-coverage-top] tbody tr').count(), 10);
  await page.getByText('Live: updates as events arrive').waitFor();
  assert.equal((await emu.request('GET', '/v1/api/payments/summary')).status, 200);
  await page.locator('[data-coverage-total]', { hasText: 'covered: 2 of' }).waitFor();
  await page.locator('details[data-kind="route"] summary').click();
  assert.match(await page.locator('details[data-kind="route"] tr', { hasText: 'GET /v1/api/payments/summary 200' }).innerText(), /covered\s+1\s+Per-currency roll-up/);
  await screenshot(page, 'dashboard-coverage');

  await page.getByRole('button', { name: 'Start a new count' }).click();
  await page.getByRole('status').filter({ hasText: 'A new count has begun.' }).waitFor();
  await page.locator('[data-coverage-total]', { hasText: 'covered: 0 of' }).waitFor();
  assert.equal((await emu.request('GET', '/_emulator/coverage', { key: null })).json.data.covered, 0);
});

test('coverage.html from exec --coverage opens in Chromium from disk, complete, with no request leaving the page', async () => {
  const cwd = tempDir('svc-coverage-html-');
  writeFileSync(join(cwd, 'suite.js'), "fetch(process.env.SVC_BASE_URL + '/v1/api/payments', { headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY } }).then((r) => process.exit(r.status === 200 ? 0 : 1));");
  const r = await runBinary(['emulator', 'exec', '--coverage', '--coverage-ignore', 'payroll', '--', process.execPath, 'suite.js'], { cwd, timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  const file = join(cwd, 'svc-coverage', 'coverage.html');
  const report = JSON.parse(readFileSync(join(cwd, 'svc-coverage', 'coverage.json'), 'utf8'));

  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const requests: string[] = [];
  context.on('request', (req) => requests.push(req.url()));
  const page = await newPage(context);
  await page.goto(pathToFileURL(file).href);
  await page.getByRole('heading', { name: 'Integration coverage' }).waitFor();
  assert.match(await page.locator('[data-coverage-total]').innerText(), new RegExp(`${report.percent.toFixed(1)}% covered: 1 of ${report.total} items, ${report.ignored} ignored`));
  const top = await page.locator('table[data-coverage-top] tbody tr').allInnerTexts();
  assert.deepEqual(top.map((t) => t.split('\t')[1]), report.uncovered_top.map((i: { name: string }) => i.name));
  for (const kind of ['route', 'error', 'event', 'delivery', 'flow']) await page.locator(`details[data-kind="${kind}"] summary`).click();
  assert.equal(await page.locator('details tbody tr').count(), report.items.length);
  assert.equal(await page.locator('details tbody tr', { hasText: 'ignored' }).count(), report.ignored);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await screenshot(page, 'coverage-html');
  assert.deepEqual(requests, [pathToFileURL(file).href], 'the file itself, and nothing else');
  assert.equal(await page.locator('script, link, img, iframe').count(), 0);
});
