import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { verifySignature } from '../../contract/signature.js';
import { launchBrowser, phoneContext } from './browser.js';
import { sellerSite, webhookReceiver, type RecordingServer } from './servers.js';

// The world of a checkout test file: one emulator, one browser, the seller's return page and a
// webhook receiver registered for both environments, plus the checks every checkout test
// makes over the API, the outbox and the receiver. Each test file calls setupCheckoutWorld()
// once (node:test runs each file in its own process, so this module's state is per file).

export let em: TestEmulator;
let browser: Browser;
export let context: BrowserContext;
let seller: RecordingServer;
let hooks: RecordingServer;
const secrets: Record<string, string> = {};

export function setupCheckoutWorld(): void {
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
}

export async function createLink(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const r = await em.request('POST', '/v1/api/payment-links', { key, body, idempotencyKey: idem('link') });
  assert.equal(r.status, 201, r.text);
  return r.json.data as { id: string; link_code: string };
}

export const returnTo = () => `http://localhost:${seller.port}/return?order=42`;

export async function payment(id: string, key: string = KEYS.acmeTest) {
  const r = await em.request('GET', `/v1/api/payments/${id}`, { key });
  assert.equal(r.status, 200, r.text);
  return r.json.data;
}

export async function link(id: string, key: string = KEYS.acmeTest) {
  return (await em.request('GET', `/v1/api/payment-links/${id}`, { key })).json.data;
}

/** The id in the confirmation URL (/checkout/PL-…/payments/pay_…). */
export function paymentIdOf(page: Page): string {
  const m = /\/payments\/(pay_[A-Za-z0-9]+)$/.exec(new URL(page.url()).pathname);
  assert.ok(m, `not a confirmation URL: ${page.url()}`);
  return m[1];
}

/** The event in the outbox, then its signed delivery at the local receiver. */
export async function expectWebhook(type: string, paymentId: string, environment: 'test' | 'live' = 'test') {
  const events = await em.request('GET', `/_emulator/events?merchant_id=mer_acme&environment=${environment}&type=${type}`, { key: null });
  assert.equal(events.status, 200, events.text);
  assert.ok(
    events.json.data.events.some((e: { body: string }) => JSON.parse(e.body).data.payment.id === paymentId),
    `no ${type} event for ${paymentId} in the outbox`,
  );
  // Attempt 1 is due 1 s after the event on the (manual) emulator clock: move to it.
  const moved = await em.request('POST', '/_emulator/clock/advance-to-next-delivery', { key: null, body: {} });
  assert.equal(moved.status, 200, moved.text);
  const delivery = await hooks.waitFor((r) => r.headers['svc-event'] === type && JSON.parse(r.body).data.payment.id === paymentId);
  const verified = verifySignature({ secret: secrets[environment], header: delivery.headers['svc-signature'] as string, body: delivery.body });
  assert.ok(verified.ok, 'the delivery is signed with the endpoint secret of its environment');
  const body = JSON.parse(delivery.body);
  assert.equal(body.type, type);
  assert.equal(body.data.payment.environment, environment);
  assert.ok(body.data.link, 'a link payment event carries the link snapshot');
  return body;
}

export async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}
