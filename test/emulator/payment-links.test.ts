import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Payment links: create, read (by id and by code), simulate and the totals it moves.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

async function createLink(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const res = await emu.request('POST', '/v1/api/payment-links', { key, body, idempotencyKey: idem('pl') });
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}
const simulate = (id: string, body: Record<string, unknown> = {}, key: string = KEYS.acmeTest) =>
  emu.request('POST', `/v1/api/payment-links/${id}/simulate`, { key, body });
const getLink = async (id: string) => (await emu.request('GET', `/v1/api/payment-links/${id}`)).json.data;

describe('create and read', () => {
  test('create returns the record with a PL- code, pending, zero totals', async () => {
    const link = await createLink({ title: 'Coffee beans', amount: 1200, currency: 'USD', metadata: { sku: 'cb-1' } });
    assert.match(link.id, /^pl_[A-Za-z0-9]{20}$/);
    assert.match(link.link_code, /^PL-[A-Z0-9]{8}$/);
    assert.equal(link.title, 'Coffee beans');
    assert.equal(link.amount, 1200);
    assert.equal(link.currency, 'USD');
    assert.equal(link.status, 'pending');
    assert.equal(link.total_collected, 0);
    assert.equal(link.payment_count, 0);
    assert.deepEqual(link.metadata, { sku: 'cb-1' });
    assert.equal(link.environment, 'test');
    assert.ok(!('checkout_url' in link), 'the spec has no checkout_url field');
    assert.ok(!('merchant_id' in link) && !('closed' in link), 'internal fields stay internal');
    assert.ok(!Number.isNaN(Date.parse(link.created_at)));
  });

  test('link codes are unique', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 30; i++) codes.add((await createLink({ title: `u${i}` })).link_code);
    assert.equal(codes.size, 30);
  });

  test('get by id and by code return the same record', async () => {
    const link = await createLink({ title: 'Read me', amount: 300, description: 'desc' });
    const byId = await emu.request('GET', `/v1/api/payment-links/${link.id}`);
    const byCode = await emu.request('GET', `/v1/api/payment-links/by-code/${link.link_code}`);
    assert.equal(byId.status, 200);
    assert.equal(byCode.status, 200);
    assert.deepEqual(byId.json.data, link);
    assert.deepEqual(byCode.json.data, link);
  });

  test('an unknown code is 404', async () => {
    const res = await emu.request('GET', '/v1/api/payment-links/by-code/PL-NOPE0000');
    assert.equal(res.status, 404);
    assert.equal(res.json.error.code, 'NOT_FOUND');
  });
});

