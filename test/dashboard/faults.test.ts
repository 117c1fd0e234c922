import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, newPage, screenshot } from '../pages/browser.js';

// The dashboard's faults page in a real Chromium: the faults in force and the last that fired,
// and its buttons (clear, apply a preset) acting through the control API.

let emu: TestEmulator;
let browser: Browser;
before(async () => {
  [emu, browser] = await Promise.all([startTestEmulator(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await emu?.stop();
});

test('the faults page shows what is in force and what fired; Clear and Apply presets work from the page', async () => {
  const added = await emu.request('POST', '/_emulator/faults', { key: null, body: { route: 'GET /v1/api/payments', kind: 'status', status: 503, times: 3 } });
  assert.equal(added.status, 201);
  const id = added.json.data.id;
  assert.equal((await emu.request('GET', '/v1/api/payments')).status, 503);

  const page = await newPage(await browser.newContext({ viewport: { width: 1100, height: 760 } }));
  await page.goto(`${emu.baseUrl}/dashboard/faults`);
  await page.getByRole('link', { name: 'Faults' }).waitFor();
  const inForce = page.locator('table[data-faults] tr', { hasText: id });
  await inForce.waitFor();
  assert.match(await inForce.innerText(), /GET \/v1\/api\/payments\s+status 503\s+2 more time\(s\)\s+1/);
  assert.match(await page.locator('#live').innerText(), new RegExp(`${id}\\s+${id} status=503\\s+GET /v1/api/payments`));
  await screenshot(page, 'dashboard-faults');

  await page.getByRole('button', { name: 'Clear all faults' }).click();
  await page.getByRole('status').filter({ hasText: 'Every fault removed.' }).waitFor();
  await page.locator('[data-faults-none]').waitFor();
  assert.deepEqual((await emu.request('GET', '/_emulator/faults', { key: null })).json.data.faults, []);

  await page.getByRole('button', { name: 'Apply provider-outage' }).click();
  await page.getByRole('status').filter({ hasText: 'Preset provider-outage applied.' }).waitFor();
  await page.locator('table[data-faults] tr', { hasText: 'provider payouts' }).waitFor();
  assert.equal((await emu.request('GET', '/_emulator/faults', { key: null })).json.data.faults.length, 2);
});
