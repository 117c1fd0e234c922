import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './browser.js';
import { context, createLink, em, expectWebhook, fillCard, link, payment, paymentIdOf, returnTo, setupCheckoutWorld } from './checkout-world.js';

// The payment-link checkout in a real browser (JavaScript off), paying by card: success with
// the automatic return, decline, form errors, double submits, keyboard use.

setupCheckoutWorld();

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
    const actions = await page.locator('main a, main button').allTextContents();
    assert.deepEqual(actions.map((t) => t.trim()), ['Return to seller'], 'only the Return to seller button');
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
