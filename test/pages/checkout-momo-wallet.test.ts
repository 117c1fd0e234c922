import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { newPage, screenshot } from './browser.js';
import { context, createLink, em, expectWebhook, link, payment, paymentIdOf, returnTo, setupCheckoutWorld } from './checkout-world.js';

// The payment-link checkout in a real browser (JavaScript off): mobile money (test and live),
// wallet payments with PINs and balances, expired links.

setupCheckoutWorld();

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
    // Meanwhile the link takes no other payment: its page shows the one waiting.
    await page.goto(`${em.checkoutUrl}/${created.link_code}`);
    await page.getByText('Waiting for approval').waitFor();
    assert.equal(await page.locator('form').count(), 0);

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
