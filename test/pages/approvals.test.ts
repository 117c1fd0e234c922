import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, newPage, phoneContext, screenshot } from './browser.js';

// The approval pages in a real browser (JavaScript off): a card mandate, a wallet mandate and
// a payroll run, each with right and wrong input, checked against the API afterwards.

let em: TestEmulator;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  [em, browser] = await Promise.all([startTestEmulator(), launchBrowser()]);
  context = await phoneContext(browser);
});

after(async () => {
  await browser?.close();
  await em?.stop();
});

async function createMandate(body: Record<string, unknown>, key: string) {
  const r = await em.request('POST', '/v1/api/mandates', { key, body, idempotencyKey: idem('mandate') });
  assert.equal(r.status, 201, r.text);
  return r.json.data as { mandate: { id: string; status: string }; approval_url: string };
}

async function mandate(id: string, key: string) {
  const r = await em.request('GET', `/v1/api/mandates/${id}`, { key });
  assert.equal(r.status, 200, r.text);
  return r.json.data;
}

async function withPage(fn: (page: Page) => Promise<void>) {
  const page = await newPage(context);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

test('card mandate: an invalid number is refused, a test card saves and the mandate becomes active', async () => {
  const created = await createMandate({ rail: 'card', customer_ref: 'cust_42', currency: 'USD', max_amount_cents: 5000, customer_email: 'ada@example.com' }, KEYS.acmeLive);
  assert.equal(created.mandate.status, 'pending');
  assert.equal(created.approval_url, `${em.checkoutUrl}/mandate/${created.mandate.id}`);
  await withPage(async (page) => {
    await page.goto(created.approval_url);
    await page.getByRole('heading', { name: 'Save a card for Acme Fuel & Goods' }).waitFor();
    await page.getByText('up to $50.00').waitFor();
    await screenshot(page, 'mandate-card-form');

    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByLabel('Expiry').fill('11/33');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('alert').getByText('The card number is not a valid card number.').waitFor();
    assert.equal(await page.getByLabel('Expiry').inputValue(), '11/33');
    assert.equal((await mandate(created.mandate.id, KEYS.acmeLive)).status, 'pending');
    await screenshot(page, 'mandate-card-invalid');

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('Mandate active').waitFor();
    assert.match(new URL(page.url()).pathname, new RegExp(`/checkout/mandate/${created.mandate.id}$`), 'POST-redirect-GET back to the page');
    await screenshot(page, 'mandate-card-active');
    await page.reload();
    await page.getByText('Mandate active').waitFor();
    assert.equal(await page.locator('form').count(), 0);
  });
  const m = await mandate(created.mandate.id, KEYS.acmeLive);
  assert.equal(m.status, 'active');
  assert.equal(m.card.last4, '4242');
  assert.equal(m.card.exp_month, 11);
  assert.equal(m.card.exp_year, 2033);
});

test('wallet mandate: wrong PIN refused with the tries left, right PIN activates', async () => {
  const created = await createMandate({ rail: 'wallet', customer_ref: 'cust_joseph', currency: 'LRD', max_amount_cents: 100000 }, KEYS.acmeLive);
  assert.equal(created.approval_url, `${em.checkoutUrl}/wallet-mandate/${created.mandate.id}`);
  await withPage(async (page) => {
    await page.goto(created.approval_url);
    await page.getByRole('heading', { name: 'Let Acme Fuel & Goods charge your wallet' }).waitFor();
    await page.getByLabel('Wallet phone number').fill('+231770000202');
    await page.getByLabel('Wallet PIN').fill('0000');
    await screenshot(page, 'mandate-wallet-form');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('alert').getByText(/Wrong PIN; 4 attempts left/).waitFor();
    assert.equal(await page.getByLabel('Wallet PIN').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Wallet phone number').inputValue(), '+231770000202');
    await screenshot(page, 'mandate-wallet-wrong-pin');
    assert.equal((await mandate(created.mandate.id, KEYS.acmeLive)).status, 'pending');

    await page.getByLabel('Wallet PIN').fill('2222');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Mandate active').waitFor();
    await screenshot(page, 'mandate-wallet-active');
  });
  const m = await mandate(created.mandate.id, KEYS.acmeLive);
  assert.equal(m.status, 'active');
  assert.equal(m.customer_phone, '+231770000202');
});

test('wallet mandate: repeated wrong PINs lock PIN entry; then even the right PIN is refused', async () => {
  const created = await createMandate({ rail: 'wallet', customer_ref: 'cust_fatu', currency: 'USD', max_amount_cents: 1000 }, KEYS.acmeLive);
  await withPage(async (page) => {
    await page.goto(created.approval_url);
    await page.getByLabel('Wallet phone number').fill('+231880000203');
    for (let left = 4; left >= 1; left--) {
      await page.getByLabel('Wallet PIN').fill('9999');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('alert').getByText(new RegExp(`Wrong PIN; ${left} attempts? left`)).waitFor();
    }
    await page.getByLabel('Wallet PIN').fill('9999');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('alert').getByText(/locked until/).waitFor();
    await page.getByLabel('Wallet PIN').fill('3333');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('alert').getByText(/locked until/).waitFor();
    await screenshot(page, 'mandate-wallet-locked');
  });
  assert.equal((await mandate(created.mandate.id, KEYS.acmeLive)).status, 'pending');
});

test('payroll approval: the lines and total, a wrong owner PIN refused, the right one executes the run', async () => {
  const r = await em.request('POST', '/v1/api/payroll/runs', {
    headers: { 'Idempotency-Key': idem('run') },
    body: {
      currency: 'USD',
      note: 'November wages',
      payments: [
        { external_ref: 'emp_1', payee_phone: '+231770000201', label: 'Mary Kollie', amount_cents: 12000 },
        { external_ref: 'emp_2', payee_phone: '0770000202', amount_cents: 8050 },
        { external_ref: 'emp_3', payee_phone: '+231770009999', label: 'Nobody Known', amount_cents: 1000 },
      ],
    },
  });
  assert.equal(r.status, 201, r.text);
  const { run, approval_url } = r.json.data;
  assert.equal(approval_url, `${em.checkoutUrl}/payroll-approval/${run.id}`);
  await withPage(async (page) => {
    await page.goto(approval_url);
    await page.getByRole('heading', { name: 'Approve payroll' }).waitFor();
    await page.getByText('November wages').waitFor();
    const rows = await page.locator('tbody tr').allTextContents();
    assert.equal(rows.length, 3);
    assert.match(rows[0], /Mary Kollie/);
    assert.match(rows[1], /emp_2/, 'a line without a label shows its external_ref');
    assert.match((await page.locator('tfoot').textContent())?.replace(/\s+/g, ' ') ?? '', /Total \(3 payments\) ?\$210\.50/);
    await screenshot(page, 'payroll-approval-form');

    await page.getByLabel('Business owner PIN').fill('2468');
    await page.getByRole('button', { name: 'Approve and pay' }).click();
    await page.getByRole('alert').getByText(/Wrong PIN; 4 attempts left/).waitFor();
    await screenshot(page, 'payroll-approval-wrong-pin');
    assert.equal((await em.request('GET', `/v1/api/payroll/runs/${run.id}`)).json.data.run.status, 'pending_approval');

    const token = await page.locator('input[name="token"]').inputValue();
    await page.getByLabel('Business owner PIN').fill('1357');
    await page.getByRole('button', { name: 'Approve and pay' }).click();
    await page.getByRole('heading', { name: 'Payroll partial' }).waitFor();
    // The same form sent again (a double click that got through) shows the result, nothing more.
    const again = await fetch(approval_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, pin: '1357' }),
    });
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), `/checkout/payroll-approval/${run.id}`);
    const done = await page.locator('tbody tr').allTextContents();
    assert.match(done[0], /Paid/);
    assert.match(done[2], /Needs attention/);
    await screenshot(page, 'payroll-approval-done');
  });
  const after = (await em.request('GET', `/v1/api/payroll/runs/${run.id}`)).json.data;
  assert.equal(after.run.status, 'partial');
  assert.deepEqual(
    after.payments.map((l: { external_ref: string; status: string }) => [l.external_ref, l.status]),
    [
      ['emp_1', 'paid'],
      ['emp_2', 'paid'],
      ['emp_3', 'needs_attention'],
    ],
  );
  const events = await em.request('GET', '/_emulator/events?merchant_id=mer_acme&environment=test&type=payroll_run.partial', { key: null });
  assert.equal(events.json.data.events.length, 1, 'executed once');
});

test('unknown approval ids get a not-found page', async () => {
  await withPage(async (page) => {
    for (const path of ['mandate/mdt_nope', 'wallet-mandate/mdt_nope', 'payroll-approval/run_nope']) {
      const res = await page.goto(`${em.checkoutUrl}/${path}`);
      assert.equal(res?.status(), 404, path);
    }
  });
});
