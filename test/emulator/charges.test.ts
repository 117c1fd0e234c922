import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { allUsersBalance, eventsOfType, merchantBalance, userBalance } from '../helpers/balances.js';

// Charges: a draw against a mandate, answered synchronously with the payment. Declines and
// empty wallets are failed payments (201), never HTTP errors; money moves from the customer's
// wallet (wallet rail) to the merchant's, and the payment shows everywhere payments show.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const MARY = '+231770000201';
const JOSEPH = '+231770000202';
const SAM_EMPTY = '+231770000204';

async function mandate(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const res = await emu.request('POST', '/v1/api/mandates', { key, body: { customer_ref: 'cus', max_amount_cents: 5000, ...body }, idempotencyKey: idem('mdt') });
  assert.equal(res.status, 201, res.text);
  return res.json.data.mandate as { id: string; currency: string };
}
const charge = (body: Record<string, unknown>, key: string = KEYS.acmeTest, header: string = idem('chg')) =>
  emu.request('POST', '/v1/api/charges', { key, body: { idempotency_key: idem('cycle'), ...body }, idempotencyKey: header });
async function charged(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const res = await charge(body, key);
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}
const approveCard = (id: string, number: string) =>
  emu.request('POST', `/_emulator/mandates/${id}/approve-card`, { key: null, body: { number, exp_month: 12, exp_year: 2099, cvc: '123' } });

