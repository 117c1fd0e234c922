import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, newPage, phoneContext, screenshot } from './browser.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { sellerSite, webhookReceiver, type RecordingServer } from './servers.js';

// The payment-link checkout in a real browser (JavaScript off: the pages must work without
// it), checked against the API, the outbox and a real webhook receiver.

let em: TestEmulator;
let browser: Browser;
let context: BrowserContext;
let seller: RecordingServer;
let hooks: RecordingServer;
const secrets: Record<string, string> = {};

before(async () => {
  [em, browser, seller, hooks] = await Promise.all([startTestEmulator(), launchBrowser(), sellerSite(), webhookReceiver()]);
  context = await phoneContext(browser);
  for (const key of [KEYS.acmeTest, KEYS.acmeLive]) {
    const r = await em.request('POST', '/v1/api/webhook-endpoints', { key, body: { url: `http://127.0.0.1:${hooks.port}/hooks`, events: ['payment.completed', 'payment.failed'] } });
    assert.equal(r.status, 201, r.text);
    secrets[key === KEYS.acmeTest ? 'test' : 'live'] = r.json.data.secret;
  }
});

after(async () => {
  await browser?.close();
  await Promise.all([em?.stop(), seller?.close(), hooks?.close()]);
});

async function createLink(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const r = await em.request('POST', '/v1/api/payment-links', { key, body, idempotencyKey: idem('link') });
  assert.equal(r.status, 201, r.text);
  return r.json.data as { id: string; link_code: string };
}

const returnTo = () => `http://localhost:${seller.port}/return?order=42`;

async function payment(id: string, key: string = KEYS.acmeTest) {
  const r = await em.request('GET', `/v1/api/payments/${id}`, { key });
  assert.equal(r.status, 200, r.text);
  return r.json.data;
}

async function link(id: string, key: string = KEYS.acmeTest) {
  return (await em.request('GET', `/v1/api/payment-links/${id}`, { key })).json.data;
}

/** The id in the confirmation URL (/checkout/PL-…/payments/pay_…). */
function paymentIdOf(page: Page): string {
  const m = /\/payments\/(pay_[A-Za-z0-9]+)$/.exec(new URL(page.url()).pathname);
  assert.ok(m, `not a confirmation URL: ${page.url()}`);
  return m[1];
}

/** The event in the outbox, then its signed delivery at the local receiver. */
async function expectWebhook(type: string, paymentId: string, environment: 'test' | 'live' = 'test') {
  const events = await em.request('GET', `/_emulator/events?merchant_id=mer_acme&environment=${environment}&type=${type}`, { key: null });
  assert.equal(events.status, 200, events.text);
  assert.ok(
    events.json.data.events.some((e: { body: string }) => JSON.parse(e.body).data.payment.id === paymentId),
    `no ${type} event for ${paymentId} in the outbox`,
  );
  const delivery = await hooks.waitFor((r) => r.headers['svc-event'] === type && JSON.parse(r.body).data.payment.id === paymentId);
  const verified = verifySignature({ secret: secrets[environment], header: delivery.headers['svc-signature'] as string, body: delivery.body });
  assert.ok(verified.ok, 'the delivery is signed with the endpoint secret of its environment');
  const body = JSON.parse(delivery.body);
  assert.equal(body.type, type);
  assert.equal(body.data.payment.environment, environment);
  assert.ok(body.data.link, 'a link payment event carries the link snapshot');
  return body;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

test('card: a test card pays, the confirmation returns to the seller with the query kept', async () => {
  const created = await createLink({ title: 'Coffee beans', description: '1 kg, whole bean', amount: 125000, currency: 'LRD', redirect_url: returnTo() });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    await page.getByRole('heading', { name: 'Coffee beans' }).waitFor();
    assert.equal((await page.locator('.amount').textContent())?.replace(/\s/g, ' '), 'LRD 1,250.00');
    assert.deepEqual(await page.getByRole('navigation', { name: 'Payment method' }).getByRole('link').allTextContents(), ['Card', 'Mobile money', 'Wallet']);
    await screenshot(page, 'checkout-card-form');
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay LRD 1,250.00' }).click();

    await page.getByText('Payment received').waitFor();
    const paymentId = paymentIdOf(page);
    const refresh = await page.locator('meta[http-equiv="refresh"]').getAttribute('content');
    assert.match(refresh ?? '', /^3;url=/, 'a paid order returns by itself after about 3 s');
    const back = new URL(await page.getByRole('link', { name: 'Return to seller' }).getAttribute('href') ?? '');
    assert.equal(back.searchParams.get('svc_status'), 'completed');
    await screenshot(page, 'checkout-card-paid');

    // No click: the meta refresh takes the payer back.
    await page.waitForURL((url) => url.pathname === '/return', { timeout: 15_000 });
    const landed = new URL(page.url()).searchParams;
    assert.equal(landed.get('order'), '42', 'existing query parameters are kept');
    assert.equal(landed.get('svc_payment_id'), paymentId);
    assert.equal(landed.get('svc_link'), created.link_code);
    assert.equal(landed.get('svc_status'), 'completed');
    await screenshot(page, 'seller-return-page');

    const p = await payment(paymentId);
    assert.equal(p.status, 'completed');
    assert.equal(p.payment_method, 'card');
    assert.equal(p.amount, 125000);
    assert.equal(p.currency, 'LRD');
    assert.equal(p.payment_link_id, created.id);
    const l = await link(created.id);
    assert.equal(l.status, 'completed');
    assert.equal(l.total_collected, 125000);
    assert.equal(l.payment_count, 1);
    const event = await expectWebhook('payment.completed', paymentId);
    assert.equal(event.data.link.link_code, created.link_code);

    // The link is paid: its page now says so, with no form.
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    await page.getByText('This link has already been paid').waitFor();
    assert.equal(await page.locator('form').count(), 0);
    await screenshot(page, 'checkout-already-paid');
  } finally {
    await page.close();
  }
});

