import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// The dashboard's wallet view and top-up (control API): balances, the ledger behind them,
// and the rules of the top-up body. Loopback only, never with a merchant key.

let emu: TestEmulator;
const control = (method: string, path: string, body?: unknown, key: string | null = null) => emu.request(method, `/_emulator${path}`, { key, body });

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

describe('reading wallets', () => {
  test('the seeded balances, each backed by its fixture ledger entry', async () => {
    const res = await control('GET', '/wallets?merchant_id=mer_acme');
    assert.equal(res.status, 200, res.text);
    const view = res.json.data;
    assert.equal(view.merchant_id, 'mer_acme');
    const byKey = Object.fromEntries(view.wallets.map((w: any) => [`${w.environment}:${w.currency}`, w]));
    assert.equal(byKey['test:USD'].balance, 500_000);
    assert.equal(byKey['test:LRD'].balance, 20_000_000);
    assert.equal(byKey['live:USD'].balance, 100_000);
    for (const w of view.wallets) {
      assert.equal(w.entry_sum, w.balance, `${w.id}: balance equals the sum of its entries`);
      assert.equal(w.entries.length, w.entry_count);
      assert.deepEqual(w.entries.map((e: any) => e.reason), ['fixture']);
    }
    const live = (await control('GET', '/wallets?merchant_id=mer_acme&environment=live')).json.data.wallets;
    assert.ok(live.every((w: any) => w.environment === 'live'));
  });

  test('entries come newest first, limited by ?entries=', async () => {
    for (const amount of [1, 2, 3]) await control('POST', '/wallets/top-up', { merchant_id: 'mer_globex', environment: 'test', currency: 'USD', amount });
    const w = (await control('GET', '/wallets?merchant_id=mer_globex&entries=2')).json.data.wallets[0];
    assert.deepEqual(w.entries.map((e: any) => [e.reason, e.amount]), [
      ['top_up', 3],
      ['top_up', 2],
    ]);
    assert.equal(w.entry_count, 4);
    assert.equal(w.balance, 10_000 + 6);
    assert.equal((await control('GET', '/wallets?merchant_id=mer_globex&entries=0')).json.data.wallets[0].entries.length, 0);
  });

  test('bad queries are 422; an unknown merchant is 404', async () => {
    for (const q of ['', '?merchant_id=mer_acme&entries=-1', '?merchant_id=mer_acme&entries=x', '?merchant_id=mer_acme&environment=prod', '?merchant_id=mer_acme&extra=1']) {
      const res = await control('GET', `/wallets${q}`);
      assert.equal(res.status, 422, q);
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    }
    assert.equal((await control('GET', '/wallets?merchant_id=mer_nobody')).status, 404);
  });
});

describe('top-ups', () => {
  test('credit the wallet with a top_up entry; a new currency wallet is opened', async () => {
    const res = await control('POST', '/wallets/top-up', { merchant_id: 'mer_acme', environment: 'live', currency: 'LRD', amount: 75_000 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data, { id: 'mer_acme:live:LRD', environment: 'live', currency: 'LRD', balance: 75_000 });
    const globexLrd = await control('POST', '/wallets/top-up', { merchant_id: 'mer_globex', environment: 'live', currency: 'LRD', amount: 5 });
    assert.equal(globexLrd.json.data.balance, 5);
    const w = (await control('GET', '/wallets?merchant_id=mer_globex&environment=live')).json.data.wallets;
    assert.deepEqual(w.map((x: any) => [x.currency, x.balance, x.entries[0].reason]), [['LRD', 5, 'top_up']]);
  });

  test('the top-up body is validated', async () => {
    for (const body of [
      { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 0 },
      { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: -5 },
      { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 1.5 },
      { merchant_id: 'mer_acme', environment: 'test', currency: 'EUR', amount: 1 },
      { merchant_id: 'mer_acme', environment: 'test', currency: 'USD' },
      { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 1, note: 'x' },
    ]) {
      const res = await control('POST', '/wallets/top-up', body);
      assert.equal(res.status, 422, JSON.stringify(body));
    }
    assert.equal((await control('POST', '/wallets/top-up', { merchant_id: 'mer_nobody', environment: 'test', currency: 'USD', amount: 1 })).status, 404);
  });

  test('a merchant key cannot reach the wallet actions', async () => {
    const res = await control('POST', '/wallets/top-up', { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 1 }, KEYS.acmeTest);
    assert.equal(res.status, 403);
    assert.equal((await control('GET', '/wallets?merchant_id=mer_acme', undefined, KEYS.acmeLive)).status, 403);
  });
});