describe('wallet rail', () => {
  test("a charge debits the customer's test wallet, credits the merchant, and is a payment everywhere", async () => {
    const m = await mandate({ rail: 'wallet', currency: 'LRD', customer_phone: MARY });
    const maryBefore = await userBalance(emu, MARY, 'test', 'LRD');
    const maryLive = await userBalance(emu, MARY, 'live', 'LRD');
    const acmeBefore = await merchantBalance(emu, 'mer_acme', 'test', 'LRD');
    const p = await charged({ mandate_id: m.id, amount_cents: 4000, currency: 'LRD', idempotency_key: 'invoice-2026-11' });
    assert.match(p.id, /^pay_/);
    assert.equal(p.status, 'completed');
    assert.equal(p.amount, 4000);
    assert.equal(p.currency, 'LRD');
    assert.equal(p.payment_method, 'wallet');
    assert.equal(p.mandate_id, m.id);
    assert.equal(p.payment_link_id, null);
    assert.equal(p.environment, 'test');
    assert.equal(p.idempotency_key, 'invoice-2026-11', 'the cycle key is the payment key receivers dedupe on');
    assert.equal(await userBalance(emu, MARY, 'test', 'LRD'), maryBefore - 4000);
    assert.equal(await userBalance(emu, MARY, 'live', 'LRD'), maryLive, 'test traffic never touches live money');
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'LRD'), acmeBefore + 4000);

    assert.deepEqual((await emu.request('GET', `/v1/api/payments/${p.id}`)).json.data, p);
    const list = await emu.request('GET', '/v1/api/payments?limit=100');
    assert.ok(list.json.data.payments.some((row: { id: string }) => row.id === p.id));
    const summary = (await emu.request('GET', '/v1/api/payments/summary')).json.data.summary as Array<{ currency: string; completed_amount: number }>;
    assert.ok(summary.find((row) => row.currency === 'LRD')!.completed_amount >= 4000);
    const events = await eventsOfType(emu, 'mer_acme', 'test', 'payment.completed');
    const event = events.find((e) => e.data.payment.id === p.id);
    assert.ok(event, 'payment.completed appended to the outbox');
    assert.deepEqual(event.data.payment, p);
    assert.ok(!('link' in event.data), 'a charge has no link snapshot');
  });

  test('insufficient customer balance is a failed payment with 201, and no money moves', async () => {
    const m = await mandate({ rail: 'wallet', currency: 'USD', customer_phone: SAM_EMPTY });
    const acmeBefore = await merchantBalance(emu, 'mer_acme', 'test', 'USD');
    const p = await charged({ mandate_id: m.id, amount_cents: 100, currency: 'USD' });
    assert.equal(p.status, 'failed');
    assert.equal(await userBalance(emu, SAM_EMPTY, 'test', 'USD'), 0);
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), acmeBefore);
    const failed = await eventsOfType(emu, 'mer_acme', 'test', 'payment.failed');
    assert.ok(failed.some((e) => e.data.payment.id === p.id));
    assert.equal((await emu.request('GET', `/v1/api/payments/${p.id}`)).json.data.status, 'failed');
  });

  test('after a top-up of the customer wallet, the same charge succeeds', async () => {
    const m = await mandate({ rail: 'wallet', currency: 'LRD', customer_phone: SAM_EMPTY });
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 800, currency: 'LRD' })).status, 'failed');
    const topUp = await emu.request('POST', `/_emulator/users/${encodeURIComponent(SAM_EMPTY)}/top-up`, { key: null, body: { environment: 'test', currency: 'LRD', amount: 1000 } });
    assert.equal(topUp.status, 200, topUp.text);
    assert.equal(topUp.json.data.wallets.test.LRD, 1000);
    assert.equal(topUp.json.data.wallets.live.LRD, 0);
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 800, currency: 'LRD' })).status, 'completed');
    assert.equal(await userBalance(emu, SAM_EMPTY, 'test', 'LRD'), 200);
    const entries = (await emu.request('GET', `/_emulator/users/${encodeURIComponent(SAM_EMPTY)}`, { key: null })).json.data.entries as Array<{ amount: number; reason: string }>;
    assert.deepEqual(entries.map((e) => [e.reason, e.amount]), [['top_up', 1000], ['mandate_charge', -800]]);
    const bad = await emu.request('POST', '/_emulator/users/+231779999999/top-up', { key: null, body: { environment: 'test', currency: 'LRD', amount: 1 } });
    assert.equal(bad.status, 404);
  });

  test('a charge of exactly the balance empties the wallet; the next one fails', async () => {
    // Fatu has 250.00 USD in test.
    const m = await mandate({ rail: 'wallet', currency: 'USD', customer_phone: '+231880000203', max_amount_cents: 25000 });
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 25000, currency: 'USD' })).status, 'completed');
    assert.equal(await userBalance(emu, '+231880000203', 'test', 'USD'), 0);
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 1, currency: 'USD' })).status, 'failed');
  });

  test('a test wallet mandate bound to no one charges a simulated customer, touching no user', async () => {
    const m = await mandate({ rail: 'wallet', currency: 'USD' });
    const usersBefore = await allUsersBalance(emu, 'test', 'USD');
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 300, currency: 'USD' })).status, 'completed');
    assert.equal(await allUsersBalance(emu, 'test', 'USD'), usersBefore);
  });

  test("a live wallet mandate approved with phone + PIN draws from that customer's live wallet", async () => {
    const m = await mandate({ rail: 'wallet', currency: 'USD' }, KEYS.acmeLive);
    const pending = await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD' }, KEYS.acmeLive);
    assert.equal(pending.status, 422);
    assert.equal(pending.json.error.code, 'MANDATE_NOT_ACTIVE');
    assert.match(pending.json.error.message, /pending/);
    const ok = await emu.request('POST', `/_emulator/mandates/${m.id}/approve-wallet`, { key: null, body: { phone: JOSEPH, pin: '2222' } });
    assert.equal(ok.status, 200, ok.text);
    const liveBefore = await userBalance(emu, JOSEPH, 'live', 'USD');
    const testBefore = await userBalance(emu, JOSEPH, 'test', 'USD');
    const acmeLive = await merchantBalance(emu, 'mer_acme', 'live', 'USD');
    const p = await charged({ mandate_id: m.id, amount_cents: 1500, currency: 'USD' }, KEYS.acmeLive);
    assert.equal(p.status, 'completed');
    assert.equal(p.environment, 'live');
    assert.equal(await userBalance(emu, JOSEPH, 'live', 'USD'), liveBefore - 1500);
    assert.equal(await userBalance(emu, JOSEPH, 'test', 'USD'), testBefore);
    assert.equal(await merchantBalance(emu, 'mer_acme', 'live', 'USD'), acmeLive + 1500);
  });
});

