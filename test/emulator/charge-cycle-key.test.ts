import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { eventsOfType, merchantBalance, userBalance } from '../helpers/balances.js';

// A charge's cycle key (the body's idempotency_key) follows rule 3 like every other key: for
// 24 h from its first use it returns the payment it made (or 409 with another amount), and
// from then on it is free: the same key charges again. The emulator's manual clock is moved
// through the control API, so the 24 h pass without waiting for anything.

const HOUR = 3_600_000;
const MARY = '+231770000201';

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator({ clock: 'manual' });
});
after(() => emu.stop());

async function advance(ms: number) {
  const res = await emu.request('POST', '/_emulator/clock/advance', { key: null, body: { ms } });
  assert.equal(res.status, 200, res.text);
}

/** A test wallet mandate bound to Mary, so every completed charge takes money from her wallet. */
async function walletMandate(): Promise<string> {
  const res = await emu.request('POST', '/v1/api/mandates', {
    body: { rail: 'wallet', currency: 'USD', customer_ref: 'cus-cycle', max_amount_cents: 5000, customer_phone: MARY },
    idempotencyKey: idem('mdt'),
  });
  assert.equal(res.status, 201, res.text);
  return res.json.data.mandate.id;
}

const charge = (body: Record<string, unknown>, header: string = idem('chg')) => emu.request('POST', '/v1/api/charges', { body, idempotencyKey: header });

test('the issue: reusing a cycle key (and its header key) 25 h later charges the customer again', async () => {
  const mandate = await walletMandate();
  const body = { mandate_id: mandate, amount_cents: 900, currency: 'USD', idempotency_key: 'subscription-2026-11' };
  const header = idem('chg-25h');
  const mary = await userBalance(emu, MARY, 'test', 'USD');
  const acme = await merchantBalance(emu, 'mer_acme', 'test', 'USD');

  const first = await charge(body, header);
  assert.equal(first.status, 201, first.text);
  assert.equal(first.json.data.status, 'completed');

  await advance(25 * HOUR);
  const again = await charge(body, header);
  assert.equal(again.status, 201, again.text);
  assert.equal(again.headers.get('idempotent-replayed'), null, 'the header key expired too: nothing is replayed');
  assert.notEqual(again.json.data.id, first.json.data.id, 'a new payment');
  assert.equal(again.json.data.status, 'completed');
  assert.equal(again.json.data.idempotency_key, 'subscription-2026-11');
  assert.equal(await userBalance(emu, MARY, 'test', 'USD'), mary - 1800, 'Mary paid twice');
  assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), acme + 1800, 'Acme was credited twice');
  const events = await eventsOfType(emu, 'mer_acme', 'test', 'payment.completed');
  const ids = events.map((e) => e.data.payment.id);
  assert.ok(ids.includes(first.json.data.id) && ids.includes(again.json.data.id), 'one payment.completed each');
  const listed = await emu.request('GET', '/v1/api/payments?limit=100');
  assert.equal(listed.json.data.payments.filter((p: { mandate_id: string }) => p.mandate_id === mandate).length, 2);
});

test('held until 24 h after its first use (replay, conflict), free at 24 h, then held again from its new use', async () => {
  const mandate = await walletMandate();
  const body = { mandate_id: mandate, amount_cents: 400, currency: 'USD', idempotency_key: `cycle-${idem()}` };
  const mary = await userBalance(emu, MARY, 'test', 'USD');
  const first = await charge(body);
  assert.equal(first.status, 201, first.text);

  await advance(24 * HOUR - 1);
  const retry = await charge(body); // a new header key: only the cycle key is reused
  assert.equal(retry.status, 201, retry.text);
  assert.deepEqual(retry.json.data, first.json.data, '1 ms before 24 h: the original payment');
  const conflict = await charge({ ...body, amount_cents: 401 });
  assert.equal(conflict.status, 409, conflict.text);
  assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
  assert.match(conflict.json.error.message, /in the last 24 h/);
  assert.equal(await userBalance(emu, MARY, 'test', 'USD'), mary - 400, 'charged once so far');

  await advance(1);
  const renewed = await charge({ ...body, amount_cents: 450 }); // at 24 h: free, even for another amount
  assert.equal(renewed.status, 201, renewed.text);
  assert.notEqual(renewed.json.data.id, first.json.data.id);
  assert.equal(renewed.json.data.amount, 450);
  assert.equal(await userBalance(emu, MARY, 'test', 'USD'), mary - 850);

  // The new use holds the key for its own 24 h: a retry returns the new payment, not the old one.
  await advance(23 * HOUR);
  const retryRenewed = await charge({ ...body, amount_cents: 450 });
  assert.deepEqual(retryRenewed.json.data, renewed.json.data);
  const oldAmount = await charge(body);
  assert.equal(oldAmount.status, 409, 'the held payment is the renewed one (450), so 400 conflicts');
  assert.equal(await userBalance(emu, MARY, 'test', 'USD'), mary - 850);
});

test('a revoked mandate: within 24 h the cycle key still returns its payment, after 24 h it is a new charge and refused', async () => {
  const mandate = await walletMandate();
  const body = { mandate_id: mandate, amount_cents: 100, currency: 'USD', idempotency_key: `revoked-${idem()}` };
  const first = await charge(body);
  assert.equal(first.status, 201, first.text);
  assert.equal((await emu.request('DELETE', `/v1/api/mandates/${mandate}`, { idempotencyKey: idem('rev') })).status, 200);
  const within = await charge(body);
  assert.equal(within.status, 201, within.text);
  assert.equal(within.json.data.id, first.json.data.id);
  await advance(24 * HOUR);
  const later = await charge(body);
  assert.equal(later.status, 422, later.text);
  assert.equal(later.json.error.code, 'MANDATE_NOT_ACTIVE');
});
