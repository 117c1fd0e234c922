import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startEmulator, type TestEmulator } from '../../src/testing/index.js';

// The testing API (svc-toolkit/testing) through what a merchant's test sees: HTTP to the
// emulator it started in-process, the handle's methods, and a real receiver for webhooks.

const ACME_TEST = 'acme-test';

async function api(emu: TestEmulator, method: string, path: string, body?: unknown, key = emu.key(ACME_TEST)) {
  const res = await fetch(emu.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...(method === 'POST' && { 'x-idempotency-key': randomUUID() }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

const link = (emu: TestEmulator, title = 'Beans') => api(emu, 'POST', '/v1/api/payment-links', { title, amount: 1200, currency: 'USD' });

test('startEmulator: a memory-store emulator on a free port, with the fixtures keys by name', async (t) => {
  const emu = await startEmulator();
  t.after(() => emu.close());
  assert.equal(emu.dataDir, null);
  assert.match(emu.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(emu.checkoutUrl, `${emu.baseUrl}/checkout`);
  assert.ok(emu.keys.some((k) => k.name === ACME_TEST && k.environment === 'test'));
  assert.match(emu.key(ACME_TEST), /^svc_test_/);
  assert.throws(() => emu.key('nope'), /no key named "nope"; the emulator has: .*acme-test/);
  const created = await link(emu);
  assert.equal(created.status, 201);
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${created.json.data.id}`)).status, 200);
});

test('reset: every record back to the fixtures, same port and keys; snapshots are values', async (t) => {
  const emu = await startEmulator();
  t.after(() => emu.close());
  const before = await link(emu, 'before');
  const snap = emu.snapshot();
  const after = await link(emu, 'after');

  await emu.restore(snap);
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${before.json.data.id}`)).status, 200);
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${after.json.data.id}`)).status, 404);

  // Editing the value a snapshot gave must not change the snapshot, nor the world.
  for (const list of Object.values(snap.collections)) list.length = 0;
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${before.json.data.id}`)).status, 200);

  const baseUrl = emu.baseUrl;
  await emu.reset();
  assert.equal(emu.baseUrl, baseUrl);
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${before.json.data.id}`)).status, 404);
  assert.equal(emu.snapshot().collections.payment_links, undefined, 'no link is left');
  assert.ok(emu.snapshot().collections.api_keys.length >= 5, 'the fixtures are back');
  assert.equal((await link(emu)).status, 201, 'the same key works after a reset');
});

test('restore refuses a malformed snapshot and leaves the world as it was', async (t) => {
  const emu = await startEmulator();
  t.after(() => emu.close());
  const kept = await link(emu);
  await assert.rejects(emu.restore({ svc_snapshot: 1, taken_at: 'x', collections: { payment_links: [{ title: 'no id' }] } } as any), /Not an svc snapshot: collections\.payment_links\.0\.id/);
  await assert.rejects(emu.restore({ nope: true } as any), /Not an svc snapshot/);
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${kept.json.data.id}`)).status, 200);
});

test('waitForEvent and waitForDelivery follow the store, and the manual clock drives the attempt', async (t) => {
  const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  t.after(() => receiver.close());
  const emu = await startEmulator({ clock: 'manual', rateLimit: 'off' });
  t.after(() => emu.close());

  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  assert.equal((await api(emu, 'POST', '/v1/api/webhook-endpoints', { url, events: ['payment.completed'] })).status, 201);
  const created = await link(emu);
  assert.equal((await api(emu, 'POST', `/v1/api/payment-links/${created.json.data.id}/simulate`, { outcome: 'completed' })).status, 201);

  const event = await emu.waitForEvent((e) => e.type === 'payment.completed');
  assert.equal(event.type, 'payment.completed');
  // The first attempt waits 1 s of emulator time (spec schedule): nothing is sent until then.
  assert.equal(received.length, 0);
  const succeeded = emu.waitForDelivery((d) => d.event_id === event.id && d.status === 'succeeded');
  assert.equal(await emu.clock.advanceToNextDelivery(), 1000);
  const delivery = await succeeded;
  assert.equal(received.length, 1);
  assert.equal(received[0].headers['svc-delivery'], delivery.id);
  assert.equal(received[0].body, event.body, 'the event, byte for byte');
  assert.equal(JSON.parse(received[0].body).type, 'payment.completed');
});

