import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliSession, familySmokeTest, recordedWaits } from './cli.js';

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

test('payouts create sends an X-Idempotency-Key by default (the route no longer requires one): a lost answer is recovered by a replay, one payout', async () => {
  const added = await cli.emu.request('POST', '/_emulator/faults', { key: null, body: { route: 'POST /v1/api/payouts', kind: 'status', status: 502, after_commit: true, times: 1 } });
  assert.equal(added.status, 201, added.text);
  const total = async () => (await cli.emu.request('GET', '/v1/api/payouts?limit=1')).json.data.total as number;
  const before = await total();
  const waits = recordedWaits();
  const r = await svc(['payouts', 'create', '--payee', 'payee_ada', '--amount', '300', '--currency', 'USD', '--json'], undefined, { sleep: waits.sleep });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /recovered by an idempotent replay: attempt 2 reused the idempotency key/);
  assert.equal(await total(), before + 1, 'the retry carried the same key: exactly one payout');
  // --idempotency-key is the key sent: the same key again replays the same payout.
  const key = `cli-payout-${process.pid}`;
  const first = await svc(['payouts', 'create', '--payee', 'payee_ada', '--amount', '301', '--currency', 'USD', '--idempotency-key', key, '--json']);
  const again = await svc(['payouts', 'create', '--payee', 'payee_ada', '--amount', '301', '--currency', 'USD', '--idempotency-key', key, '--json']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.json().id, first.json().id);
  assert.equal(await total(), before + 2);
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
