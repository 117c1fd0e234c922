import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Mandates: creation on both rails and both environments, reads, revoke, and the customer's
// approval steps (card saved, wallet phone + PIN with its lockout) through the control API.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const MARY = '+231770000201';
const FATU = '+231880000203';
const GOOD_CARD = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };

const create = (body: Record<string, unknown>, key: string = KEYS.acmeTest) => emu.request('POST', '/v1/api/mandates', { key, body, idempotencyKey: idem('mdt') });
async function created(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const res = await create(body, key);
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}
const approveCard = (id: string, card: Record<string, unknown> = GOOD_CARD) => emu.request('POST', `/_emulator/mandates/${id}/approve-card`, { key: null, body: card });
const approveWallet = (id: string, phone: string, pin: string) => emu.request('POST', `/_emulator/mandates/${id}/approve-wallet`, { key: null, body: { phone, pin } });
const get = (id: string, key: string = KEYS.acmeTest) => emu.request('GET', `/v1/api/mandates/${id}`, { key });

describe('create', () => {
  test('card rail with a test key: active at creation, approval URL and setup-intent secret', async () => {
    const out = await created({ rail: 'card', customer_ref: 'cus_1', currency: 'USD', max_amount_cents: 5000, customer_email: 'ada@example.com' });
    const m = out.mandate;
    assert.match(m.id, /^mdt_[A-Za-z0-9]{20}$/);
    assert.equal(m.status, 'active');
    assert.equal(m.rail, 'card');
    assert.equal(m.customer_ref, 'cus_1');
    assert.equal(m.customer_email, 'ada@example.com');
    assert.equal(m.max_amount_cents, 5000);
    assert.equal(m.environment, 'test');
    assert.equal(m.card, null);
    assert.ok(m.activated_at);
    assert.equal(out.approval_url, `${emu.checkoutUrl}/mandate/${m.id}`);
    assert.equal(m.approval_url, out.approval_url);
    assert.match(out.setup_intent_client_secret, /^seti_\w+_secret_[\w-]+$/);
    assert.deepEqual((await get(m.id)).json.data, m);
  });

  test('card rail with a live key: pending until the card is saved', async () => {
    const out = await created({ rail: 'card', customer_ref: 'cus_2', currency: 'USD', max_amount_cents: 5000 }, KEYS.acmeLive);
    assert.equal(out.mandate.status, 'pending');
    assert.equal(out.mandate.activated_at, null);
    assert.equal(out.mandate.environment, 'live');
    assert.ok(out.setup_intent_client_secret);
  });

  test('wallet rail: USD or LRD, approval URL on /wallet-mandate, no setup-intent secret', async () => {
    const live = await created({ rail: 'wallet', customer_ref: 'cus_3', currency: 'LRD', max_amount_cents: 100000 }, KEYS.acmeLive);
    assert.equal(live.mandate.status, 'pending');
    assert.equal(live.approval_url, `${emu.checkoutUrl}/wallet-mandate/${live.mandate.id}`);
    assert.ok(!('setup_intent_client_secret' in live));
    const test = await created({ rail: 'wallet', customer_ref: 'cus_3', currency: 'USD', max_amount_cents: 100 });
    assert.equal(test.mandate.status, 'active');
  });

  test('a test wallet mandate with customer_phone binds to that user; an unknown phone is refused', async () => {
    const out = await created({ rail: 'wallet', customer_ref: 'cus_4', currency: 'USD', max_amount_cents: 100, customer_phone: '0770000201' });
    assert.equal(out.mandate.customer_phone, MARY, 'normalized to E.164');
    const unknown = await create({ rail: 'wallet', customer_ref: 'cus_4', currency: 'USD', max_amount_cents: 100, customer_phone: '+231779999999' });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.json.error.code, 'VALIDATION_ERROR');
    assert.match(unknown.json.error.message, /customer_phone/);
    const notAPhone = await create({ rail: 'wallet', customer_ref: 'cus_4', currency: 'USD', max_amount_cents: 100, customer_phone: 'call me' });
    assert.equal(notAPhone.status, 422);
  });

  test('customer_email is a string as the spec has it: "a@b.c" (which zod\'s email check refused) and any other text is kept as sent', async () => {
    for (const email of ['a@b.c', 'ada@localhost', 'Ada Lovelace <ada@example.com>']) {
      const m = (await created({ rail: 'card', customer_ref: 'cus_email', currency: 'USD', max_amount_cents: 100, customer_email: email })).mandate;
      assert.equal(m.customer_email, email);
      assert.equal((await get(m.id)).json.data.customer_email, email);
    }
  });

  test('validation: card rail is USD only, customer_phone is wallet only, fields checked', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ rail: 'card', customer_ref: 'c', currency: 'LRD', max_amount_cents: 100 }, /currency: the card rail takes USD only/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 100, customer_phone: MARY }, /customer_phone/],
      [{ rail: 'wallet', customer_ref: 'c', currency: 'EUR', max_amount_cents: 100 }, /currency/],
      [{ rail: 'bank', customer_ref: 'c', currency: 'USD', max_amount_cents: 100 }, /rail/],
      [{ rail: 'card', customer_ref: '', currency: 'USD', max_amount_cents: 100 }, /customer_ref/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 0 }, /max_amount_cents/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 1.5 }, /max_amount_cents/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 100, customer_email: '' }, /customer_email/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 100, customer_email: 'a'.repeat(255) }, /customer_email/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 100, customer_email: 7 }, /customer_email/],
      [{ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 100, extra: 1 }, /unknown field "extra"/],
      [{ rail: 'card', currency: 'USD', max_amount_cents: 100 }, /customer_ref/],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
      assert.match(res.json.error.message, message);
    }
  });

  test('X-Idempotency-Key is required, and a replay returns the original bytes', async () => {
    const body = { rail: 'card', customer_ref: 'cus_5', currency: 'USD', max_amount_cents: 700 };
    const missing = await emu.request('POST', '/v1/api/mandates', { body });
    assert.equal(missing.status, 422);
    assert.equal(missing.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const key = idem('mdt');
    const first = await emu.request('POST', '/v1/api/mandates', { body, idempotencyKey: key });
    const again = await emu.request('POST', '/v1/api/mandates', { body, idempotencyKey: key });
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const conflict = await emu.request('POST', '/v1/api/mandates', { body: { ...body, max_amount_cents: 701 }, idempotencyKey: key });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
  });

  test('scopes: a read-only key cannot create or revoke, but can read', async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_6', currency: 'USD', max_amount_cents: 700 });
    const post = await create({ rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 100 }, KEYS.acmeReadOnly);
    assert.equal(post.status, 403);
    assert.equal(post.json.error.code, 'FORBIDDEN');
    const del = await emu.request('DELETE', `/v1/api/mandates/${mandate.id}`, { key: KEYS.acmeReadOnly });
    assert.equal(del.status, 403);
    assert.equal((await get(mandate.id, KEYS.acmeReadOnly)).status, 200);
  });

  test("another merchant's, another environment's or an unknown mandate is the same 404", async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_7', currency: 'USD', max_amount_cents: 700 });
    for (const [id, key] of [
      [mandate.id, KEYS.globexTest],
      [mandate.id, KEYS.acmeLive],
      ['mdt_doesnotexist000000000', KEYS.acmeTest],
    ]) {
      const res = await get(id, key);
      assert.equal(res.status, 404);
      assert.equal(res.json.error.code, 'NOT_FOUND');
      const del = await emu.request('DELETE', `/v1/api/mandates/${id}`, { key });
      assert.equal(del.status, 404);
    }
  });

  test('a non-business merchant may use mandates', async () => {
    const out = await created({ rail: 'card', customer_ref: 'g', currency: 'USD', max_amount_cents: 700 }, KEYS.globexTest);
    assert.equal(out.mandate.status, 'active');
  });
});

