import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { startTestEmulator } from '../helpers/emulator.js';
import { advance, assertNotDue, attemptsRecorded, clockNow, control, createEndpoint, eventually, simulatePayment, startReceiver, toNextDelivery, type Received } from './receiver.js';

// The delivery engine over real HTTP: a real emulator (manual clock) posting to real
// node:http receivers on 127.0.0.1. Signatures are checked with node:crypto here, not with
// the package's own verifier.

// The spec's seven delays, each the wait before its attempt: attempt 1 is due 1 s after the
// event, attempt k+1 DELAYS_MS[k] after attempt k failed.
const DELAYS_MS = [1_000, 5_000, 25_000, 120_000, 600_000, 3_600_000, 21_600_000];

function verifyIndependently(r: Received, secret: string): number {
  const header = String(r.headers['svc-signature']);
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  assert.ok(m, `Svc-Signature has the t=…,v1=… form: ${header}`);
  const expected = createHmac('sha256', secret).update(`${m[1]}.${r.body}`).digest();
  assert.ok(timingSafeEqual(expected, Buffer.from(m[2], 'hex')), 'HMAC-SHA256 over `${t}.${raw body}` with the endpoint secret');
  return Number(m[1]);
}


test('a delivery is signed with the endpoint secret, carries its headers, and succeeds on 2xx', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  try {
    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    const paymentId = await simulatePayment(emu);
    // Attempt 1 waits the spec's first delay (1 s) on the emulator clock.
    const events = (await control(emu, 'GET', '/events?type=payment.completed')).data.events;
    const [pending] = (await control(emu, 'GET', `/events/${events[0].id}/deliveries`)).data.deliveries;
    assert.equal(pending.status, 'pending');
    assert.equal(Date.parse(pending.next_attempt_at) - Date.parse(events[0].created_at), 1_000);
    assert.equal(rx.received.length, 0);
    const moved = await toNextDelivery(emu);
    assert.equal(moved.advanced_ms, 1_000);
    assert.deepEqual(moved.deliveries, [pending.id]);
    const [r] = await rx.waitFor(1);
    verifyIndependently(r, ep.secret);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['svc-event'], 'payment.completed');
    assert.match(String(r.headers['svc-delivery']), /^dlv_/);
    assert.match(String(r.headers['user-agent']), /svc/);
    const body = JSON.parse(r.body);
    assert.equal(body.type, 'payment.completed');
    assert.equal(body.data.payment.id, paymentId);
    // A wrong secret does not verify: the check above can fail.
    assert.throws(() => verifyIndependently(r, 'x'.repeat(43)));

    const id = String(r.headers['svc-delivery']);
    const d = await eventually(async () => {
      const got = (await control(emu, 'GET', `/deliveries/${id}`)).data;
      return got?.status === 'succeeded' ? got : undefined;
    }, 'succeeded');
    assert.equal(d.endpoint_id, ep.id);
    assert.equal(d.event_type, 'payment.completed');
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0].attempt, 1);
    assert.equal(d.attempts[0].status_code, 200);
    assert.equal(d.attempts[0].error, null);
    assert.equal(d.attempts[0].response_excerpt, 'ok');
    assert.equal(typeof d.attempts[0].latency_ms, 'number');
    assert.equal(d.next_attempt_at, null);

    const list = await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.data.deliveries.map((x: { id: string }) => x.id), [id]);
    assert.equal(list.data.deliveries[0].last_attempt.status_code, 200);
    assert.equal((await control(emu, 'GET', '/webhook-endpoints/we_nope/deliveries')).status, 404);
    assert.equal((await control(emu, 'GET', '/deliveries/dlv_nope')).status, 404);
    assert.equal((await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries?limit=0`)).status, 422);
    assert.equal((await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries?bogus=1`)).status, 422);
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('retries follow the schedule on the clock, keep Svc-Delivery, dead-letter after 7; redelivery keeps the id', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  rx.behave({ status: 500, body: 'boom' });
  try {
    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    await simulatePayment(emu);
    const eventAt = await clockNow(emu);
    // Before attempt 1: due 1 s after the event, not earlier.
    await advance(emu, DELAYS_MS[0] - 1);
    assert.equal(rx.received.length, 0, 'no attempt 1 before 1 s');
    await advance(emu, 1);
    await rx.waitFor(1);
    const id = String(rx.received[0].headers['svc-delivery']);
    assert.equal(Date.parse((await attemptsRecorded(emu, id, 1)).attempts[0].at) - eventAt, 1_000);

    for (let k = 1; k <= 6; k++) {
      const d = await attemptsRecorded(emu, id, k);
      assert.equal(d.status, 'failed', `after attempt ${k}`);
      assert.equal(d.attempts[k - 1].status_code, 500);
      assert.equal(d.attempts[k - 1].response_excerpt, 'boom');
      const failedAt = Date.parse(d.attempts[k - 1].at);
      assert.equal(Date.parse(d.next_attempt_at) - failedAt, DELAYS_MS[k], `wait before attempt ${k + 1}`);
      // 1 ms before it is due: still not due, nothing went out.
      await advance(emu, DELAYS_MS[k] - 1);
      await assertNotDue(emu, id, `attempt ${k + 1} not due before its delay`);
      assert.equal(rx.received.length, k, `no attempt ${k + 1} before its delay`);
      // Due now: it goes out.
      await advance(emu, 1);
      await rx.waitFor(k + 1);
    }
    // The seventh attempt went out 7 h 12 m 31 s after the event (receivers answer at once).
    const seventh = (await attemptsRecorded(emu, id, 7)).attempts[6];
    assert.equal(Date.parse(seventh.at) - eventAt, DELAYS_MS.reduce((a, b) => a + b, 0));
    const dead = await attemptsRecorded(emu, id, 7);
    assert.equal(dead.status, 'dead_letter');
    assert.equal(dead.next_attempt_at, null);
    assert.deepEqual(dead.attempts.map((a: { attempt: number }) => a.attempt), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(new Set(rx.received.map((r) => r.headers['svc-delivery'])).size, 1, 'one Svc-Delivery across retries');
    for (const r of rx.received) verifyIndependently(r, ep.secret);

    // Nothing waits after dead_letter: advancing to the next delivery finds none.
    const none = await toNextDelivery(emu);
    assert.equal(none.due_at, null);
    assert.equal(none.advanced_ms, 0);
    assert.equal(rx.received.length, 7, 'nothing after dead_letter');

    // Redelivery: same id, back to pending, sent at once; a 200 now makes it succeeded.
    rx.behave({ status: 204 });
    const re = await control(emu, 'POST', `/deliveries/${id}/redeliver`, {});
    assert.equal(re.status, 200);
    assert.equal(re.data.id, id);
    assert.equal(re.data.status, 'pending');
    const [, , , , , , , r8] = await rx.waitFor(8);
    assert.equal(r8.headers['svc-delivery'], id);
    verifyIndependently(r8, ep.secret);
    const ok = await attemptsRecorded(emu, id, 8);
    assert.equal(ok.status, 'succeeded');
    assert.equal(ok.attempts[7].status_code, 204);

    const again = await control(emu, 'POST', `/deliveries/${id}/redeliver`, {});
    assert.equal(again.status, 409);
    assert.equal(again.error.code, 'INVALID_STATE');
    assert.equal((await control(emu, 'POST', '/deliveries/dlv_nope/redeliver', {})).status, 404);
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('redelivering a failed delivery sends it now and starts a fresh round of 7', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  rx.behave({ status: 503 });
  try {
    await createEndpoint(emu, rx.url, ['payment.completed']);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    await rx.waitFor(1);
    const id = String(rx.received[0].headers['svc-delivery']);
    const failed = await attemptsRecorded(emu, id, 1);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts_left, 6);
    const re = await control(emu, 'POST', `/deliveries/${id}/redeliver`, {});
    assert.equal(re.data.status, 'pending');
    assert.equal(re.data.attempts_left, 7);
    await rx.waitFor(2); // no clock advance needed
    const d = await attemptsRecorded(emu, id, 2);
    assert.equal(d.status, 'failed');
    assert.equal(d.attempts_left, 6);
    assert.equal(Date.parse(d.next_attempt_at) - Date.parse(d.attempts[1].at), DELAYS_MS[1]);
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('a hanging receiver counts as failed after the timeout', async () => {
  const emu = await startTestEmulator({ config: { webhookTimeoutMs: 200 } });
  const hang = await startReceiver();
  hang.behave('hang');
  try {
    await createEndpoint(emu, hang.url, ['payment.completed']);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    await hang.waitFor(1);
    const h = await attemptsRecorded(emu, String(hang.received[0].headers['svc-delivery']), 1);
    assert.equal(h.status, 'failed');
    assert.equal(h.attempts[0].status_code, null);
    assert.match(h.attempts[0].error, /timeout/);
    assert.equal(h.attempts_left, 6);
  } finally {
    await hang.close();
    await emu.stop();
  }
});

test('a redirect is not followed and counts as failed; so does a refused connection', async () => {
  // The default 10 s timeout: these receivers answer (or refuse) at once, even on a busy machine.
  const emu = await startTestEmulator();
  const redirect = await startReceiver();
  redirect.behave({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
  const gone = await startReceiver();
  const goneUrl = gone.url;
  await gone.close(); // nothing listens there any more
  try {
    await createEndpoint(emu, redirect.url, ['payment.completed']);
    const refused = await createEndpoint(emu, goneUrl, ['payment.completed']);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    await redirect.waitFor(1);
    const r = await attemptsRecorded(emu, String(redirect.received[0].headers['svc-delivery']), 1);
    assert.equal(r.status, 'failed');
    assert.equal(r.attempts[0].status_code, 302);
    assert.match(r.attempts[0].error, /redirect/);
    assert.equal(redirect.received.length, 1);

    const list = await eventually(async () => {
      const l = (await control(emu, 'GET', `/webhook-endpoints/${refused.id}/deliveries`)).data;
      return l.deliveries[0]?.last_attempt ? l : undefined;
    }, 'refused attempt');
    assert.equal(list.deliveries[0].status, 'failed');
    assert.equal(list.deliveries[0].last_attempt.status_code, null);
    assert.match(list.deliveries[0].last_attempt.error, /ECONNREFUSED/);
  } finally {
    await redirect.close();
    await emu.stop();
  }
});
