import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession, familySmokeTest } from './cli.js';

// `svc emulator …` read and clock commands (in-process): status, keys (masked),
// users, metrics, clock, events, deliveries, the OTP inbox. Dashboard actions: emulator-dashboard.

const cli = cliSession();
const { ctl, control } = cli;

test('status, keys (masked for people, exact under --json), users, metrics', async () => {
  const status = await ctl(['status'], undefined, familySmokeTest);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^\[EMULATOR\] Emulator at http/);
  const keys = await ctl(['keys']);
  assert.match(keys.stdout, /acme-live\s+svc_live_…0001\s+live\s+mer_acme\s+all/);
  for (const k of Object.values(KEYS)) assert.ok(!keys.stdout.includes(k), 'no full key on a human screen');
  assert.deepEqual((await ctl(['keys', '--json'])).json(), await control('/keys'));
  assert.deepEqual((await ctl(['users', '--json'])).json(), await control('/users'));
  const users = await ctl(['users']);
  assert.match(users.stdout, /NAME\s+PHONE\s+BUSINESS\s+TEST BALANCE\s+LIVE BALANCE/);
  const first = (await control('/users')).users[0];
  const [currency, amount] = Object.entries(first.wallets.test as Record<string, number>)[0];
  assert.match(users.stdout, new RegExp(`${first.phone.replace('+', '\\+')}.*${(amount / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',').replace('.', '\\.')} ${currency}`), users.stdout);
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
  assert.equal(bad.code, 2, 'refused locally, before a request');
  assert.match(bad.stderr, /clock advance: not a duration: "soon"/);
  // Neither or both of a duration and --to-next-delivery: a usage error, nothing sent.
  assert.equal((await ctl(['clock', 'advance'])).code, 2);
  const both = await ctl(['clock', 'advance', '1s', '--to-next-delivery']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /either a duration .* or --to-next-delivery/);
});

test('clock advance --to-next-delivery moves to the next due webhook attempt, or nowhere when none waits', async () => {
  const clockNow = async () => Date.parse((await control('/clock')).now);
  const none = await ctl(['clock', 'advance', '--to-next-delivery']);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /No webhook attempt is waiting; the clock did not move/);
  // A subscribed endpoint (nothing listens there: the attempt fails, which is fine here).
  const ep = await cli.emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] } });
  const link = await cli.emu.request('POST', '/v1/api/payment-links', { body: { title: 'next', amount: 100 }, idempotencyKey: 'cli-ctl-next' });
  await cli.emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed' } });
  const before = await clockNow();
  const moved = await ctl(['clock', 'advance', '--to-next-delivery']);
  assert.equal(moved.code, 0, moved.stderr);
  assert.match(moved.stdout, /Clock advanced by 1000 ms to the next webhook attempt/);
  assert.match(moved.stdout, /deliveries\s+dlv_/);
  assert.equal((await clockNow()) - before, 1_000);
  await cli.emu.request('DELETE', `/v1/api/webhook-endpoints/${ep.json.data.endpoint.id}`);
});

test('events (filtered by type, scoped to the key), deliveries show, otp for a phone with none', async () => {
  const link = await cli.emu.request('POST', '/v1/api/payment-links', { body: { title: 'ev', amount: 100 }, idempotencyKey: 'cli-ctl-ev' });
  await cli.emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'failed' } });
  const events = await ctl(['events', '--type', 'payment.failed', '--json']);
  assert.equal(events.code, 0, events.stderr);
  assert.ok(events.json().events.length >= 1);
  assert.ok(events.json().events.every((e: { type: string; merchant_id: string }) => e.type === 'payment.failed' && e.merchant_id === 'mer_acme'));
  const human = await ctl(['events', '--type', 'payment.failed']);
  assert.match(human.stdout, /ID\s+TYPE\s+ENV\s+PAYMENT\s+AMOUNT\s+CREATED/);
  assert.match(human.stdout, /1\.00 USD/, 'amounts with their currency');
  // Newest first, cut at --limit (the control API itself lists oldest first).
  for (let i = 0; i < 2; i++) await cli.emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'failed' } });
  const all = (await control('/events?merchant_id=mer_acme&environment=test&type=payment.failed')).events as { id: string }[];
  assert.ok(all.length >= 3);
  const limited = await ctl(['events', '--type', 'payment.failed', '--limit', '2', '--json']);
  assert.deepEqual(
    limited.json().events.map((e: { id: string }) => e.id),
    [all.at(-1)!.id, all.at(-2)!.id],
  );
  const humanLimited = await ctl(['events', '--type', 'payment.failed', '--limit', '2']);
  assert.match(humanLimited.stdout, new RegExp(`Events, newest first \\(2 of ${all.length}\\)\n.*\n\\s+${all.at(-1)!.id}`));
  assert.equal((await ctl(['events', '--limit', '0'])).code, 2);
  const missing = await ctl(['deliveries', 'show', 'dlv_missing']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /NOT_FOUND/);
  const otp = await ctl(['otp', '+231880000203', '--json']);
  assert.deepEqual(otp.json(), { messages: [] });
});
