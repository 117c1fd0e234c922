import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { deliveriesIdle } from '../../emulator/webhooks/module.js';

// Delivery and provider faults with a real listening receiver, on the manual clock: nothing
// here waits on wall time; each wait is for a count of requests the receiver has seen.

interface Receiver {
  url: string;
  seen: Array<{ delivery: string; event: string }>;
  /** Resolves once the receiver has seen `n` requests in all. */
  until(n: number): Promise<void>;
}

async function receiver(t: { after(fn: () => unknown): void }): Promise<Receiver> {
  const seen: Receiver['seen'] = [];
  const waiters: Array<[number, () => void]> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ delivery: String(req.headers['svc-delivery']), event: JSON.parse(body).data.payment.id });
      res.end('ok');
      for (const [n, ok] of waiters) if (seen.length >= n) ok();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.after(() => new Promise((ok) => server.close(ok)));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    until: (n) => (seen.length >= n ? Promise.resolve() : new Promise((ok) => waiters.push([n, ok]))),
  };
}

async function setup(t: { after(fn: () => unknown): void }) {
  const emu = await startTestEmulator();
  t.after(() => emu.stop());
  const rx = await receiver(t);
  const ep = await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: rx.url, events: ['payment.completed'] }, idempotencyKey: randomUUID() });
  assert.equal(ep.status, 201, ep.text);
  return { emu, rx };
}

const fault = async (emu: TestEmulator, body: object) => assert.equal((await emu.request('POST', '/_emulator/faults', { key: null, body })).status, 201);
const advance = (emu: TestEmulator, by: string) => emu.request('POST', '/_emulator/clock/advance', { key: null, body: { by } });
const toNextDelivery = (emu: TestEmulator) => emu.request('POST', '/_emulator/clock/advance-to-next-delivery', { key: null });

async function pay(emu: TestEmulator): Promise<string> {
  const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'x', amount: 100, currency: 'USD' }, idempotencyKey: randomUUID() });
  const payment = await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: {} });
  assert.equal(payment.status, 201);
  return payment.json.data.id;
}

const deliveryOf = async (emu: TestEmulator, id: string) => (await emu.request('GET', `/_emulator/deliveries/${id}`, { key: null })).json.data;

test('duplicate: each delivery arrives twice with one Svc-Delivery; a deduping receiver counts each event once, a naive one twice', async (t) => {
  const { emu, rx } = await setup(t);
  await fault(emu, { deliveries: {}, kind: 'duplicate' });
  const payments = [await pay(emu), await pay(emu), await pay(emu)];
  await toNextDelivery(emu);
  await rx.until(6);
  assert.equal(rx.seen.length, 6, 'a receiver that does not dedupe double-counts');
  const deduped = new Map(rx.seen.map((s) => [s.delivery, s.event]));
  assert.equal(deduped.size, 3);
  assert.deepEqual([...new Set(deduped.values())].sort(), [...payments].sort(), 'deduped on Svc-Delivery: each event once');
  for (const id of deduped.keys()) {
    const d = await deliveryOf(emu, id);
    assert.equal(d.attempts.length, 1, 'the copy is not a second attempt');
  }
  assert.equal((await emu.request('GET', '/_emulator/faults/log', { key: null })).json.data.entries.filter((e: { kind: string }) => e.kind === 'duplicate').length, 3);
});

test('drop: the attempt is lost, counted as failed, and the retry on the schedule delivers it', async (t) => {
  const { emu, rx } = await setup(t);
  await fault(emu, { deliveries: { event_type: 'payment.completed' }, kind: 'drop', times: 1 });
  await pay(emu);
  await toNextDelivery(emu);
  const deliveries = (await emu.request('GET', '/_emulator/faults/log', { key: null })).json.data.entries;
  const id = deliveries[0].target.replace('delivery ', '');
  // The drop is recorded as a failed attempt once the engine writes it: wait for that.
  await deliveriesIdle(emu.services);
  const d = await deliveryOf(emu, id);
  assert.equal(d.status, 'failed');
  assert.match(d.attempts[0].error, /dropped by injected fault/);
  assert.equal(rx.seen.length, 0);
  const next = await toNextDelivery(emu);
  assert.equal(next.json.data.advanced_ms, 5000, 'the spec schedule: the 2nd attempt 5 s after the 1st');
  await rx.until(1);
  assert.equal(rx.seen[0].delivery, id);
});

test('delay and reorder run on the emulator clock; reordered deliveries arrive in another order, each once', async (t) => {
  const { emu, rx } = await setup(t);
  await fault(emu, { deliveries: {}, kind: 'delay', latency: '30s', times: 1 });
  const first = await pay(emu);
  await toNextDelivery(emu);
  assert.equal(rx.seen.length, 0, 'held 30 s of emulator time');
  await advance(emu, '30s');
  await rx.until(1);
  assert.equal(rx.seen[0].event, first);

  await fault(emu, { deliveries: {}, kind: 'reorder', latency: '10s', seed: 11 });
  const made = [await pay(emu), await pay(emu), await pay(emu), await pay(emu), await pay(emu)];
  await toNextDelivery(emu);
  await advance(emu, '10s');
  await rx.until(6);
  const arrived = rx.seen.slice(1).map((s) => s.event);
  assert.deepEqual([...arrived].sort(), [...made].sort(), 'each once');
  assert.notDeepEqual(arrived, made, 'not in the order they were made');
});

test('provider down: a payout stays processing through the outage, then completes; the fault log says why', async (t) => {
  const emu = await startTestEmulator();
  t.after(() => emu.stop());
  await fault(emu, { provider: 'payouts', kind: 'down', for: '1h' });
  const created = await emu.request('POST', '/v1/api/payouts', { body: { payee_id: 'payee_ada', amount_cents: 1000, currency: 'USD' }, idempotencyKey: randomUUID() });
  assert.equal(created.status, 201, created.text);
  const id = created.json.data.id;
  await advance(emu, '10s');
  assert.equal((await emu.request('GET', `/v1/api/payouts/${id}`)).json.data.status, 'processing');
  const log = (await emu.request('GET', '/_emulator/faults/log', { key: null })).json.data.entries;
  assert.deepEqual(log.map((e: { kind: string; target: string }) => [e.kind, e.target]), [['down', `payouts payout ${id}`]]);
  await advance(emu, '1h');
  assert.equal((await emu.request('GET', `/v1/api/payouts/${id}`)).json.data.status, 'completed');
});
