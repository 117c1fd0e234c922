import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idem, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { merchantBalance, userBalance } from '../helpers/balances.js';
import { runSvc } from '../helpers/svc-process.js';
import { packageFile } from '../../emulator/assets.js';

// Every balance stays a safe integer: a change that would pass Number.MAX_SAFE_INTEGER gets
// 422 and changes nothing (never a silently rounded balance), and fixtures are held to the
// same bound. Balances start near the bound through a fixtures file.

const MAX = Number.MAX_SAFE_INTEGER;
const NEAR = MAX - 100;

function fixturesWith(edit: (f: any) => void): string {
  const f = JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8'));
  edit(f);
  const path = join(fixtureDir, `fixtures-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(f));
  return path;
}

let fixtureDir: string;
let emu: TestEmulator;
before(async () => {
  fixtureDir = tempDir('svc-money-');
  const fixtures = fixturesWith((f) => {
    const acme = f.merchants[0];
    acme.wallets.find((w: any) => w.environment === 'test' && w.currency === 'USD').balance = NEAR;
    acme.gift_card_wallets.find((g: any) => g.id === 'mw_test_ada_usd').balance = NEAR;
    acme.fleet_cards.find((c: any) => c.id === 'fc_test_truck_01').balance = NEAR;
    f.users.find((u: any) => u.id === 'usr_mary').wallets.USD = NEAR;
  });
  emu = await startTestEmulator({ fixtures });
});
after(async () => {
  await emu.stop();
  rmSync(fixtureDir, { recursive: true, force: true });
});

const control = (method: string, path: string, body?: unknown) => emu.request(method, `/_emulator${path}`, { key: null, body });
function assertTooLarge(res: { status: number; text: string; json: any }) {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.code, 'VALIDATION_ERROR');
  assert.match(res.json.error.message, new RegExp(`would pass ${MAX}`));
}
const card = async (kind: 'fleet-cards' | 'gift-card-wallets', id: string) => (await control('GET', `/${kind}/${id}/transactions`)).json.data;

describe('a change past Number.MAX_SAFE_INTEGER', () => {
  test('merchant wallet: a top-up that would overflow is refused, one that lands exactly on the bound is kept', async () => {
    const topUp = (amount: number) => control('POST', '/wallets/top-up', { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount });
    assertTooLarge(await topUp(101));
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), NEAR);
    assert.equal((await topUp(100)).status, 200);
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), MAX);
  });

  test('a payment into a full wallet is refused whole: no payment, no link total, no wallet change', async () => {
    const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Full', currency: 'USD' }, idempotencyKey: idem('pl') });
    assert.equal(link.status, 201, link.text);
    const paid = await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { amount: 5, outcome: 'completed', method: 'card' } });
    assertTooLarge(paid);
    const after = await emu.request('GET', `/v1/api/payment-links/${link.json.data.id}`);
    assert.equal(after.json.data.total_collected, 0);
    assert.equal(after.json.data.payment_count, 0);
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), MAX);
  });

  test("a service user's wallet, a gift-card wallet and a fleet card refuse the same way", async () => {
    assertTooLarge(await control('POST', `/users/${encodeURIComponent('+231770000201')}/top-up`, { environment: 'test', currency: 'USD', amount: 101 }));
    assert.equal(await userBalance(emu, '+231770000201', 'test', 'USD'), NEAR);
    assertTooLarge(await control('POST', '/gift-card-wallets/mw_test_ada_usd/load', { amount: 101 }));
    assert.equal((await card('gift-card-wallets', 'mw_test_ada_usd')).balance, NEAR);
    assertTooLarge(await control('POST', '/fleet-cards/fc_test_truck_01/top-up', { amount: 101 }));
    assert.equal((await card('fleet-cards', 'fc_test_truck_01')).balance, NEAR);
  });
});

describe('fixtures', () => {
  const start = (fixtures: string) => runSvc(['emulator', 'start', '--port', '0', '--data-dir', join(fixtureDir, `data-${Math.random().toString(36).slice(2)}`), '--fixtures', fixtures]);

  test('a seeded balance past the bound is refused at start, naming the field (exit 2, as fixtures validate)', () => {
    const r = start(fixturesWith((f) => (f.merchants[0].fleet_cards[0].balance = MAX + 1)));
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /merchants\[0\]\.fleet_cards\[0\]\.balance/);
  });

  test('opening balances of one wallet that add up past the bound are refused at start', () => {
    const r = start(
      fixturesWith((f) => {
        f.merchants[0].wallets = [
          { environment: 'test', currency: 'USD', balance: MAX - 1 },
          { environment: 'test', currency: 'USD', balance: 2 },
        ];
      }),
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`merchants\\[0\\]\\.wallets\\[1\\]\\.balance: the test USD wallet of mer_acme would open with merchants\\[0\\]\\.wallets\\[0\\]\\.balance \\+ merchants\\[0\\]\\.wallets\\[1\\]\\.balance = ${MAX + 1}, past the largest balance ${MAX}`));
  });
});