test('card: a decline card fails the payment; only the Return to seller button, no automatic return', async () => {
  const created = await createLink({ title: 'Phone case', amount: 1500, currency: 'USD', redirect_url: returnTo() });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}?method=card`);
    await fillCard(page, '4000000000000002');
    await page.getByRole('button', { name: 'Pay $15.00' }).click();
    await page.getByText('Payment failed').waitFor();
    await page.getByText('The card was declined.').waitFor();
    const paymentId = paymentIdOf(page);
    assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0, 'a failed payment does not return by itself');
    await screenshot(page, 'checkout-card-declined');

    await page.getByRole('link', { name: 'Return to seller' }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    const landed = new URL(page.url()).searchParams;
    assert.equal(landed.get('order'), '42');
    assert.equal(landed.get('svc_payment_id'), paymentId);
    assert.equal(landed.get('svc_status'), 'failed');

    assert.equal((await payment(paymentId)).status, 'failed');
    const l = await link(created.id);
    assert.equal(l.status, 'pending', 'a failed payment leaves the link open');
    assert.equal(l.payment_count, 0);
    await expectWebhook('payment.failed', paymentId);
  } finally {
    await page.close();
  }
});

test('card: a mistyped number is refused on the form, nothing is charged', async () => {
  const created = await createLink({ title: 'Typo', amount: 500, currency: 'USD' });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    await fillCard(page, '4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Pay $5.00' }).click();
    await page.getByRole('alert').getByText('That card number is not valid').waitFor();
    assert.equal(await page.getByLabel('Card number').getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'checkout-card-invalid-number');
    // Corrected on the same form, it pays.
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay $5.00' }).click();
    await page.getByText('Payment received').waitFor();
    const l = await link(created.id);
    assert.equal(l.payment_count, 1);
  } finally {
    await page.close();
  }
});

test('mobile money on a test link completes at once; without redirect_url the payer stays on the confirmation', async () => {
  const created = await createLink({ title: 'Airtime', amount: 300, currency: 'USD', accepted_methods: ['momo'] });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    assert.equal(await page.getByRole('navigation', { name: 'Payment method' }).count(), 0, 'one method: no method choice');
    await page.getByLabel('Mobile money number').fill('+231 77 000 0201');
    await screenshot(page, 'checkout-momo-form');
    await page.getByRole('button', { name: 'Pay $3.00' }).click();
    await page.getByText('Payment received').waitFor();
    const paymentId = paymentIdOf(page);
    assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Return to seller' }).count(), 0);
    const p = await payment(paymentId);
    assert.equal(p.status, 'completed');
    assert.equal(p.payment_method, 'momo');
    await expectWebhook('payment.completed', paymentId);
  } finally {
    await page.close();
  }
});

test('mobile money on a live link is pending until the provider clears it (clock time), then completes', async () => {
  const created = await createLink({ title: 'Live groceries', amount: 2000, currency: 'USD', accepted_methods: ['card', 'momo'] }, KEYS.acmeLive);
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}?method=momo`);
    await page.getByText('Live', { exact: true }).waitFor();
    await page.getByLabel('Mobile money number').fill('0770000202');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    await page.getByText('Waiting for approval').waitFor();
    const paymentId = paymentIdOf(page);
    await screenshot(page, 'checkout-momo-live-pending');
    assert.equal((await payment(paymentId, KEYS.acmeLive)).status, 'pending');
    assert.equal((await link(created.id, KEYS.acmeLive)).status, 'pending');

    const r = await em.request('POST', '/_emulator/clock/advance', { key: null, body: { ms: em.services.config.momoClearMs } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await payment(paymentId, KEYS.acmeLive)).status, 'completed');
    const l = await link(created.id, KEYS.acmeLive);
    assert.equal(l.status, 'completed');
    assert.equal(l.total_collected, 2000);
    await expectWebhook('payment.completed', paymentId, 'live');
    // The waiting page reloads itself (meta refresh) and shows the result.
    await page.getByText('Payment received').waitFor({ timeout: 15_000 });
    await screenshot(page, 'checkout-momo-live-cleared');
  } finally {
    await page.close();
  }
});

