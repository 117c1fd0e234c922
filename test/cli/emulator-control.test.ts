import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession } from './cli.js';

// `svc emulator …` read and clock commands through the built binary: status, keys (masked),
// users, metrics, clock, events, deliveries, the OTP inbox. Dashboard actions: emulator-dashboard.

const cli = cliSession();
const { ctl, control } = cli;

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

test('dashboard prints the URL of a running emulator, and fails when none answers', async () => {
  const out = await ctl(['dashboard', '--json']);
  assert.equal(out.code, 0, out.stderr);
  const { url } = out.json();
  assert.equal(url, `${cli.emu.baseUrl}/dashboard`);
  const page = await fetch(url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<h1>Events and deliveries<\/h1>/);
  assert.match((await ctl(['dashboard'])).stdout, /\/dashboard/);
  const down = await cli.run(['emulator', 'dashboard', '--base-url', 'http://127.0.0.1:9', '--api-key', KEYS.acmeTest]);
  assert.equal(down.code, 1, down.stderr);
  assert.doesNotMatch(down.stdout, /dashboard/);
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

test('events (filtered by type, scoped to the key), deliveries show, otp for a phone with none', async () => {
  const link = await cli.emu.request('POST', '/v1/api/payment-links', { body: { title: 'ev', amount: 100 }, idempotencyKey: 'cli-ctl-ev' });
  await cli.emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'failed' } });
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
