import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { cliHome } from './cli.js';

// The dashboard side of `svc emulator …` through the built binary: payees, merchant wallets,
// gift-card wallets and fleet cards — each checked against the control API and then used by
// the merchant command that depends on it (payouts, redemptions). The merchant comes from the key.

let emu: TestEmulator;
const cli = cliHome();
const ctl = (args: string[], key: string = KEYS.acmeTest) => cli.run(['emulator', ...args, '--base-url', emu.baseUrl, '--api-key', key]);
const control = async (path: string) => (await emu.request('GET', `/_emulator${path}`, { key: null })).json.data;

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

test('payees add / approve --pin / caps / revoke / list, for the merchant of the key', async () => {
  const added = await ctl(['payees', 'add', '--name', 'Grace', '--currency', 'USD', '--per-payout-cap', '10000', '--daily-cap', '20000', '--json']);
  assert.equal(added.code, 0, added.stderr);
  const payee = added.json();
  assert.deepEqual([payee.merchant_id, payee.environment, payee.status], ['mer_acme', 'test', 'pending_approval']);
  const approved = await ctl(['payees', 'approve', payee.id, '--pin', '1357', '--json']);
  assert.equal(approved.json().status, 'approved');
  const lowered = await ctl(['payees', 'caps', payee.id, '--daily-cap', '15000', '--json']);
  assert.equal(lowered.json().daily_cap, 15000);
  const raised = await ctl(['payees', 'caps', payee.id, '--daily-cap', '90000']);
  assert.equal(raised.code, 1, 'raising a cap needs the PIN');
  assert.equal((await ctl(['payees', 'caps', payee.id, '--daily-cap', '90000', '--pin', '1357', '--json'])).json().daily_cap, 90000);
  const payout = await cli.run(['payouts', 'create', '--payee', payee.id, '--amount', '5000', '--currency', 'USD', '--json', '--base-url', emu.baseUrl, '--api-key', KEYS.acmeTest]);
  assert.equal(payout.code, 0, payout.stderr);
  assert.equal((await ctl(['payees', 'revoke', payee.id, '--json'])).json().status, 'revoked');
  const list = await ctl(['payees', 'list', '--json']);
  assert.deepEqual(list.json(), await control('/payees?merchant_id=mer_acme&environment=test'));
  const globex = await ctl(['payees', 'list', '--json'], KEYS.globexTest);
  assert.deepEqual(globex.json().payees, []);
});

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
  const redeem = await cli.run(['gift-cards', 'redeem', '--wallet', issued.json().id, '--amount', '1000', '--json', '--base-url', emu.baseUrl, '--api-key', KEYS.acmeTest]);
  assert.equal(redeem.code, 0, redeem.stderr);
  assert.equal(redeem.json().wallet.balance, 0);

  const card = await ctl(['fleet-cards', 'issue', '--currency', 'USD', '--categories', 'fuel,tolls', '--spend-limit', '5000', '--spend-period', 'weekly', '--inactive', '--json']);
  assert.equal(card.code, 0, card.stderr);
  const id = card.json().id;
  assert.equal((await ctl(['fleet-cards', 'status', id, 'active', '--json'])).code, 0);
  assert.equal((await ctl(['fleet-cards', 'top-up', id, '--amount', '2500', '--json'])).code, 0);
  const spend = await cli.run(['fleet-cards', 'redeem', '--card', id, '--category', 'tolls', '--amount', '2000', '--json', '--base-url', emu.baseUrl, '--api-key', KEYS.acmeTest]);
  assert.equal(spend.code, 0, spend.stderr);
  assert.ok((await ctl(['fleet-cards', 'list', '--json'])).stdout.includes(id));
  assert.equal((await ctl(['fleet-cards', 'status', id, 'paused'])).code, 2);
});