test('reset drops the old world’s webhook retries: nothing of it is sent afterwards', async (t) => {
  let hits = 0;
  const receiver = createServer((_req, res) => {
    hits++;
    res.statusCode = 500;
    res.end();
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  t.after(() => receiver.close());
  const emu = await startEmulator({ clock: 'manual', rateLimit: 'off' });
  t.after(() => emu.close());
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await api(emu, 'POST', '/v1/api/webhook-endpoints', { url, events: ['payment.completed'] });
  const created = await link(emu);
  await api(emu, 'POST', `/v1/api/payment-links/${created.json.data.id}/simulate`, { outcome: 'completed' });
  const failed = emu.waitForDelivery((d) => d.status === 'failed' && d.attempts.length === 1);
  await emu.clock.advanceToNextDelivery();
  await failed;
  assert.equal(hits, 1);
  assert.ok((await emu.control.clock()).data.pending_timers >= 1, 'the retry waits on the clock');

  await emu.reset();
  assert.equal((await emu.control.clock()).data.pending_timers, 0);
  assert.equal(await emu.clock.advanceToNextDelivery(), 0, 'no attempt of the old world is due any more');
  await emu.clock.advance('10h');
  assert.equal(hits, 1);
});

test('waitForEvent gives up with a message once its timeout passes; close twice is fine', async () => {
  const emu = await startEmulator();
  await assert.rejects(emu.waitForEvent(() => false, { timeout: 50 }), /no event matched within 50 ms/);
  await emu.close();
  await emu.close();
  await assert.rejects(fetch(`${emu.baseUrl}/_emulator/health`));
});

test('a busy port is an error naming the port, and leaves nothing running', async (t) => {
  const first = await startEmulator();
  t.after(() => first.close());
  const port = Number(new URL(first.baseUrl).port);
  await assert.rejects(startEmulator({ port }), new RegExp(`port ${port} is already in use`));
});

test('dataDir: the world survives a restart on the same folder; reset goes back to the fixtures there too', async (t) => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'svc-testing-'));
  let emu = await startEmulator({ dataDir: dir });
  const kept = await link(emu);
  await emu.close();
  emu = await startEmulator({ dataDir: dir });
  // Closed before the folder goes (after-hooks run in order).
  t.after(() => emu.close());
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(emu.dataDir, dir);
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${kept.json.data.id}`)).status, 200);
  await emu.reset();
  assert.equal((await api(emu, 'GET', `/v1/api/payment-links/${kept.json.data.id}`)).status, 404);
  assert.equal((await link(emu)).status, 201);
});

test('control: the typed control client reaches the dashboard side (payees, wallets, users) of the same world', async (t) => {
  const emu = await startEmulator();
  t.after(() => emu.close());
  const payees = (await emu.control.payees({ merchant_id: 'mer_acme', environment: 'test' })).data.payees;
  assert.ok(payees.some((p) => p.id === 'payee_ada' && p.status === 'approved'));
  const added = (await emu.control.addPayee({ merchant_id: 'mer_acme', environment: 'test', name: 'New Supplier', currency: 'USD', per_payout_cap: 1000, daily_cap: 2000 })).data;
  assert.equal(added.status, 'pending_approval');
  assert.equal((await emu.control.approvePayee(added.id, '1357')).data.status, 'approved');
  const before = (await emu.control.wallets({ merchant_id: 'mer_acme', environment: 'test' })).data.wallets.find((w) => w.currency === 'USD')!.balance;
  await emu.control.topUpWallet({ merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 500 });
  const after = (await emu.control.wallets({ merchant_id: 'mer_acme', environment: 'test' })).data.wallets.find((w) => w.currency === 'USD')!.balance;
  assert.equal(after - before, 500);
  assert.ok((await emu.control.users()).data.users.some((u) => u.phone === '+231770000201'));
  await emu.reset();
  assert.equal((await emu.control.payees({ merchant_id: 'mer_acme', environment: 'test' })).data.payees.some((p) => p.id === added.id), false);
});

test('faults: the testing API adds, logs and clears them; a bad one is refused naming the field; reset clears them', async (t) => {
  const emu = await startEmulator();
  t.after(() => emu.close());
  const fault = await emu.faults.add({ route: 'POST /v1/api/payment-links', kind: 'status', status: 502, after_commit: true, times: 1 });
  const lost = await link(emu);
  assert.equal(lost.status, 502);
  assert.equal(emu.snapshot().collections.payment_links.length, 1, 'kept although the answer was lost');
  assert.deepEqual((await emu.faults.log()).map((e) => [e.fault_id, e.after_commit]), [[fault.id, true]]);
  await assert.rejects(emu.faults.add({ route: 'nope', kind: 'reset' }), /route: must be "<METHOD> <path>"/);
  await emu.faults.add({ route: '* /v1/*', kind: 'status', status: 503 });
  assert.equal((await link(emu)).status, 503);
  await emu.reset();
  assert.deepEqual(await emu.faults.list(), []);
  assert.equal((await link(emu)).status, 201);
  assert.equal((await emu.faults.apply('provider-outage')).length, 2);
  await emu.faults.clear();
  assert.deepEqual(await emu.faults.list(), []);
});

test('idle(): after a clock advance, resolves once the due attempts are sent and recorded — no polling, no sleeps', async (t) => {
  let hits = 0;
  const receiver = createServer((_req, res) => {
    hits++;
    res.statusCode = 500;
    res.end('no');
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  t.after(() => receiver.close());
  const emu = await startEmulator({ clock: 'manual', rateLimit: 'off' });
  t.after(() => emu.close());
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const ep = await api(emu, 'POST', '/v1/api/webhook-endpoints', { url, events: ['payment.completed'] });
  for (let i = 0; i < 3; i++) {
    const l = await link(emu);
    await api(emu, 'POST', `/v1/api/payment-links/${l.json.data.id}/simulate`, {});
  }
  await emu.idle();
  assert.equal(hits, 0, 'nothing is due before the first 1 s of emulator time');
  await emu.clock.advance('1s');
  await emu.idle();
  assert.equal(hits, 3);
  const rows = (await emu.control.endpointDeliveries(ep.json.data.endpoint.id)).data.deliveries;
  assert.deepEqual(rows.map((d) => [d.status, d.attempt_count]), [['failed', 1], ['failed', 1], ['failed', 1]]);
  await emu.clock.advance('5s');
  await emu.idle();
  assert.equal(hits, 6, 'the second attempts, 5 s later on the schedule');
});

test('close() does not wait for ever on requests a fault holds (a hang; a latency on a manual clock)', async () => {
  const emu = await startEmulator({ clock: 'manual' });
  await emu.faults.add({ route: 'GET /v1/api/payments', kind: 'hang', times: 1 });
  await emu.faults.add({ route: 'POST /v1/api/payment-links', kind: 'latency', latency: '1h', times: 1 });
  const hung = fetch(`${emu.baseUrl}/v1/api/payments`, { headers: { authorization: `Bearer ${emu.key(ACME_TEST)}` } });
  const slow = link(emu);
  // Both are held once both faults have fired.
  while ((await emu.faults.log()).length < 2) await new Promise((r) => setImmediate(r));
  await emu.close();
  await assert.rejects(hung, /fetch failed/);
  assert.equal((await slow).status, 201, 'the held request is let go and answered while the server drains');
});
