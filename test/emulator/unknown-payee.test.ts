import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// A payout naming a payee the caller cannot see — unknown, another merchant's, the other
// environment's — is 404 NOT_FOUND, as for every absent resource (a charge's mandate_id too).
// A payee that exists but may not be paid (revoked, not approved) stays the spec's 422.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const control = (method: string, path: string, body?: unknown) => emu.request(method, `/_emulator${path}`, { key: null, body });
const payout = (body: object, key: string = KEYS.acmeTest, idempotencyKey: string = idem('po')) => emu.request('POST', '/v1/api/payouts', { key, body, idempotencyKey });

async function acmeUsd(): Promise<number> {
  const res = await control('GET', '/wallets?merchant_id=mer_acme&environment=test');
  return res.json.data.wallets.find((w: { currency: string }) => w.currency === 'USD').balance;
}
async function payoutTotal(): Promise<number> {
  return (await emu.request('GET', '/v1/api/payouts?limit=1')).json.data.total;
}

function assertNotFound(res: { status: number; json: any; text: string }) {
  assert.equal(res.status, 404, res.text);
  assert.equal(res.json.error.code, 'NOT_FOUND');
  assert.equal(res.json.error.message, 'No such payee.');
}

test('an unknown payee is 404 NOT_FOUND, before any check of the body against a payee; nothing is paid', async () => {
  const [balance, total] = [await acmeUsd(), await payoutTotal()];
  assertNotFound(await payout({ payee_id: 'payee_nope', amount_cents: 100, currency: 'USD' }));
  // No payee, so no payee currency or cap to compare with: still 404.
  assertNotFound(await payout({ payee_id: 'payee_nope', amount_cents: 100, currency: 'LRD' }));
  assert.equal(await acmeUsd(), balance);
  assert.equal(await payoutTotal(), total);
});

test("another merchant's payee is 404, even one still waiting for approval (its state is not revealed)", async () => {
  const added = await control('POST', '/payees', { merchant_id: 'mer_globex', environment: 'test', name: 'Globex Supplier', currency: 'USD', per_payout_cap: 1000, daily_cap: 1000 });
  assert.equal(added.status, 201, added.text);
  assertNotFound(await payout({ payee_id: added.json.data.id, amount_cents: 100, currency: 'USD' }));
});

test("the other environment's payee is 404, both ways", async () => {
  assertNotFound(await payout({ payee_id: 'payee_live_ada', amount_cents: 100, currency: 'USD' }, KEYS.acmeTest));
  assertNotFound(await payout({ payee_id: 'payee_ada', amount_cents: 100, currency: 'USD' }, KEYS.acmeLive));
});

test('a revoked payee stays 422 VALIDATION_ERROR, as the spec says', async () => {
  const res = await payout({ payee_id: 'payee_old', amount_cents: 100, currency: 'USD' });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.code, 'VALIDATION_ERROR');
  assert.match(res.json.error.message, /^payee_id: this payee has been revoked/);
});

test('the 404 is the original answer of its idempotency key: a retry replays it (rule 6)', async () => {
  const key = idem('po-404');
  const body = { payee_id: 'payee_nope', amount_cents: 100, currency: 'USD' };
  const first = await payout(body, KEYS.acmeTest, key);
  assertNotFound(first);
  const again = await payout(body, KEYS.acmeTest, key);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
});
