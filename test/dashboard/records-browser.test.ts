import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, screenshot } from '../pages/browser.js';
import { advance, control } from '../webhooks/receiver.js';

// The records pages in a real Chromium show each record as the merchant API returns it: a
// payment link's status as the API computes it from the clock (never the stored `closed`),
// payroll amounts in the run's currency, payouts with their created (initiated) time, newest
// first; the search box finds a record by id, and its detail ends with the pretty-printed JSON
// of the API's answer, which the test compares with a real GET of the same record.

let emu: TestEmulator;
let browser: Browser;
let laptop: BrowserContext;

before(async () => {
  [emu, browser] = await Promise.all([startTestEmulator(), launchBrowser()]);
  laptop = await browser.newContext({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
});
after(async () => {
  await browser?.close();
  await emu?.stop();
});

async function withPage(fn: (page: Page) => Promise<void>) {
  const page = await laptop.newPage();
  page.setDefaultTimeout(15_000);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

async function created(path: string, body: unknown): Promise<any> {
  // Payroll runs take Idempotency-Key (the spec's name there); every other create X-Idempotency-Key.
  const key = idem('rec');
  const res = await emu.request('POST', path, path.includes('/payroll/') ? { headers: { 'Idempotency-Key': key }, body } : { idempotencyKey: key, body });
  assert.ok(res.status === 201 || res.status === 200, `${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

/** What GET `path` answers as data: what the detail page's JSON must equal. */
async function apiView(path: string): Promise<unknown> {
  const res = await emu.request('GET', path);
  assert.equal(res.status, 200, res.text);
  return res.json.data;
}

/** The row of the table that links to `id`. */
const rowOf = (page: Page, id: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: id, exact: true }) });

/** The detail page's JSON block, parsed. */
async function shownJson(page: Page, id: string): Promise<unknown> {
  return JSON.parse((await page.getByLabel(`JSON of ${id}`).textContent()) ?? '');
}

test('payment links show the status the API computes (pending, completed, expired), and a detail holds no `closed`', async () => {
  const now = Date.parse((await control(emu, 'GET', '/clock')).data.now);
  const pending = await created('/v1/api/payment-links', { title: 'Open tea', amount: 1500, currency: 'USD' });
  const paid = await created('/v1/api/payment-links', { title: 'Paid tea', amount: 2000, currency: 'USD' });
  const pay = await emu.request('POST', `/v1/api/payment-links/${paid.id}/simulate`, { body: { outcome: 'completed', method: 'card' } });
  assert.equal(pay.status, 201, pay.text);
  const expiring = await created('/v1/api/payment-links', { title: 'Late tea', amount: 2500, currency: 'USD', expires_at: new Date(now + 60_000).toISOString() });
  await advance(emu, 120_000);
  const expected = { [pending.id]: 'pending', [paid.id]: 'completed', [expiring.id]: 'expired' };
  for (const [id, status] of Object.entries(expected)) assert.equal(((await apiView(`/v1/api/payment-links/${id}`)) as { status: string }).status, status);

  await withPage(async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard/records?kind=payment-links`);
    for (const [id, status] of Object.entries(expected)) {
      assert.equal((await rowOf(page, id).locator('.chip').textContent())?.trim(), status, `status of ${id}`);
    }
    await rowOf(page, expiring.id).getByText('$25.00').waitFor();
    await screenshot(page, 'dashboard-records-links');

    await rowOf(page, paid.id).getByRole('link', { name: paid.id }).click();
    await page.getByRole('heading', { name: `Payment link ${paid.id}` }).waitFor();
    assert.deepEqual(await shownJson(page, paid.id), await apiView(`/v1/api/payment-links/${paid.id}`));
    const main = await page.locator('main').innerText();
    assert.doesNotMatch(main, /\bclosed\b/, 'the stored flag is not shown');
    assert.doesNotMatch(main, /\bmerchant_id\b/, 'nor the owner field the API leaves out');
    assert.match(main, /status\s+completed/);
    await screenshot(page, 'dashboard-record-link');
  });
});

