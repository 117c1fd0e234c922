import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, newPage } from '../pages/browser.js';

// The dashboard's Logs page in a real Chromium: the request log with its filters, an entry's
// two bodies, what it touched and "copy as curl", and a new request arriving live (the
// dashboard stream's `request` message), with no API key or endpoint secret on any page.

let emu: TestEmulator;
let browser: Browser;
before(async () => {
  [emu, browser] = await Promise.all([startTestEmulator({ clock: 'system' }), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await emu?.stop();
});

test('Logs lists requests, filters them, shows an entry with both bodies and copies it as curl; nothing secret shows', async () => {
  const bad = await emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeTest, idempotencyKey: idem('bad'), body: { title: 'Bad link', amount: 100, currency: 'XXQ' } });
  assert.equal(bad.status, 422);
  const hook = await emu.request('POST', '/v1/api/webhook-endpoints', { key: KEYS.acmeTest, body: { url: 'https://example.test/hooks', events: ['payment.completed'] } });
  assert.equal(hook.status, 201, hook.text);
  const secret = hook.json.data.secret as string;

  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: emu.baseUrl });
  const page = await newPage(context);
  await page.goto(`${emu.baseUrl}/dashboard/logs`);
  const badRow = page.locator('tr[data-request]', { hasText: 'POST /v1/api/payment-links' }).filter({ hasText: '422' });
  await badRow.waitFor();
  assert.match(await badRow.innerText(), /acme-test[\s\S]*VALIDATION_ERROR/);
  for (const text of [await page.content()]) {
    assert.ok(!text.includes(KEYS.acmeTest), 'no API key on the list');
    assert.ok(!text.includes(secret), 'no endpoint secret on the list');
  }

  await page.getByLabel('Status').fill('failed');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/status=failed/);
  const statuses = await page.locator('tr[data-request] td:nth-child(3)').allInnerTexts();
  assert.ok(statuses.length >= 1 && statuses.every((s) => Number(s) >= 400), statuses.join(','));

  await page.locator('tr[data-request] a', { hasText: 'POST /v1/api/payment-links' }).first().click();
  await page.locator('pre[data-request-body]').waitFor();
  assert.match(await page.locator('pre[data-request-body]').innerText(), /"title": "Bad link"/);
  assert.match(await page.locator('pre[data-response-body]').innerText(), /"code": "VALIDATION_ERROR"/);
  const curl = await page.locator('#curl').innerText();
  // Runnable as pasted: the base URL inline, the key a variable its first line names.
  assert.match(curl, /^# export SVC_API_KEY=… +\(the key acme-test, ending \w{4}/);
  assert.ok(curl.includes(`\ncurl -X POST '${emu.baseUrl}/v1/api/payment-links'`), curl);
  assert.match(curl, /Bearer \$SVC_API_KEY/);
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), curl);

  // The endpoint's creation: its answer carried the secret, its log entry does not.
  const entries = (await emu.request('GET', '/_emulator/requests?path=/v1/api/webhook-endpoints', { key: null })).json.data.requests;
  await page.goto(`${emu.baseUrl}/dashboard/logs/${entries[0].id}`);
  await page.locator('pre[data-response-body]').waitFor();
  const detail = await page.content();
  assert.ok(!detail.includes(secret), 'no endpoint secret on the entry');
  assert.ok(!detail.includes(KEYS.acmeTest), 'no API key on the entry');
  assert.ok(await page.locator('ul[data-touched] a', { hasText: hook.json.data.endpoint.id }).count(), 'links to the endpoint it created');
});

test("a simulate's entry links to the event it emitted and that event's deliveries", async () => {
  const link = await emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeTest, idempotencyKey: idem('sim'), body: { title: 'Sim', amount: 300, currency: 'USD' } });
  assert.equal(link.status, 201, link.text);
  const paid = await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { key: KEYS.acmeTest, body: { outcome: 'completed' } });
  assert.equal(paid.status, 201, paid.text);
  const entries = (await emu.request('GET', '/_emulator/requests?path=/v1/api/payment-links/&method=POST&limit=1', { key: null })).json.data.requests;
  assert.match(entries[0].path, /\/simulate$/);
  const page = await newPage(await browser.newContext());
  await page.goto(`${emu.baseUrl}/dashboard/logs/${entries[0].id}`);
  const delivery = page.locator('ul[data-touched] a[data-delivery]').first();
  await delivery.waitFor();
  await delivery.click();
  await page.waitForURL(/\/dashboard\/deliveries\/dlv_/);
});

test('a new request appears on the Logs page while it is open, without a reload', async () => {
  const page = await newPage(await browser.newContext());
  await page.goto(`${emu.baseUrl}/dashboard/logs`);
  await page.locator('#live-status', { hasText: 'Live' }).waitFor();
  let reloaded = false;
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) reloaded = true;
  });
  const path = `/v1/api/payments/pay_live${process.pid}`;
  assert.equal((await emu.request('GET', path, { key: KEYS.acmeTest })).status, 404);
  await page.locator('tr[data-request]', { hasText: `GET ${path}` }).waitFor();
  assert.equal(reloaded, false, 'the row came through the stream, not a navigation');
});
