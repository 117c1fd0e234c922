import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { control, createEndpoint, simulatePayment, startReceiver } from '../webhooks/receiver.js';
import { payLiveMomo } from './momo.js';

// One clock advance runs everything due in its window in time order, each item with the clock
// at its own due time, and answers once all of it (webhook attempts on the wire included) is
// done. A real emulator (manual clock) and real receivers on 127.0.0.1; every assertion reads
// what the control API or /v1 recorded once the advance has answered: no wait on wall time.

const T0 = Date.parse('2026-07-01T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z'); // the one format: 6 fraction digits
/** A creation stamp's millisecond (stamps made in one ms count on in microseconds). */
const msOf = (stamp: string) => Date.parse(`${stamp.slice(0, 23)}Z`);
const S = 1_000;
const M = 60 * S;
const H = 60 * M;

async function advance(emu: TestEmulator, body: { by?: string; ms?: number }) {
  const res = await control(emu, 'POST', '/clock/advance', body);
  assert.equal(res.status, 200, JSON.stringify(res.error));
  return res.data as { now: string; pending_timers: number };
}

async function deliveryOf(emu: TestEmulator, paymentId: string) {
  const events = (await control(emu, 'GET', '/events?type=payment.completed')).data.events as Array<{ id: string; body: string; created_at: string }>;
  const event = events.find((e) => JSON.parse(e.body).data.payment.id === paymentId);
  assert.ok(event, `the payment.completed event of ${paymentId}`);
  const [d] = (await control(emu, 'GET', `/events/${event.id}/deliveries`)).data.deliveries;
  return { event, delivery: (await control(emu, 'GET', `/deliveries/${d.id}`)).data };
}

test('a 2 h advance against a receiver that answers 500 makes the six attempts due in it, each logged at its scheduled time', async () => {
  const emu = await startTestEmulator({ clockStart: T0 });
  const rx = await startReceiver();
  rx.behave({ status: 500, body: 'down for maintenance' });
  try {
    await createEndpoint(emu, rx.url, ['payment.completed']);
    const paymentId = await simulatePayment(emu);
    const clock = await advance(emu, { by: '2h' });
    assert.equal(clock.now, iso(T0 + 2 * H), 'the advance ends at its end');

    const { event, delivery } = await deliveryOf(emu, paymentId);
    assert.equal(msOf(event.created_at), T0, 'the event was made before the advance');
    // The spec's waits (1 s, then 5 s, 25 s, 2 m, 10 m, 1 h after each failure; docs/spec-gaps.md
    // row 45), each counted from the failure before it, which the advance recorded at its time.
    const offsets = [1 * S, 6 * S, 31 * S, 2 * M + 31 * S, 12 * M + 31 * S, 1 * H + 12 * M + 31 * S];
    assert.deepEqual(
      delivery.attempts.map((a: { at: string }) => a.at),
      offsets.map((o) => iso(T0 + o)),
    );
    assert.deepEqual(delivery.attempts.map((a: { status_code: number }) => a.status_code), [500, 500, 500, 500, 500, 500]);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.next_attempt_at, iso(T0 + 7 * H + 12 * M + 31 * S), 'the 7th attempt: 6 h after the 6th');
    assert.equal(rx.received.length, 6, 'six requests reached the receiver, all before the advance answered');
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('a receiver that never answers holds each attempt for the webhook timeout (wall time), not for ever; each is a timeout at its own time', async () => {
  const emu = await startTestEmulator({ clockStart: T0, config: { webhookTimeoutMs: 150 } });
  const rx = await startReceiver();
  rx.behave('hang');
  try {
    await createEndpoint(emu, rx.url, ['payment.completed']);
    const paymentId = await simulatePayment(emu);
    await advance(emu, { by: '10s' });
    const { delivery } = await deliveryOf(emu, paymentId);
    assert.deepEqual(delivery.attempts.map((a: { at: string }) => a.at), [iso(T0 + S), iso(T0 + 6 * S)]);
    for (const a of delivery.attempts) assert.match(a.error, /timeout: no response within 150 ms/);
    assert.equal(delivery.next_attempt_at, iso(T0 + 31 * S), 'the retry counts from the timed-out attempt, with the clock frozen at its time');
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('a MoMo payment cleared during an advance is cleared at its own due time, and its webhook goes out 1 s after', async () => {
  const emu = await startTestEmulator({ clockStart: T0, config: { momoClearMs: 90 * S } });
  const rx = await startReceiver();
  try {
    await createEndpoint(emu, rx.url, ['payment.completed'], KEYS.acmeLive);
    await advance(emu, { by: '10s' });
    const { paymentId } = await payLiveMomo(emu);
    const pending = await emu.request('GET', `/v1/api/payments/${paymentId}`, { key: KEYS.acmeLive });
    assert.equal(pending.json.data.status, 'pending');
    assert.equal(msOf(pending.json.data.created_at), T0 + 10 * S);

    await advance(emu, { by: '2h' });
    assert.equal((await emu.request('GET', `/v1/api/payments/${paymentId}`, { key: KEYS.acmeLive })).json.data.status, 'completed');
    const events = (await control(emu, 'GET', '/events?merchant_id=mer_acme&environment=live&type=payment.completed')).data.events;
    const event = events.find((e: { body: string }) => JSON.parse(e.body).data.payment.id === paymentId);
    assert.equal(msOf(event.created_at), T0 + 10 * S + 90 * S, 'cleared at created_at + --momo-delay, not at the end of the advance');
    const [d] = (await control(emu, 'GET', `/events/${event.id}/deliveries`)).data.deliveries;
    const delivery = (await control(emu, 'GET', `/deliveries/${d.id}`)).data;
    assert.deepEqual(delivery.attempts.map((a: { at: string }) => a.at), [iso(T0 + 101 * S)]);
    assert.equal(delivery.status, 'succeeded');
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('a payout resolves at its resolves_at_ms inside an advance; work due at different times runs in time order', async () => {
  const emu = await startTestEmulator({ clockStart: T0, config: { payoutResolveMs: 90 * S, momoClearMs: 45 * S } });
  try {
    const created = await emu.request('POST', '/v1/api/payouts', { idempotencyKey: idem('po'), body: { payee_id: 'payee_ada', amount_cents: 1000, currency: 'USD' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.status, 'processing');
    await advance(emu, { by: '30s' });
    const { paymentId } = await payLiveMomo(emu); // made at +30 s, clears at +75 s: before the payout's +90 s
    await advance(emu, { by: '1h' });
    const payout = (await emu.request('GET', `/v1/api/payouts/${created.json.data.id}`)).json.data;
    assert.equal(payout.status, 'completed');
    assert.equal(msOf(payout.resolved_at), T0 + 90 * S);
    const events = (await control(emu, 'GET', '/events?merchant_id=mer_acme&environment=live&type=payment.completed')).data.events;
    const cleared = events.find((e: { body: string }) => JSON.parse(e.body).data.payment.id === paymentId);
    assert.equal(msOf(cleared.created_at), T0 + 75 * S);
    assert.ok(cleared.created_at < payout.resolved_at, 'the earlier item ran first');
  } finally {
    await emu.stop();
  }
});
