import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliSession, familySmokeTest } from './cli.js';

// payouts create|get|list, gift-cards redeem and fleet-cards redeem (in-process).

const cli = cliSession();
const { svc } = cli;

test('payouts create/get/list', async () => {
  const created = await svc(['payouts', 'create', '--payee', 'payee_ada', '--amount', '2500', '--currency', 'USD', '--external-ref', 'inv-77', '--json'], undefined, familySmokeTest);
  assert.equal(created.code, 0, created.stderr);
  const payout = created.json();
  assert.equal(payout.external_ref, 'inv-77');
  assert.deepEqual((await svc(['payouts', 'get', payout.id, '--json'])).json(), (await cli.emu.request('GET', `/v1/api/payouts/${payout.id}`)).json.data);
  const list = (await svc(['payouts', 'list', '--limit', '5', '--json'])).json();
  assert.deepEqual(list, (await cli.emu.request('GET', '/v1/api/payouts?limit=5')).json.data);
  const human = await svc(['payouts', 'list']);
  assert.match(human.stdout, new RegExp(payout.id));
  const revoked = await svc(['payouts', 'create', '--payee', 'payee_old', '--amount', '100', '--currency', 'USD']);
  assert.equal(revoked.code, 1);
  assert.match(revoked.stderr, /VALIDATION_ERROR/);
});

test('gift-cards redeem and fleet-cards redeem; a retry with the same key returns the original; card errors exit 1', async () => {
  const gift = await svc(['gift-cards', 'redeem', '--wallet', 'mw_test_ada_usd', '--amount', '250', '--reference', 'order-9', '--idempotency-key', 'pos-gift-1', '--json'], undefined, familySmokeTest);
  assert.equal(gift.code, 0, gift.stderr);
  const g = gift.json();
  assert.equal(g.transaction.idempotency_key, 'pos-gift-1');
  assert.equal(g.wallet.balance, 5000 - 250);
  assert.deepEqual((await svc(['gift-cards', 'redeem', '--wallet', 'mw_test_ada_usd', '--amount', '250', '--reference', 'order-9', '--idempotency-key', 'pos-gift-1', '--json'])).json(), g);

  const fleet = await svc(['fleet-cards', 'redeem', '--card', 'fc_test_truck_01', '--category', 'fuel', '--amount', '4000'], undefined, familySmokeTest);
  assert.equal(fleet.code, 0, fleet.stderr);
  assert.match(fleet.stdout, /^\[TEST\] Fleet card redeemed/);
  assert.match(fleet.stdout, /amount\s+40\.00 USD/);
  const wrongCategory = await svc(['fleet-cards', 'redeem', '--card', 'fc_test_truck_01', '--category', 'snacks', '--amount', '100']);
  assert.equal(wrongCategory.code, 1);
  assert.match(wrongCategory.stderr, /CATEGORY_NOT_ALLOWED/);
  const inactive = await svc(['fleet-cards', 'redeem', '--card', 'fc_test_truck_02', '--category', 'fuel', '--amount', '100']);
  assert.match(inactive.stderr, /FLEET_CARD_INACTIVE/);
});
