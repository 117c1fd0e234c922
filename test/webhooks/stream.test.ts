import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { emitEvent } from '../../emulator/resources/events/outbox.js';
import { attemptsRecorded, createEndpoint, livePayment, simulatePayment, startReceiver, toNextDelivery } from './receiver.js';
import { openStream } from './sse.js';

// GET /emulator/stream: Server-Sent Events of a key's events and delivery attempts, with
// resume from a cursor. A real emulator, real receivers, a real HTTP stream.

const stream = (emu: TestEmulator, key: string, query = '', headers: Record<string, string> = {}) =>
  openStream(`${emu.baseUrl}/emulator/stream${query}`, { authorization: `Bearer ${key}`, ...headers });

/** A live-environment event: simulate is test-only, so it is appended to the outbox directly. */
function emitLiveEvent(emu: TestEmulator) {
  const s = emu.services;
  return s.store.transaction((tx) => emitEvent(s, tx, { merchantId: 'mer_acme', environment: 'live' }, 'payment.completed', { payment: livePayment('pay_live_probe') }));
}

test('the stream sends events and attempts of its key only, in cursor order', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  const acme = await stream(emu, KEYS.acmeTest);
  const globex = await stream(emu, KEYS.globexTest);
  const acmeLive = await stream(emu, KEYS.acmeLive);
  try {
    assert.equal(acme.status, 200);
    assert.match(acme.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(acme.headers.get('cache-control') ?? '', /no-cache/);
    assert.equal(acme.headers.get('content-encoding'), null);

    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    const [evt, att] = await acme.waitFor(2);
    const [sent] = await rx.waitFor(1);
    assert.equal(evt.event, 'event');
    assert.match(evt.data.id, /^evt_/);
    assert.equal(evt.data.type, 'payment.completed');
    assert.equal(evt.data.environment, 'test');
    assert.equal(evt.data.body, sent.body, 'the exact body every delivery sends');
    assert.equal(evt.data.created_at, JSON.parse(sent.body).createdAt);

    assert.equal(att.event, 'attempt');
    assert.deepEqual(Object.keys(att.data).sort(), ['at', 'attempt', 'delivery_id', 'delivery_status', 'endpoint_id', 'error', 'event_id', 'event_type', 'latency_ms', 'status_code'].sort());
    assert.equal(att.data.delivery_id, sent.headers['svc-delivery']);
    assert.equal(att.data.endpoint_id, ep.id);
    assert.equal(att.data.event_id, evt.data.id);
    assert.equal(att.data.event_type, 'payment.completed');
    assert.equal(att.data.attempt, 1);
    assert.equal(att.data.status_code, 200);
    assert.equal(att.data.error, null);
    assert.equal(att.data.delivery_status, 'succeeded');
    assert.ok(evt.id < att.id, 'cursors increase');

    // The other merchant's stream and the live stream saw none of that: their first message
    // is their own.
    await simulatePayment(emu, 'completed', KEYS.globexTest);
    const [g] = await globex.waitFor(1);
    assert.equal(g.event, 'event');
    assert.notEqual(g.data.id, evt.data.id);
    const live = emitLiveEvent(emu);
    const [l] = await acmeLive.waitFor(1);
    assert.equal(l.data.id, live.id);
    assert.equal(l.data.environment, 'live');
    assert.equal(acme.messages.length, 2, 'the test stream got neither the globex nor the live event');
  } finally {
    acme.close();
    globex.close();
    acmeLive.close();
    await rx.close();
    await emu.stop();
  }
});

test('?types= filters events and attempts by event type', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  const failedOnly = await stream(emu, KEYS.acmeTest, '?types=payment.failed');
  try {
    await createEndpoint(emu, rx.url, ['payment.completed', 'payment.failed']);
    await simulatePayment(emu, 'completed');
    await simulatePayment(emu, 'failed');
    await toNextDelivery(emu);
    const [a, b] = await failedOnly.waitFor(2);
    assert.deepEqual([a.event, a.data.type], ['event', 'payment.failed']);
    assert.deepEqual([b.event, b.data.event_type], ['attempt', 'payment.failed']);
  } finally {
    failedOnly.close();
    await rx.close();
    await emu.stop();
  }
});

test('a reconnect with Last-Event-ID or ?cursor= replays what it missed, then streams live', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  rx.behave({ status: 500 });
  try {
    await createEndpoint(emu, rx.url, ['payment.completed']);
    const first = await stream(emu, KEYS.acmeTest);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    const [evt1, att1] = await first.waitFor(2);
    assert.equal(att1.data.delivery_status, 'failed');
    first.close();

    // Missed while disconnected: a retry (attempt 2) and a second payment (event + attempt).
    await toNextDelivery(emu);
    await rx.waitFor(2);
    await attemptsRecorded(emu, att1.data.delivery_id, 2); // its retry is scheduled before the next move
    await simulatePayment(emu);
    await toNextDelivery(emu);
    await rx.waitFor(3);

    const byHeader = await stream(emu, KEYS.acmeTest, '', { 'last-event-id': evt1.id });
    const replayed = await byHeader.waitFor(4);
    assert.deepEqual(replayed.map((m) => m.event), ['attempt', 'attempt', 'event', 'attempt']);
    assert.equal(replayed[0].id, att1.id);
    assert.equal(replayed[1].data.attempt, 2);
    assert.equal(replayed[1].data.delivery_id, att1.data.delivery_id);
    const ids = replayed.map((m) => m.id);
    assert.deepEqual([...ids].sort(), ids, 'replay is in cursor order');
    assert.ok(ids.every((id) => id > evt1.id));

    const byQuery = await stream(emu, KEYS.acmeTest, `?cursor=${encodeURIComponent(att1.id)}`);
    const q = await byQuery.waitFor(3);
    assert.deepEqual(q.map((m) => m.id), ids.slice(1));

    const fromStart = await stream(emu, KEYS.acmeTest, '?from=start');
    const all = await fromStart.waitFor(5);
    assert.deepEqual(all.map((m) => m.id), [evt1.id, ...ids]);

    // After the replay, live messages follow on every connection; a fresh one starts at now.
    const fresh = await stream(emu, KEYS.acmeTest);
    await simulatePayment(emu);
    const [liveEvt] = await fresh.waitFor(1);
    assert.equal(liveEvt.event, 'event');
    assert.ok(liveEvt.id > ids[ids.length - 1]);
    await byHeader.waitFor(5);
    assert.equal(byHeader.messages[4].id, liveEvt.id);
    for (const s of [byHeader, byQuery, fromStart, fresh]) s.close();
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('the stream refuses missing or revoked keys, bad cursors and unknown types', async () => {
  const emu = await startTestEmulator();
  try {
    const none = await openStream(`${emu.baseUrl}/emulator/stream`, {});
    assert.equal(none.status, 401);
    assert.equal(none.error.error.code, 'UNAUTHORIZED');
    assert.equal((await stream(emu, KEYS.acmeRevoked)).status, 401);
    const badCursor = await stream(emu, KEYS.acmeTest, '?cursor=yesterday');
    assert.equal(badCursor.status, 422);
    assert.match(badCursor.error.error.message, /cursor/);
    assert.equal((await stream(emu, KEYS.acmeTest, '', { 'last-event-id': 'nope' })).status, 422);
    const badType = await stream(emu, KEYS.acmeTest, '?types=payment.exploded');
    assert.equal(badType.status, 422);
    assert.match(badType.error.error.message, /payment\.exploded/);
    assert.equal((await stream(emu, KEYS.acmeTest, '?colour=red')).status, 422);
  } finally {
    await emu.stop();
  }
});