describe('card rail', () => {
  test('the card saved at approval decides: 4242 succeeds, 0002 and 9995 decline (201 failed)', async () => {
    const acmeBefore = await merchantBalance(emu, 'mer_acme', 'live', 'USD');
    const results: Record<string, string> = {};
    for (const number of ['4242424242424242', '4000000000000002', '4000000000009995']) {
      const m = await mandate({ rail: 'card', currency: 'USD' }, KEYS.acmeLive);
      assert.equal((await approveCard(m.id, number)).status, 200);
      const p = await charged({ mandate_id: m.id, amount_cents: 2000, currency: 'USD' }, KEYS.acmeLive);
      assert.equal(p.payment_method, 'card');
      results[number] = p.status;
    }
    assert.deepEqual(results, { '4242424242424242': 'completed', '4000000000000002': 'failed', '4000000000009995': 'failed' });
    assert.equal(await merchantBalance(emu, 'mer_acme', 'live', 'USD'), acmeBefore + 2000, 'only the completed charge is credited');
  });

  test('a test card mandate without a saved card succeeds; with a decline card saved it fails', async () => {
    const m = await mandate({ rail: 'card', currency: 'USD' });
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 100, currency: 'USD' })).status, 'completed');
    assert.equal((await approveCard(m.id, '4000000000000002')).status, 200);
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 100, currency: 'USD' })).status, 'failed');
  });
});