test('wallet: wrong PIN refused with a message; right PIN pays a pay-any-amount link from the user wallet', async () => {
  const created = await createLink({ title: 'Donation', description: 'Any amount helps', currency: 'LRD', accepted_methods: ['wallet', 'card'] });
  const mary = async () => (await em.request('GET', `/_emulator/users/${encodeURIComponent('+231770000201')}`, { key: null })).json.data;
  const before = (await mary()).wallets.test.LRD;
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    assert.equal(await page.locator('.amount').count(), 0, 'no fixed amount shown');
    await page.getByLabel('Amount (LRD)').fill('1,500.50');
    await page.getByLabel('Wallet phone number').fill('+231770000201');
    await page.getByLabel('Wallet PIN').fill('9999');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('alert').getByText(/Wrong PIN; 4 attempts left/).waitFor();
    assert.equal(await page.getByLabel('Amount (LRD)').inputValue(), '1,500.50', 'typed values are kept');
    assert.equal(await page.getByLabel('Wallet PIN').inputValue(), '', 'the PIN is never echoed');
    await screenshot(page, 'checkout-wallet-wrong-pin');
    assert.equal((await link(created.id)).payment_count, 0);

    await page.getByLabel('Wallet PIN').fill('1111');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Payment received').waitFor();
    const paymentId = paymentIdOf(page);
    await screenshot(page, 'checkout-wallet-paid');
    const p = await payment(paymentId);
    assert.equal(p.status, 'completed');
    assert.equal(p.payment_method, 'wallet');
    assert.equal(p.amount, 150050);
    assert.equal((await mary()).wallets.test.LRD, before - 150050, 'the user wallet was debited');
    const l = await link(created.id);
    assert.equal(l.status, 'pending', 'a pay-any-amount link stays open');
    assert.equal(l.total_collected, 150050);
    await expectWebhook('payment.completed', paymentId);
  } finally {
    await page.close();
  }
});

test('wallet: an empty wallet makes a failed payment', async () => {
  const created = await createLink({ title: 'Sandals', amount: 2500, currency: 'USD', accepted_methods: ['wallet'], redirect_url: returnTo() });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    await page.getByLabel('Wallet phone number').fill('+231770000204');
    await page.getByLabel('Wallet PIN').fill('4444');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByText('Payment failed').waitFor();
    await page.getByText(/balance is too low/).waitFor();
    assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0);
    const back = new URL((await page.getByRole('link', { name: 'Return to seller' }).getAttribute('href')) ?? '');
    assert.equal(back.searchParams.get('svc_status'), 'failed');
    await screenshot(page, 'checkout-wallet-insufficient');
    const paymentId = paymentIdOf(page);
    assert.equal((await payment(paymentId)).status, 'failed');
    await expectWebhook('payment.failed', paymentId);
  } finally {
    await page.close();
  }
});

