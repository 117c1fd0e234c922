import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Payees are dashboard actions on the control API: add (pending_approval), approve with the
// owner's PIN, revoke, set caps (raising needs the PIN). A merchant key never reaches them,
// and the payout rules follow every change.

let emu: TestEmulator;
const OWNER_PIN = '1357';

const control = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  emu.request(method, `/_emulator${path}`, { key: null, body, headers });

const payout = (payee_id: string, amount_cents: number, currency = 'USD') =>
  emu.request('POST', '/v1/api/payouts', { body: { payee_id, amount_cents, currency }, idempotencyKey: idem('payee') });

async function add(fields: Record<string, unknown> = {}) {
  const res = await control('POST', '/payees', { merchant_id: 'mer_acme', environment: 'test', name: 'Sawmill Co', currency: 'USD', per_payout_cap: 1_000, daily_cap: 5_000, ...fields });
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

describe('reading payees', () => {
  test("lists a merchant's payees from the fixtures, filtered by environment", async () => {
    const all = await control('GET', '/payees?merchant_id=mer_acme');
    assert.equal(all.status, 200, all.text);
    const byId = new Map(all.json.data.payees.map((p: any) => [p.id, p]));
    assert.ok(['payee_ada', 'payee_kofi', 'payee_old', 'payee_live_ada'].every((id) => byId.has(id)));
    assert.deepEqual(
      { ...(byId.get('payee_ada') as any), created_at: undefined },
      { id: 'payee_ada', merchant_id: 'mer_acme', environment: 'test', name: 'Ada Cooper', currency: 'USD', per_payout_cap: 50_000, daily_cap: 100_000, status: 'approved', created_at: undefined },
    );
    const live = await control('GET', '/payees?merchant_id=mer_acme&environment=live');
    assert.deepEqual(live.json.data.payees.map((p: any) => p.id), ['payee_live_ada']);
    assert.deepEqual((await control('GET', '/payees?merchant_id=mer_globex')).json.data.payees, []);
  });

  test('merchant_id is required; an unknown merchant is 404', async () => {
    const missing = await control('GET', '/payees');
    assert.equal(missing.status, 422);
    assert.match(missing.json.error.message, /merchant_id/);
    assert.equal((await control('GET', '/payees?merchant_id=mer_nobody')).status, 404);
  });
});

describe('the approval flow', () => {
  test('add → pending_approval (no payouts) → wrong PIN refused → approve → payouts work → revoke → refused', async () => {
    const payee = await add();
    assert.equal(payee.status, 'pending_approval');
    assert.match(payee.id, /^payee_/);
    assert.equal((await payout(payee.id, 100)).status, 422);

    const wrong = await control('POST', `/payees/${payee.id}/approve`, { pin: '0000' });
    assert.equal(wrong.status, 422);
    assert.equal(wrong.json.error.code, 'PIN_INVALID');
    assert.equal((await control('GET', '/payees?merchant_id=mer_acme')).json.data.payees.find((p: any) => p.id === payee.id).status, 'pending_approval');

    const ok = await control('POST', `/payees/${payee.id}/approve`, { pin: OWNER_PIN });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.data.status, 'approved');
    assert.equal((await payout(payee.id, 100)).status, 201);

    const revoked = await control('POST', `/payees/${payee.id}/revoke`);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.json.data.status, 'revoked');
    const refused = await payout(payee.id, 100);
    assert.equal(refused.status, 422);
    assert.match(refused.json.error.message, /revoked/);

    // Revoked is final: approving again is a state error, caps can no longer change.
    const again = await control('POST', `/payees/${payee.id}/approve`, { pin: OWNER_PIN });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'INVALID_STATE');
    assert.equal((await control('POST', `/payees/${payee.id}/caps`, { daily_cap: 1 })).json.error.code, 'INVALID_STATE');
    assert.equal((await control('POST', `/payees/${payee.id}/revoke`)).json.data.status, 'revoked', 'revoking twice is a no-op');
  });

  test('the PIN is validated as 4-6 digits and required', async () => {
    const payee = await add();
    for (const body of [{}, { pin: '12' }, { pin: 'abcd' }, { pin: 1357 }]) {
      const res = await control('POST', `/payees/${payee.id}/approve`, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    }
  });

  test('an unknown payee is 404', async () => {
    assert.equal((await control('POST', '/payees/payee_nope/approve', { pin: OWNER_PIN })).status, 404);
    assert.equal((await control('POST', '/payees/payee_nope/revoke')).status, 404);
    assert.equal((await control('POST', '/payees/payee_nope/caps', { daily_cap: 1 })).status, 404);
  });
});