describe('simulate', () => {
  test('completed: a payment of the link amount; totals move; a fixed link closes', async () => {
    const link = await createLink({ title: 'Fixed', amount: 1200, currency: 'LRD' });
    const res = await simulate(link.id, { outcome: 'completed', method: 'card' });
    assert.equal(res.status, 201, res.text);
    const p = res.json.data;
    assert.match(p.id, /^pay_/);
    assert.deepEqual(
      { amount: p.amount, currency: p.currency, status: p.status, method: p.payment_method, env: p.environment, link: p.payment_link_id, mandate: p.mandate_id },
      { amount: 1200, currency: 'LRD', status: 'completed', method: 'card', env: 'test', link: link.id, mandate: null },
    );
    assert.equal(typeof p.idempotency_key, 'string');
    assert.ok(p.idempotency_key.length > 0);
    const after = await getLink(link.id);
    assert.equal(after.total_collected, 1200);
    assert.equal(after.payment_count, 1);
    assert.equal(after.status, 'completed');
    // Paid once: a fixed-amount link refuses another payment.
    const again = await simulate(link.id, {});
    assert.equal(again.status, 422);
    assert.equal(again.json.error.code, 'LINK_CLOSED');
    assert.equal((await getLink(link.id)).payment_count, 1);
  });

  test('outcome defaults to completed; method defaults to the first accepted one', async () => {
    const link = await createLink({ title: 'Defaults', amount: 50, accepted_methods: ['momo', 'wallet'] });
    const res = await simulate(link.id);
    assert.equal(res.status, 201);
    assert.equal(res.json.data.status, 'completed');
    assert.equal(res.json.data.payment_method, 'momo');
  });

  test('a method the link does not accept is 422 naming method', async () => {
    const link = await createLink({ title: 'Card only', amount: 50, accepted_methods: ['card'] });
    const res = await simulate(link.id, { method: 'wallet' });
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    assert.match(res.json.error.message, /^method:/);
  });

  test('failed: a failed payment; totals and status unchanged; the link can still be paid', async () => {
    const link = await createLink({ title: 'Flaky', amount: 700 });
    const failed = await simulate(link.id, { outcome: 'failed', method: 'wallet' });
    assert.equal(failed.status, 201);
    assert.equal(failed.json.data.status, 'failed');
    assert.equal(failed.json.data.payment_method, 'wallet');
    let now = await getLink(link.id);
    assert.equal(now.total_collected, 0);
    assert.equal(now.payment_count, 0);
    assert.equal(now.status, 'pending');
    const ok = await simulate(link.id, { outcome: 'completed' });
    assert.equal(ok.status, 201);
    now = await getLink(link.id);
    assert.equal(now.total_collected, 700);
    assert.equal(now.payment_count, 1);
  });

  test('pay-any-amount: amount required; payments accumulate; the link stays open', async () => {
    const link = await createLink({ title: 'Tip jar' });
    const missing = await simulate(link.id, {});
    assert.equal(missing.status, 422);
    assert.match(missing.json.error.message, /^amount:/);
    for (const amount of [100, 250]) assert.equal((await simulate(link.id, { amount })).status, 201);
    assert.equal((await simulate(link.id, { amount: 999, outcome: 'failed' })).status, 201);
    const now = await getLink(link.id);
    assert.equal(now.total_collected, 350);
    assert.equal(now.payment_count, 2);
    assert.equal(now.status, 'pending');
  });

  test('fixed amount: another amount is refused, the same amount accepted', async () => {
    const link = await createLink({ title: 'Exact', amount: 400 });
    const other = await simulate(link.id, { amount: 401 });
    assert.equal(other.status, 422);
    assert.match(other.json.error.message, /^amount:/);
    const same = await simulate(link.id, { amount: 400 });
    assert.equal(same.status, 201);
    assert.equal(same.json.data.amount, 400);
  });

  test('an expired link (clock moved past expires_at) is LINK_EXPIRED and reads as expired', async () => {
    const expires = new Date(emu.services.clock.now() + 3_600_000).toISOString();
    const link = await createLink({ title: 'Flash sale', amount: 100, expires_at: expires });
    assert.equal(link.status, 'pending');
    await emu.services.scheduler.advance(3_600_000);
    const res = await simulate(link.id);
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'LINK_EXPIRED');
    assert.equal((await getLink(link.id)).status, 'expired');
    assert.equal((await getLink(link.id)).payment_count, 0);
  });

  test('a live key gets 404 for simulate, even on its own live link', async () => {
    const live = await createLink({ title: 'Live', amount: 100 }, KEYS.acmeLive);
    const res = await simulate(live.id, {}, KEYS.acmeLive);
    assert.equal(res.status, 404);
    assert.equal(res.json.error.code, 'NOT_FOUND');
    const absent = await simulate('pl_00000000000000000000', {}, KEYS.acmeLive);
    assert.equal(absent.text, res.text);
    const read = await emu.request('GET', `/v1/api/payment-links/${live.id}`, { key: KEYS.acmeLive });
    assert.equal(read.json.data.payment_count, 0);
  });

  test('the payment is readable and belongs to the link', async () => {
    const link = await createLink({ title: 'Readback', amount: 1234 });
    const p = (await simulate(link.id, { method: 'momo' })).json.data;
    const read = await emu.request('GET', `/v1/api/payments/${p.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json.data, p);
  });
});
