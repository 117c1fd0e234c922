import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Gift-card redemption over HTTP: the pocket's balance, the credit to the merchant's wallet,
// the body idempotency key (required, replayed, conflicting), ownership (404), issuance and
// loading on the control API.

let emu: TestEmulator;

const control = (method: string, path: string, body?: unknown) => emu.request(method, `/_emulator${path}`, { key: null, body });
const redeem = (body: Record<string, unknown>, key: string = KEYS.acmeTest, headers?: Record<string, string>) =>
  emu.request('POST', '/v1/gift-cards/redeem', { key, body, headers });

async function pocket(id: string) {
  const res = await control('GET', '/gift-card-wallets?merchant_id=mer_acme');
  assert.equal(res.status, 200, res.text);
  return res.json.data.gift_card_wallets.find((w: any) => w.id === id);
}

async function merchantBalance(environment: string, currency: string) {
  const res = await control('GET', `/wallets?merchant_id=mer_acme&environment=${environment}`);
  return res.json.data.wallets.find((w: any) => w.currency === currency)?.balance ?? 0;
}

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

describe('redeeming', () => {
  test("201 with the transaction and the pocket's resulting state; the merchant's wallet is credited", async () => {
    const before = await merchantBalance('test', 'USD');
    const key = idem('gc');
    const res = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1_250, reference: 'till-4', idempotency_key: key, location_id: 'loc_front' });
    assert.equal(res.status, 201, res.text);
    const { transaction: t, wallet } = res.json.data;
    assert.match(t.id, /^gct_/);
    assert.deepEqual(
      { ...t, id: undefined, created_at: undefined },
      { id: undefined, type: 'redemption', status: 'completed', merchant_wallet_id: 'mw_test_ada_usd', amount: 1_250, currency: 'USD', reference: 'till-4', location_id: 'loc_front', idempotency_key: key, environment: 'test', created_at: undefined },
    );
    assert.deepEqual(wallet, { id: 'mw_test_ada_usd', balance: 5_000 - 1_250, currency: 'USD' });
    assert.equal((await pocket('mw_test_ada_usd')).balance, 3_750);
    assert.equal(await merchantBalance('test', 'USD'), before + 1_250);
  });

  test('the whole balance can be redeemed; one minor unit more is 422 INSUFFICIENT_BALANCE and nothing moves', async () => {
    const over = await redeem({ merchant_wallet_id: 'mw_test_joseph_lrd', amount: 250_001, idempotency_key: idem('gc') });
    assert.equal(over.status, 422);
    assert.equal(over.json.error.code, 'INSUFFICIENT_BALANCE');
    assert.equal((await pocket('mw_test_joseph_lrd')).balance, 250_000);
    const before = await merchantBalance('test', 'LRD');
    const all = await redeem({ merchant_wallet_id: 'mw_test_joseph_lrd', amount: 250_000, idempotency_key: idem('gc') });
    assert.equal(all.status, 201, all.text);
    assert.equal(all.json.data.wallet.balance, 0);
    assert.equal(await merchantBalance('test', 'LRD'), before + 250_000, 'credited in the pocket currency');
  });

  test("another environment's or merchant's pocket is 404; there is no any-id shortcut", async () => {
    for (const [id, key] of [
      ['mw_live_ada_usd', KEYS.acmeTest],
      ['mw_test_ada_usd', KEYS.acmeLive],
      ['mw_test_ada_usd', KEYS.globexTest],
      ['mw_made_up', KEYS.acmeTest],
    ] as const) {
      const res = await redeem({ merchant_wallet_id: id, amount: 1, idempotency_key: idem('gc') }, key);
      assert.equal(res.status, 404, `${id} with ${key}`);
      assert.equal(res.json.error.code, 'NOT_FOUND');
    }
    const live = await redeem({ merchant_wallet_id: 'mw_live_ada_usd', amount: 100, idempotency_key: idem('gc') }, KEYS.acmeLive);
    assert.equal(live.status, 201, live.text);
    assert.equal(live.json.data.transaction.environment, 'live');
  });

  test('scope: a key without gift_cards:redeem is 403; the station key may redeem and keeps the POS location_id', async () => {
    const ro = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem('gc') }, KEYS.acmeReadOnly);
    assert.equal(ro.status, 403);
    assert.equal(ro.json.error.code, 'FORBIDDEN');
    const station = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem('gc'), location_id: 'loc_elsewhere' }, KEYS.acmeStation);
    assert.equal(station.status, 201, station.text);
    // The station override is the fleet-card rule only; a gift card records the body's value.
    assert.equal(station.json.data.transaction.location_id, 'loc_elsewhere');
    const stationNoBody = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem('gc') }, KEYS.acmeStation);
    assert.equal(stationNoBody.json.data.transaction.location_id, null);
    const noLocation = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem('gc') });
    assert.equal(noLocation.json.data.transaction.location_id, null);
  });

  test('body validation: amounts are positive integers, unknown fields refused', async () => {
    for (const body of [
      { merchant_wallet_id: 'mw_test_ada_usd', amount: 0, idempotency_key: idem('gc') },
      { merchant_wallet_id: 'mw_test_ada_usd', amount: 1.5, idempotency_key: idem('gc') },
      { merchant_wallet_id: 'mw_test_ada_usd', amount: '100', idempotency_key: idem('gc') },
      { amount: 100, idempotency_key: idem('gc') },
      { merchant_wallet_id: 'mw_test_ada_usd', amount: 100, idempotency_key: idem('gc'), tip: 5 },
    ]) {
      const res = await redeem(body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR', JSON.stringify(body));
    }
  });
});