describe('caps', () => {
  test('lowering needs no PIN; raising needs the right PIN; payouts follow the caps', async () => {
    const payee = await add({ per_payout_cap: 1_000, daily_cap: 5_000 });
    await control('POST', `/payees/${payee.id}/approve`, { pin: OWNER_PIN });

    const lower = await control('POST', `/payees/${payee.id}/caps`, { per_payout_cap: 500 });
    assert.equal(lower.status, 200, lower.text);
    assert.deepEqual([lower.json.data.per_payout_cap, lower.json.data.daily_cap], [500, 5_000]);
    assert.equal((await payout(payee.id, 501)).status, 422);

    const noPin = await control('POST', `/payees/${payee.id}/caps`, { per_payout_cap: 2_000 });
    assert.equal(noPin.status, 422);
    assert.equal(noPin.json.error.code, 'VALIDATION_ERROR');
    assert.match(noPin.json.error.message, /^pin: /);
    const wrongPin = await control('POST', `/payees/${payee.id}/caps`, { per_payout_cap: 2_000, pin: '9999' });
    assert.equal(wrongPin.json.error.code, 'PIN_INVALID');
    // A raise hidden beside a cut still needs the PIN.
    const mixed = await control('POST', `/payees/${payee.id}/caps`, { per_payout_cap: 100, daily_cap: 6_000 });
    assert.equal(mixed.status, 422);

    const raised = await control('POST', `/payees/${payee.id}/caps`, { per_payout_cap: 2_000, pin: OWNER_PIN });
    assert.equal(raised.status, 200, raised.text);
    assert.equal(raised.json.data.per_payout_cap, 2_000);
    assert.equal((await payout(payee.id, 2_000)).status, 201);
  });

  test('a per-payout cap above the daily cap, negative or missing caps are 422', async () => {
    const payee = await add();
    for (const body of [{ per_payout_cap: 6_000, pin: OWNER_PIN }, { daily_cap: -1 }, {}, { pin: OWNER_PIN }]) {
      const res = await control('POST', `/payees/${payee.id}/caps`, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    const bad = await control('POST', '/payees', { merchant_id: 'mer_acme', environment: 'test', name: 'X', currency: 'USD', per_payout_cap: 10, daily_cap: 5 });
    assert.equal(bad.status, 422);
    const eur = await control('POST', '/payees', { merchant_id: 'mer_acme', environment: 'test', name: 'X', currency: 'EUR', per_payout_cap: 1, daily_cap: 5 });
    assert.equal(eur.status, 422, 'payees are USD or LRD');
  });
});

describe('the control API is not the merchant API', () => {
  test('a merchant key is refused on the control API; there is no /v1 route for payees', async () => {
    const res = await control('POST', '/payees', { merchant_id: 'mer_acme', environment: 'test', name: 'X', currency: 'USD', per_payout_cap: 1, daily_cap: 1 }, { authorization: `Bearer ${KEYS.acmeTest}` });
    assert.equal(res.status, 403);
    assert.equal(res.json.error.code, 'FORBIDDEN');
    const approve = await emu.request('POST', '/_emulator/payees/payee_old/approve', { body: { pin: OWNER_PIN } });
    assert.equal(approve.status, 403);
    assert.equal((await emu.request('POST', '/v1/api/payees', { body: {} })).status, 404);
  });
});

describe('owner PIN lockout (shared with payroll approval)', () => {
  test('the 5th wrong PIN locks approvals and cap raises for 15 minutes, even with the right PIN', async () => {
    const e = await startTestEmulator();
    try {
      const c = (method: string, path: string, body?: unknown) => e.request(method, `/_emulator${path}`, { key: null, body });
      const added = await c('POST', '/payees', { merchant_id: 'mer_acme', environment: 'test', name: 'Locksmith', currency: 'USD', per_payout_cap: 1, daily_cap: 1 });
      const id = added.json.data.id;
      for (let i = 1; i <= 4; i++) assert.equal((await c('POST', `/payees/${id}/approve`, { pin: '0000' })).json.error.code, 'PIN_INVALID', `try ${i}`);
      const fifth = await c('POST', `/payees/${id}/approve`, { pin: '0000' });
      assert.equal(fifth.status, 423);
      assert.equal(fifth.json.error.code, 'PIN_LOCKED');
      assert.equal((await c('POST', `/payees/${id}/approve`, { pin: OWNER_PIN })).json.error.code, 'PIN_LOCKED');
      assert.equal((await c('POST', '/payees/payee_ada/caps', { daily_cap: 200_000, pin: OWNER_PIN })).json.error.code, 'PIN_LOCKED');
      await c('POST', '/clock/advance', { by: '15m' });
      const ok = await c('POST', `/payees/${id}/approve`, { pin: OWNER_PIN });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.json.data.status, 'approved');
    } finally {
      await e.stop();
    }
  });
});