test('payroll runs and their lines show amounts in the run currency', async () => {
  const run = await created('/v1/api/payroll/runs', {
    currency: 'USD',
    note: 'Browser payroll',
    payments: [
      { external_ref: 'rec-1', payee_phone: '+231770000201', amount_cents: 1234 },
      { external_ref: 'rec-2', payee_phone: '+231770000299', amount_cents: 66 },
    ],
  });
  const id = run.run.id as string;
  await withPage(async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard/records?kind=payroll-runs`);
    const row = rowOf(page, id);
    await row.getByRole('cell', { name: '$13.00' }).waitFor();
    assert.equal((await row.locator('.chip').textContent())?.trim(), 'pending approval');
    assert.doesNotMatch(await row.innerText(), /—/);

    await row.getByRole('link', { name: id }).click();
    await page.getByRole('heading', { name: `Payroll run ${id}` }).waitFor();
    const lines = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'external_ref' }) });
    await lines.getByRole('row').filter({ hasText: 'rec-1' }).getByRole('cell', { name: '$12.34' }).waitFor();
    await lines.getByRole('row').filter({ hasText: 'rec-2' }).getByRole('cell', { name: '$0.66' }).waitFor();
    await page.getByText('$13.00').first().waitFor();
    assert.deepEqual(await shownJson(page, id), await apiView(`/v1/api/payroll/runs/${id}`));
    await screenshot(page, 'dashboard-record-payroll');
  });
});

test('payouts show when they were created, newest first', async () => {
  const first = await created('/v1/api/payouts', { payee_id: 'payee_ada', amount_cents: 101, currency: 'USD', external_ref: 'rec-po-1' });
  await advance(emu, 60_000);
  const second = await created('/v1/api/payouts', { payee_id: 'payee_ada', amount_cents: 202, currency: 'USD', external_ref: 'rec-po-2' });
  assert.ok(first.initiated_at < second.initiated_at);
  await withPage(async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard/records?kind=payouts&environment=test`);
    const table = page.getByRole('table', { name: 'Payouts' });
    await rowOf(page, first.id).waitFor();
    const order = await table.locator('tbody tr td:first-child a').allTextContents();
    assert.deepEqual(order.slice(0, 2), [second.id, first.id], 'newest first');
    for (const p of [first, second]) {
      const row = rowOf(page, p.id);
      assert.equal(await row.locator('time').getAttribute('datetime'), p.initiated_at, `created time of ${p.id}`);
      await row.getByRole('cell', { name: p.amount_cents === 101 ? '$1.01' : '$2.02' }).waitFor();
    }
    await screenshot(page, 'dashboard-records-payouts');
  });
});

test('the search box opens a record by id, of any kind, and shows its public view as pretty JSON', async () => {
  const link = await created('/v1/api/payment-links', { title: 'Found tea', amount: 700, currency: 'USD' });
  const payout = await created('/v1/api/payouts', { payee_id: 'payee_ada', amount_cents: 303, currency: 'USD', external_ref: 'rec-search' });
  await withPage(async (page) => {
    // From the links tab, a payout's id opens the payout.
    await page.goto(`${emu.baseUrl}/dashboard/records?kind=payment-links`);
    await page.getByRole('searchbox', { name: 'Record id' }).fill(payout.id);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(`${emu.baseUrl}/dashboard/records/payouts/${payout.id}`);
    await page.getByRole('heading', { name: `Payout ${payout.id}` }).waitFor();
    const text = (await page.getByLabel(`JSON of ${payout.id}`).textContent()) ?? '';
    const api = await apiView(`/v1/api/payouts/${payout.id}`);
    assert.equal(text, JSON.stringify(JSON.parse(text), null, 2), 'pretty-printed: one field a line, two-space indents');
    assert.deepEqual(JSON.parse(text), api);
    assert.doesNotMatch(text, /provider_outcome|resolves_at_ms|initiated_at_ms|\bmerchant_id\b/);
    await screenshot(page, 'dashboard-record-search');

    // Part of an id filters the table to the records that contain it.
    await page.goto(`${emu.baseUrl}/dashboard/records?kind=payment-links`);
    await page.getByRole('searchbox', { name: 'Record id' }).fill(link.id.slice(3, 14));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/q=/);
    const ids = await page.getByRole('table', { name: 'Payment links' }).locator('tbody tr td:first-child a').allTextContents();
    assert.deepEqual(ids, [link.id]);
  });
});
