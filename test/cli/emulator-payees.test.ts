import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession } from './cli.js';

// `svc emulator payees …` (in-process), checked against the control API and then
// used by `payouts create`. The merchant comes from the key.

const cli = cliSession();
const { ctl, control } = cli;

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
  const payout = await cli.run(['payouts', 'create', '--payee', payee.id, '--amount', '5000', '--currency', 'USD', '--json', '--base-url', cli.emu.baseUrl, '--api-key', KEYS.acmeTest]);
  assert.equal(payout.code, 0, payout.stderr);
  assert.equal((await ctl(['payees', 'revoke', payee.id, '--json'])).json().status, 'revoked');
  const list = await ctl(['payees', 'list', '--json']);
  assert.deepEqual(list.json(), await control('/payees?merchant_id=mer_acme&environment=test'));
  const globex = await ctl(['payees', 'list', '--json'], KEYS.globexTest);
  assert.deepEqual(globex.json().payees, []);
});
