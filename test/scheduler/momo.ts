import assert from 'node:assert/strict';
import { idem, KEYS, type TestEmulator } from '../helpers/emulator.js';

/**
 * A live mobile-money payment made on a live link's hosted checkout, the form posted over HTTP
 * as a browser would: it stays `pending` until the provider clears it (--momo-delay later).
 */
export async function payLiveMomo(em: TestEmulator): Promise<{ linkId: string; paymentId: string }> {
  const r = await em.request('POST', '/v1/api/payment-links', { key: KEYS.acmeLive, body: { title: 'Clearing', amount: 4200, accepted_methods: ['momo'] }, idempotencyKey: idem('link') });
  assert.equal(r.status, 201, r.text);
  const code = r.json.data.link_code as string;
  const form = await (await fetch(`${em.checkoutUrl}/${code}`)).text();
  const token = /name="token" value="([^"]+)"/.exec(form)?.[1];
  assert.ok(token, 'the form carries a token');
  const post = await fetch(`${em.checkoutUrl}/${code}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, method: 'momo', phone: '+231770000201' }),
  });
  assert.equal(post.status, 303);
  const paymentId = /\/payments\/(pay_\w+)$/.exec(post.headers.get('location') ?? '')?.[1];
  assert.ok(paymentId, 'the confirmation page names the payment');
  return { linkId: r.json.data.id, paymentId };
}
