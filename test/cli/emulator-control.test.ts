import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { cliHome } from './cli.js';

// `svc emulator …` control commands through the built binary: keys (masked), clock, payees,
// wallets, cards, events, deliveries, status, users, metrics. The merchant comes from the key.

let emu: TestEmulator;
const cli = cliHome();
const ctl = (args: string[], key: string = KEYS.acmeTest) => cli.run(['emulator', ...args, '--base-url', emu.baseUrl, '--api-key', key]);
const control = async (path: string) => (await emu.request('GET', `/_emulator${path}`, { key: null })).json.data;

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

test('status, keys (masked for people, exact under --json), users, metrics', async () => {
  const status = await ctl(['status']);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^\[EMULATOR\] Emulator at http/);
  const keys = await ctl(['keys']);
  assert.match(keys.stdout, /acme-live\s+svc_live_…0001\s+live\s+mer_acme\s+all/);
  for (const k of Object.values(KEYS)) assert.ok(!keys.stdout.includes(k), 'no full key on a human screen');
  assert.deepEqual((await ctl(['keys', '--json'])).json(), await control('/keys'));
  assert.deepEqual((await ctl(['users', '--json'])).json(), await control('/users'));
  assert.equal((await ctl(['metrics', '--json'])).code, 0);
});

test('clock show / advance on a manual clock', async () => {
  const before = (await ctl(['clock', 'show', '--json'])).json();
  assert.equal(before.mode, 'manual');
  const after = await ctl(['clock', 'advance', '2h', '--json']);
  assert.equal(after.code, 0, after.stderr);
  assert.equal(Date.parse(after.json().now) - Date.parse(before.now), 2 * 3600 * 1000);
  const bad = await ctl(['clock', 'advance', 'soon']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /VALIDATION_ERROR/);
});

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

test('events (filtered by type, scoped to the key), deliveries show, otp for a phone with none', async () => {
  const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'ev', amount: 100 }, idempotencyKey: 'cli-ctl-ev' });
  await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'failed' } });
  const events = await ctl(['events', '--type', 'payment.failed', '--json']);
  assert.equal(events.code, 0, events.stderr);
  assert.ok(events.json().events.length >= 1);
  assert.ok(events.json().events.every((e: { type: string; merchant_id: string }) => e.type === 'payment.failed' && e.merchant_id === 'mer_acme'));
  const human = await ctl(['events', '--type', 'payment.failed']);
  assert.match(human.stdout, /ID\s+TYPE\s+ENV\s+PAYMENT\s+CREATED/);
  const missing = await ctl(['deliveries', 'show', 'dlv_missing']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /NOT_FOUND/);
  const otp = await ctl(['otp', '+231880000203', '--json']);
  assert.deepEqual(otp.json(), { messages: [] });
});