describe('the body idempotency_key', () => {
  test('missing is 422 IDEMPOTENCY_KEY_REQUIRED; malformed or too long is 422 IDEMPOTENCY_KEY_INVALID', async () => {
    const missing = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1 });
    assert.equal(missing.status, 422);
    assert.equal(missing.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const cases: Array<[unknown, RegExp]> = [
      ['', /^idempotency_key is empty;/],
      ['x'.repeat(256), /^idempotency_key is 256 characters long, 1 over the 255-character limit;/],
      [42, /^idempotency_key is a number; it must be a string of 1 to 255/],
      ['\ud800', /^idempotency_key has a lone surrogate at character 1 \(U\+D800\), which is not Unicode text;/],
    ];
    for (const [bad, message] of cases) {
      const res = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: bad });
      assert.equal(res.status, 422, String(bad));
      assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_INVALID', String(bad));
      assert.match(res.json.error.message, message);
    }
    // Any Unicode text is a body key (issue 27): spaces anywhere, control characters, letters
    // beyond ASCII. These were refused while body keys had to be header-safe.
    for (const key of [`till 4 sale ${Math.random()}`, ` lead ${Math.random()}`, `trail ${Math.random()} `, `new\nline ${Math.random()}`, `café ${Math.random()}`]) {
      assert.equal((await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: key })).status, 201, JSON.stringify(key));
    }
    assert.equal((await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: 'x'.repeat(255) })).status, 201);
  });

  test('a retry with the same key and body returns the original result and redeems once', async () => {
    const before = (await pocket('mw_test_ada_usd')).balance;
    const body = { merchant_wallet_id: 'mw_test_ada_usd', amount: 10, idempotency_key: idem('gc-retry') };
    const first = await redeem(body);
    const again = await redeem({ idempotency_key: body.idempotency_key, amount: 10, merchant_wallet_id: body.merchant_wallet_id }); // key order differs
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal((await pocket('mw_test_ada_usd')).balance, before - 10);
  });

  test('the same key with another body is 409 IDEMPOTENCY_CONFLICT', async () => {
    const key = idem('gc-conflict');
    assert.equal((await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 10, idempotency_key: key })).status, 201);
    const other = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 11, idempotency_key: key });
    assert.equal(other.status, 409);
    assert.equal(other.json.error.code, 'IDEMPOTENCY_CONFLICT');
  });

  test('a refused redemption is the original result too: the retry answers the same 422 even after a load', async () => {
    const issued = await control('POST', '/gift-card-wallets', { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', balance: 100 });
    const body = { merchant_wallet_id: issued.json.data.id, amount: 150, idempotency_key: idem('gc-422') };
    const first = await redeem(body);
    assert.equal(first.json.error.code, 'INSUFFICIENT_BALANCE');
    await control('POST', `/gift-card-wallets/${issued.json.data.id}/load`, { amount: 100 });
    const retry = await redeem(body);
    assert.equal(retry.status, 422);
    assert.equal(retry.text, first.text);
    // A new key is a new attempt, which now succeeds.
    assert.equal((await redeem({ ...body, idempotency_key: idem('gc-new') })).status, 201);
  });

  test('the optional header is honoured separately from the body key', async () => {
    const header = idem('gc-header');
    const a = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: header }, KEYS.acmeTest, { 'x-idempotency-key': header });
    assert.equal(a.status, 201, 'the same string as header and body key does not collide with itself');
    const b = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem('gc-body') }, KEYS.acmeTest, { 'x-idempotency-key': header });
    assert.equal(b.status, 409, 'the header key was used with another body');
    const bad = await redeem({ merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem('gc') }, KEYS.acmeTest, { 'x-idempotency-key': 'x'.repeat(256) });
    assert.equal(bad.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
  });
});

describe('issuing and loading pockets (control API)', () => {
  test('issue with an opening balance, load, list; the merchant must exist', async () => {
    const issued = await control('POST', '/gift-card-wallets', { merchant_id: 'mer_acme', environment: 'test', currency: 'LRD', balance: 5_000, holder_phone: '+231770000203' });
    assert.equal(issued.status, 201, issued.text);
    assert.match(issued.json.data.id, /^mw_/);
    assert.deepEqual({ ...issued.json.data, id: undefined }, { id: undefined, merchant_id: 'mer_acme', environment: 'test', currency: 'LRD', balance: 5_000, holder_phone: '+231770000203' });
    const loaded = await control('POST', `/gift-card-wallets/${issued.json.data.id}/load`, { amount: 2_500 });
    assert.equal(loaded.json.data.balance, 7_500);
    const used = await redeem({ merchant_wallet_id: issued.json.data.id, amount: 7_500, idempotency_key: idem('gc') });
    assert.equal(used.status, 201, used.text);
    assert.equal((await pocket(issued.json.data.id)).balance, 0);

    assert.equal((await control('POST', '/gift-card-wallets', { merchant_id: 'mer_nobody', environment: 'test', currency: 'USD' })).status, 404);
    assert.equal((await control('POST', '/gift-card-wallets/mw_nope/load', { amount: 1 })).status, 404);
    assert.equal((await control('POST', `/gift-card-wallets/${issued.json.data.id}/load`, { amount: 0 })).status, 422);
    assert.equal((await control('GET', '/gift-card-wallets?merchant_id=mer_acme&environment=live')).json.data.gift_card_wallets.length, 1);
  });
});