describe('rules', () => {
  test('outcome forces the result on test mandates without touching the customer wallet', async () => {
    const m = await mandate({ rail: 'wallet', currency: 'USD', customer_phone: SAM_EMPTY });
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 100, currency: 'USD', outcome: 'completed' })).status, 'completed');
    assert.equal(await userBalance(emu, SAM_EMPTY, 'test', 'USD'), 0);
    const card = await mandate({ rail: 'card', currency: 'USD' });
    assert.equal((await charged({ mandate_id: card.id, amount_cents: 100, currency: 'USD', outcome: 'failed' })).status, 'failed');
  });

  test('outcome with a live key is 422', async () => {
    const m = await mandate({ rail: 'card', currency: 'USD' }, KEYS.acmeLive);
    await approveCard(m.id, '4242424242424242');
    const res = await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD', outcome: 'completed' }, KEYS.acmeLive);
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    assert.match(res.json.error.message, /outcome/);
  });

  test('amount over max_amount_cents, another currency and bad fields are 422 VALIDATION_ERROR', async () => {
    const m = await mandate({ rail: 'wallet', currency: 'USD', max_amount_cents: 1000 });
    assert.equal((await charged({ mandate_id: m.id, amount_cents: 1000, currency: 'USD' })).status, 'completed', 'exactly the cap is allowed');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ mandate_id: m.id, amount_cents: 1001, currency: 'USD' }, /amount_cents: must be at most the mandate's max_amount_cents \(1000\)/],
      [{ mandate_id: m.id, amount_cents: 100, currency: 'LRD' }, /currency: must equal the mandate's currency \(USD\)/],
      [{ mandate_id: m.id, amount_cents: 0, currency: 'USD' }, /amount_cents/],
      [{ mandate_id: m.id, amount_cents: 100, currency: 'USD', outcome: 'maybe' }, /outcome/],
      [{ mandate_id: m.id, amount_cents: 100, currency: 'USD', tip: 1 }, /unknown field "tip"/],
    ];
    for (const [body, message] of cases) {
      const res = await charge(body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
      assert.match(res.json.error.message, message);
    }
    // The cycle key is an idempotency key like any other (issue 27): missing or malformed, it is
    // answered with the idempotency codes, no longer VALIDATION_ERROR; a trailing space is fine.
    const noBodyKey = await emu.request('POST', '/v1/api/charges', { body: { mandate_id: m.id, amount_cents: 100, currency: 'USD' }, idempotencyKey: idem() });
    assert.equal(noBodyKey.status, 422);
    assert.equal(noBodyKey.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.match(noBodyKey.json.error.message, /idempotency_key/);
    for (const bad of ['', 'x'.repeat(256)]) {
      const res = await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD', idempotency_key: bad });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
      assert.match(res.json.error.message, /^idempotency_key /);
    }
    assert.equal((await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD', idempotency_key: `trail ${idem()} ` })).status, 201);
  });

  test('the X-Idempotency-Key header is required too, and replays byte-for-byte', async () => {
    const m = await mandate({ rail: 'card', currency: 'USD' });
    const body = { mandate_id: m.id, amount_cents: 100, currency: 'USD', idempotency_key: idem('cycle') };
    const missing = await emu.request('POST', '/v1/api/charges', { body });
    assert.equal(missing.status, 422);
    assert.equal(missing.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const header = idem('h');
    const first = await charge(body, KEYS.acmeTest, header);
    const again = await charge(body, KEYS.acmeTest, header);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });

  test('the body key is the cycle key: a second charge with it returns the original payment, even under a new header key', async () => {
    const m = await mandate({ rail: 'wallet', currency: 'USD', customer_phone: MARY });
    const before = await userBalance(emu, MARY, 'test', 'USD');
    const body = { mandate_id: m.id, amount_cents: 700, currency: 'USD', idempotency_key: 'cycle-2026-12' };
    const first = await charged(body);
    const second = await charge(body, KEYS.acmeTest, idem('other-header'));
    assert.equal(second.status, 201);
    assert.deepEqual(second.json.data, first);
    assert.equal(await userBalance(emu, MARY, 'test', 'USD'), before - 700, 'charged once');
    const events = await eventsOfType(emu, 'mer_acme', 'test', 'payment.completed');
    assert.equal(events.filter((e) => e.data.payment.id === first.id).length, 1, 'one event');
    const conflict = await charge({ ...body, amount_cents: 701 });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
    // The same cycle key on another mandate is another charge.
    const other = await mandate({ rail: 'wallet', currency: 'USD' });
    const elsewhere = await charged({ ...body, mandate_id: other.id });
    assert.notEqual(elsewhere.id, first.id);
  });

  test('after revoke, new charges answer 422 MANDATE_NOT_ACTIVE; a retried cycle still returns its payment', async () => {
    const m = await mandate({ rail: 'card', currency: 'USD' });
    const body = { mandate_id: m.id, amount_cents: 100, currency: 'USD', idempotency_key: 'cycle-before-revoke' };
    const p = await charged(body);
    assert.equal((await emu.request('DELETE', `/v1/api/mandates/${m.id}`)).status, 200);
    const retried = await charge(body);
    assert.equal(retried.status, 201);
    assert.equal(retried.json.data.id, p.id);
    const fresh = await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD' });
    assert.equal(fresh.status, 422);
    assert.equal(fresh.json.error.code, 'MANDATE_NOT_ACTIVE');
    assert.match(fresh.json.error.message, /revoked/);
  });

  test("another merchant's or environment's mandate is 404; a read-only key is 403", async () => {
    const m = await mandate({ rail: 'card', currency: 'USD' });
    for (const key of [KEYS.globexTest, KEYS.acmeLive]) {
      const res = await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD' }, key);
      assert.equal(res.status, 404);
      assert.equal(res.json.error.code, 'NOT_FOUND');
    }
    const unknown = await charge({ mandate_id: 'mdt_nope', amount_cents: 100, currency: 'USD' });
    assert.equal(unknown.status, 404);
    const ro = await charge({ mandate_id: m.id, amount_cents: 100, currency: 'USD' }, KEYS.acmeReadOnly);
    assert.equal(ro.status, 403);
    assert.equal(ro.json.error.code, 'FORBIDDEN');
  });
});
