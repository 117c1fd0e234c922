import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession, familySmokeTest } from './cli.js';

// mandates create|get|revoke and charges create (in-process), and the live-key
// confirmation of every money-moving command.

const cli = cliSession();
const { svc } = cli;

test('mandates create/get/revoke and charges create (completed, failed = exit 0, --fail-on-failed = exit 1)', async () => {
  const created = await svc(['mandates', 'create', '--rail', 'card', '--customer-ref', 'cus_42', '--currency', 'USD', '--max-amount', '5000', '--json'], undefined, familySmokeTest);
  assert.equal(created.code, 0, created.stderr);
  const { mandate } = created.json();
  assert.equal(mandate.status, 'active');
  assert.deepEqual((await svc(['mandates', 'get', mandate.id, '--json'])).json(), (await cli.emu.request('GET', `/v1/api/mandates/${mandate.id}`)).json.data);

  const charge = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '1500', '--currency', 'USD', '--idempotency-key', 'cycle-2026-11', '--json'], undefined, familySmokeTest);
  assert.equal(charge.code, 0, charge.stderr);
  const payment = charge.json();
  assert.equal(payment.status, 'completed');
  assert.equal(payment.mandate_id, mandate.id);
  assert.equal(payment.idempotency_key, 'cycle-2026-11', 'the key is the body cycle key too');
  const again = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '1500', '--currency', 'USD', '--idempotency-key', 'cycle-2026-11', '--json']);
  assert.deepEqual(again.json(), payment, 'a retried cycle returns the original charge');

  const declined = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '100', '--currency', 'USD', '--outcome', 'failed']);
  assert.equal(declined.code, 0);
  assert.match(declined.stdout, /^\[TEST\] Charge failed/);
  const strict = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '100', '--currency', 'USD', '--outcome', 'failed', '--fail-on-failed', '--json']);
  assert.equal(strict.code, 1);
  assert.equal(strict.json().status, 'failed');

  const over = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '6000', '--currency', 'USD']);
  assert.equal(over.code, 1);
  assert.match(over.stderr, /VALIDATION_ERROR \(HTTP 422\)/);

  const revoked = await svc(['mandates', 'revoke', mandate.id, '--json']);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal(revoked.json().status, 'revoked');
});

test('--idempotency-key may hold any Unicode: the charge carries it as its cycle key, a retry returns the same payment; a revoke takes one too', async () => {
  // Body keys are any Unicode text (issue 27). The header carries the same key as UTF-8 bytes,
  // so characters beyond U+00FF (which a header string cannot hold) travel too.
  const created = await svc(['mandates', 'create', '--rail', 'card', '--customer-ref', 'cus_unicode', '--currency', 'USD', '--max-amount', '5000', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const { mandate } = created.json();
  const key = `café 42 — €${process.pid}`;
  const first = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '700', '--currency', 'USD', '--idempotency-key', key, '--json']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.json().idempotency_key, key);
  const again = await svc(['charges', 'create', '--mandate', mandate.id, '--amount', '700', '--currency', 'USD', '--idempotency-key', key, '--json', '--verbose']);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(again.json(), first.json());
  // A request without a body (DELETE) carries the key the same way.
  const revoked = await svc(['mandates', 'revoke', mandate.id, '--idempotency-key', `révoque ✓ ${process.pid}`, '--json']);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal(revoked.json().status, 'revoked');
});

test('a live key: money-moving commands are refused without a terminal (exit 2, nothing sent) and run with --yes', async () => {
  const before = (await cli.emu.request('GET', '/v1/api/payouts', { key: KEYS.acmeLive })).json.data.total;
  for (const args of [
    ['payouts', 'create', '--payee', 'payee_live_ada', '--amount', '100', '--currency', 'USD'],
    ['charges', 'create', '--mandate', 'mdt_x', '--amount', '100', '--currency', 'USD'],
    ['gift-cards', 'redeem', '--wallet', 'mw_live_ada_usd', '--amount', '100'],
    ['fleet-cards', 'redeem', '--card', 'fc_live_truck_01', '--category', 'fuel', '--amount', '100'],
  ]) {
    const r = await svc(args, KEYS.acmeLive);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /refusing to .* on http:\/\/127\.0\.0\.1:\d+ with a LIVE key without confirmation: pass --yes/, 'the host is named');
  }
  assert.equal((await cli.emu.request('GET', '/v1/api/payouts', { key: KEYS.acmeLive })).json.data.total, before, 'nothing was sent');
  const yes = await svc(['gift-cards', 'redeem', '--wallet', 'mw_live_ada_usd', '--amount', '100', '--yes'], KEYS.acmeLive);
  assert.equal(yes.code, 0, yes.stderr);
  assert.match(yes.stdout, new RegExp(`^\\[LIVE ${cli.emu.baseUrl.replace(/[.]/g, '\\.')}\\] Gift card redeemed`), 'live output names its host');
});

test('emulator mandates approve-card prints a sentence (and --json the mandate)', async () => {
  const created = await svc(['mandates', 'create', '--rail', 'card', '--customer-ref', 'cus_live_1', '--currency', 'USD', '--max-amount', '2500', '--json'], KEYS.acmeLive);
  assert.equal(created.code, 0, created.stderr);
  const { mandate } = created.json();
  assert.equal(mandate.status, 'pending');
  const r = await cli.ctl(['mandates', 'approve-card', mandate.id]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `[EMULATOR] visa card ending 4242 saved: mandate ${mandate.id} is active, for charges of up to 25.00 USD each.\n`);
});