test('an expired link shows a clear page with only the Return to seller button (svc_status=expired)', async () => {
  const expiresAt = new Date(em.services.clock.now() + 60 * 60_000).toISOString();
  const created = await createLink({ title: 'Flash sale', amount: 999, currency: 'USD', expires_at: expiresAt, redirect_url: returnTo() });
  const r = await em.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '2h' } });
  assert.equal(r.status, 200, r.text);
  const page = await newPage(context);
  try {
    const res = await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    assert.equal(res?.status(), 410);
    await page.getByText('This payment link has expired').waitFor();
    assert.equal(await page.locator('form').count(), 0);
    assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0);
    await screenshot(page, 'checkout-expired');
    await page.getByRole('link', { name: 'Return to seller' }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    const landed = new URL(page.url()).searchParams;
    assert.equal(landed.get('order'), '42');
    assert.equal(landed.get('svc_link'), created.link_code);
    assert.equal(landed.get('svc_status'), 'expired');
    assert.equal(landed.get('svc_payment_id'), '');
  } finally {
    await page.close();
  }
});

test('a reload of the confirmation or a second submit of the same form does not pay twice', async () => {
  const created = await createLink({ title: 'Once only', amount: 700, currency: 'USD', accepted_methods: ['card'] });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    const token = await page.locator('input[name="token"]').inputValue();
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay $7.00' }).click();
    await page.getByText('Payment received').waitFor();
    const paymentId = paymentIdOf(page);
    await page.reload();
    await page.getByText('Payment received').waitFor();

    // The same form posted again (a double click that got through): the first result, no new payment.
    const again = await fetch(`${em.checkoutUrl}/${created.link_code}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, method: 'card', number: '4242424242424242', expiry: '12/34', cvc: '123' }),
    });
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), `/checkout/${created.link_code}/payments/${paymentId}`);
    // A made-up token is refused outright.
    const forged = await fetch(`${em.checkoutUrl}/${created.link_code}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: `${'A'.repeat(22)}.${'B'.repeat(22)}`, method: 'card', number: '4242424242424242', expiry: '12/34', cvc: '123' }),
    });
    assert.equal(forged.status, 400);
    const l = await link(created.id);
    assert.equal(l.payment_count, 1);
    const list = await em.request('GET', '/v1/api/payments?limit=100');
    assert.equal(list.json.data.payments.filter((p: { payment_link_id: string }) => p.payment_link_id === created.id).length, 1);
  } finally {
    await page.close();
  }
});

test('an unknown link code gets a not-found page', async () => {
  const page = await newPage(context);
  try {
    const res = await page.goto(`${em.checkoutUrl}/PL-ZZZZZZZZ`);
    assert.equal(res?.status(), 404);
    await page.getByRole('heading', { name: 'Payment link not found' }).waitFor();
  } finally {
    await page.close();
  }
});

test('keyboard only: Tab reaches every field in order and Enter pays', async () => {
  const created = await createLink({ title: 'Keyboard', amount: 100, currency: 'USD', accepted_methods: ['card', 'momo'] });
  const page = await newPage(context);
  try {
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    const focused = async () => {
      const el = page.locator(':focus');
      return (await el.getAttribute('name')) ?? (await el.textContent())?.trim();
    };
    const order: Array<string | undefined> = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    // method tabs, the test-card list, then the card fields and the button
    assert.deepEqual(order, ['Card', 'Mobile money', 'Test card numbers', 'number', 'expiry', 'cvc']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('01/35');
    await page.keyboard.press('Tab');
    await page.keyboard.type('999');
    await page.keyboard.press('Enter');
    await page.getByText('Payment received').waitFor();
    assert.equal((await link(created.id)).payment_count, 1);
  } finally {
    await page.close();
  }
});
