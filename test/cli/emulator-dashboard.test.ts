import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession } from './cli.js';

// `svc emulator wallets|gift-card-wallets|fleet-cards …` (in-process), checked
// against the control API and then used by the redemption commands. The merchant comes from the key.

const cli = cliSession();
const { ctl, control } = cli;

test('wallets list / top-up; gift-card wallets and fleet cards issue, load, status', async () => {
  const topped = await ctl(['wallets', 'top-up', '--currency', 'LRD', '--amount', '5000', '--json']);
  assert.equal(topped.code, 0, topped.stderr);
  assert.equal(topped.json().balance, 200_000_00 + 5000);
  const wallets = await ctl(['wallets', 'list', '--entries', '1', '--json']);
  assert.deepEqual(wallets.json(), await control('/wallets?merchant_id=mer_acme&environment=test&entries=1'));
  const human = await ctl(['wallets', 'list', '--environment', 'live']);
  assert.match(human.stdout, /mer_acme:live:USD\s+1,000\.00 USD/);

  const issued = await ctl(['gift-card-wallets', 'issue', '--currency', 'USD', '--balance', '700', '--json']);
  assert.equal(issued.code, 0, issued.stderr);
  const loaded = await ctl(['gift-card-wallets', 'load', issued.json().id, '--amount', '300', '--json']);
  assert.equal(loaded.json().balance, 1000);
  const redeem = await cli.run(['gift-cards', 'redeem', '--wallet', issued.json().id, '--amount', '1000', '--json', '--base-url', cli.emu.baseUrl, '--api-key', KEYS.acmeTest]);
  assert.equal(redeem.code, 0, redeem.stderr);
  assert.equal(redeem.json().wallet.balance, 0);

  const card = await ctl(['fleet-cards', 'issue', '--currency', 'USD', '--categories', 'fuel,tolls', '--spend-limit', '5000', '--spend-period', 'weekly', '--inactive', '--json']);
  assert.equal(card.code, 0, card.stderr);
  const id = card.json().id;
  assert.equal((await ctl(['fleet-cards', 'status', id, 'active', '--json'])).code, 0);
  assert.equal((await ctl(['fleet-cards', 'top-up', id, '--amount', '2500', '--json'])).code, 0);
  const spend = await cli.run(['fleet-cards', 'redeem', '--card', id, '--category', 'tolls', '--amount', '2000', '--json', '--base-url', cli.emu.baseUrl, '--api-key', KEYS.acmeTest]);
  assert.equal(spend.code, 0, spend.stderr);
  assert.ok((await ctl(['fleet-cards', 'list', '--json'])).stdout.includes(id));
  assert.equal((await ctl(['fleet-cards', 'status', id, 'paused'])).code, 2);
});

test('payout-provider queue makes the next payout fail; show reads the queue; a bad outcome is a usage error', async () => {
  const queued = await ctl(['payout-provider', 'queue', 'failed', '--json']);
  assert.equal(queued.code, 0, queued.stderr);
  assert.deepEqual(queued.json().queued_outcomes, ['failed']);
  assert.deepEqual((await ctl(['payout-provider', 'show', '--json'])).json(), await control('/payouts/provider'));

  const created = await cli.emu.request('POST', '/v1/api/payouts', {
    idempotencyKey: `po-${Date.now()}`,
    body: { payee_id: 'payee_ada', amount_cents: 1000, currency: 'USD' },
  });
  assert.equal(created.status, 201, created.text);
  await cli.emu.services.scheduler.advance(60_000);
  const read = await cli.emu.request('GET', `/v1/api/payouts/${created.json.data.id}`);
  assert.equal(read.json.data.status, 'failed');
  assert.deepEqual((await ctl(['payout-provider', 'show', '--json'])).json().queued_outcomes, []);

  const human = await ctl(['payout-provider', 'show']);
  assert.match(human.stdout, /default outcome\s+completed/);
  assert.equal((await ctl(['payout-provider', 'queue', 'maybe'])).code, 2);
});