describe('revoke', () => {
  test('DELETE answers the revoked mandate; again answers the same; approval is then refused', async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_r', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    const del = await emu.request('DELETE', `/v1/api/mandates/${mandate.id}`, { key: KEYS.acmeLive });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.json.data.id, mandate.id);
    assert.equal(del.json.data.status, 'revoked');
    assert.ok(del.json.data.revoked_at);
    const again = await emu.request('DELETE', `/v1/api/mandates/${mandate.id}`, { key: KEYS.acmeLive });
    assert.equal(again.status, 200);
    assert.deepEqual(again.json.data, del.json.data);
    assert.equal((await get(mandate.id, KEYS.acmeLive)).json.data.status, 'revoked');
    const approve = await approveCard(mandate.id);
    assert.equal(approve.status, 409);
    assert.equal(approve.json.error.code, 'INVALID_STATE');
  });
});

describe('card approval', () => {
  test('saving a card activates a live mandate once; the card is shown without its number', async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_c', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    const res = await approveCard(mandate.id, { number: '5555 5555 5555 4444', exp_month: 3, exp_year: 41, cvc: '9876' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.status, 'active');
    assert.deepEqual(res.json.data.card, { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2041 });
    assert.ok(!res.text.includes('5555555555554444'));
    assert.deepEqual((await get(mandate.id, KEYS.acmeLive)).json.data, res.json.data);
    const twice = await approveCard(mandate.id);
    assert.equal(twice.status, 409);
    assert.equal(twice.json.error.code, 'INVALID_STATE');
  });

  test('bad cards are refused and leave the mandate pending', async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_c2', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...GOOD_CARD, number: '4242424242424241' }, /number/],
      [{ ...GOOD_CARD, exp_month: 13 }, /exp_month/],
      [{ ...GOOD_CARD, exp_year: 2001 }, /expired/],
      [{ ...GOOD_CARD, cvc: '12' }, /cvc/],
    ];
    for (const [card, message] of bad) {
      const res = await approveCard(mandate.id, card);
      assert.equal(res.status, 422, JSON.stringify(card));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
      assert.match(res.json.error.message, message);
    }
    assert.equal((await get(mandate.id, KEYS.acmeLive)).json.data.status, 'pending');
  });

  test('a wallet mandate cannot be approved with a card (and the reverse); unknown ids are 404', async () => {
    const { mandate } = await created({ rail: 'wallet', customer_ref: 'x', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    assert.equal((await approveCard(mandate.id)).json.error.code, 'INVALID_STATE');
    const card = await created({ rail: 'card', customer_ref: 'x', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    assert.equal((await approveWallet(card.mandate.id, MARY, '1111')).json.error.code, 'INVALID_STATE');
    assert.equal((await approveCard('mdt_nope')).status, 404);
    assert.equal((await approveWallet('mdt_nope', MARY, '1111')).status, 404);
  });

  test('a test mandate is active already, but its page may save a card once', async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_t', currency: 'USD', max_amount_cents: 700 });
    const res = await approveCard(mandate.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.card.last4, '4242');
    assert.equal(res.json.data.activated_at, mandate.activated_at);
    assert.equal((await approveCard(mandate.id)).status, 409);
  });

  test('the control API refuses merchant keys', async () => {
    const { mandate } = await created({ rail: 'card', customer_ref: 'cus_k', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    const res = await emu.request('POST', `/_emulator/mandates/${mandate.id}/approve-card`, { key: KEYS.acmeLive, body: GOOD_CARD });
    assert.equal(res.status, 403);
    assert.equal((await get(mandate.id, KEYS.acmeLive)).json.data.status, 'pending');
  });
});

describe('wallet approval', () => {
  test('phone + PIN binds the customer; the phone must be the one the merchant asked for', async () => {
    const { mandate } = await created({ rail: 'wallet', customer_ref: 'cus_w', currency: 'LRD', max_amount_cents: 700, customer_phone: MARY }, KEYS.acmeLive);
    const other = await approveWallet(mandate.id, '+231770000202', '2222');
    assert.equal(other.status, 422);
    assert.match(other.json.error.message, /another phone/);
    const wrong = await approveWallet(mandate.id, '0770000201', '9999');
    assert.equal(wrong.status, 422);
    assert.equal(wrong.json.error.code, 'PIN_INVALID');
    assert.match(wrong.json.error.message, /4 attempts left/);
    const ok = await approveWallet(mandate.id, '0770000201', '1111');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.data.status, 'active');
    assert.equal(ok.json.data.customer_phone, MARY);
    assert.equal((await approveWallet(mandate.id, MARY, '1111')).json.error.code, 'INVALID_STATE');
  });

  test('an unknown phone is refused without touching anyone\'s PIN count', async () => {
    const { mandate } = await created({ rail: 'wallet', customer_ref: 'cus_u', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    const res = await approveWallet(mandate.id, '+231779999999', '0000');
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'VALIDATION_ERROR');
  });

  test('five wrong PINs lock PIN entry for 15 minutes (even the right PIN), then it works', async () => {
    const { mandate } = await created({ rail: 'wallet', customer_ref: 'cus_l', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    for (const left of [4, 3, 2, 1]) {
      const res = await approveWallet(mandate.id, FATU, '0000');
      assert.equal(res.status, 422);
      assert.equal(res.json.error.code, 'PIN_INVALID');
      assert.match(res.json.error.message, new RegExp(`${left} attempts? left`));
    }
    const fifth = await approveWallet(mandate.id, FATU, '0000');
    assert.equal(fifth.status, 423);
    assert.equal(fifth.json.error.code, 'PIN_LOCKED');
    const right = await approveWallet(mandate.id, FATU, '3333');
    assert.equal(right.status, 423, 'the right PIN is refused during the lock');
    // The lock is per person, so another mandate does not reset it.
    const { mandate: second } = await created({ rail: 'wallet', customer_ref: 'cus_l2', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    assert.equal((await approveWallet(second.id, FATU, '3333')).status, 423);
    await emu.services.scheduler.advance(14 * 60_000);
    assert.equal((await approveWallet(mandate.id, FATU, '3333')).status, 423);
    await emu.services.scheduler.advance(60_000);
    const after = await approveWallet(mandate.id, FATU, '3333');
    assert.equal(after.status, 200, after.text);
    assert.equal(after.json.data.status, 'active');
    // A fresh count after the lock: one wrong PIN has 4 tries left again.
    const fresh = await approveWallet(second.id, FATU, '0000');
    assert.match(fresh.json.error.message, /4 attempts left/);
  });

  test('the wrong-PIN count survives a restart of the emulator', async () => {
    const { mandate } = await created({ rail: 'wallet', customer_ref: 'cus_p', currency: 'USD', max_amount_cents: 700 }, KEYS.acmeLive);
    const JOSEPH = '+231770000202';
    assert.match((await approveWallet(mandate.id, JOSEPH, '0000')).json.error.message, /4 attempts left/);
    const dataDir = emu.dataDir!;
    const now = emu.services.clock.now();
    await emu.stop({ keepData: true });
    emu = await startTestEmulator({ dataDir, clockStart: now });
    assert.match((await approveWallet(mandate.id, JOSEPH, '0000')).json.error.message, /3 attempts left/);
    assert.equal((await approveWallet(mandate.id, JOSEPH, '2222')).status, 200);
  });
});
