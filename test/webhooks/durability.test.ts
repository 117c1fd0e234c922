import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, tempDir } from '../helpers/emulator.js';
import { advance, assertNotDue, attemptsRecorded, control, createEndpoint, deliveriesSettled, simulatePayment, startReceiver } from './receiver.js';
import { openStream } from './sse.js';

// Restarts: a pending schedule resumes from the store, an attempt cut off by shutdown counts as
// a failed attempt (never sent again as itself), and stream cursors from before the restart
// still resume.

const T0 = Date.parse('2026-11-21T12:00:00Z');

test('a restart mid-schedule resumes on time, with the same delivery id, and old cursors still work', async () => {
  const dataDir = tempDir();
  const rx = await startReceiver();
  rx.behave({ status: 500 });
  let emu = await startTestEmulator({ dataDir, clockStart: T0 });
  let restarted = false;
  try {
    await createEndpoint(emu, rx.url, ['payment.completed']);
    const s1 = await openStream(`${emu.baseUrl}/emulator/stream`, { authorization: `Bearer ${KEYS.acmeTest}` });
    await simulatePayment(emu);
    await advance(emu, 1_000); // attempt 1 is due 1 s after the event
    await rx.waitFor(1);
    const id = String(rx.received[0].headers['svc-delivery']);
    await attemptsRecorded(emu, id, 1); // the retry is scheduled from the recorded failure
    await advance(emu, 5_000);
    await rx.waitFor(2);
    const before = await attemptsRecorded(emu, id, 2);
    assert.equal(before.status, 'failed');
    const [evt] = await s1.waitFor(3);
    s1.close();
    await emu.stop({ keepData: true });

    rx.behave({ status: 200 });
    emu = await startTestEmulator({ dataDir, clockStart: T0 + 6_000 });
    restarted = true;
    const after = (await control(emu, 'GET', `/deliveries/${id}`)).data;
    assert.equal(after.status, 'failed');
    assert.equal(after.next_attempt_at, before.next_attempt_at);
    assert.equal(after.attempts.length, 2);

    await advance(emu, 24_999);
    await assertNotDue(emu, id, 'not before the 25 s wait');
    assert.equal(rx.received.length, 2, 'not before the 25 s wait');
    await advance(emu, 1);
    const [, , third] = await rx.waitFor(3);
    assert.equal(third.headers['svc-delivery'], id);
    const done = await attemptsRecorded(emu, id, 3);
    assert.equal(done.status, 'succeeded');

    // A cursor taken before the restart replays both attempts made before it and the one after.
    const s2 = await openStream(`${emu.baseUrl}/emulator/stream`, { authorization: `Bearer ${KEYS.acmeTest}`, 'last-event-id': evt.id });
    const replay = await s2.waitFor(3);
    assert.deepEqual(replay.map((m) => [m.event, m.data.attempt, m.data.delivery_status]), [
      ['attempt', 1, 'failed'],
      ['attempt', 2, 'failed'],
      ['attempt', 3, 'succeeded'],
    ]);
    assert.ok(replay[2].id > replay[1].id);
    s2.close();
  } finally {
    await rx.close();
    await emu.stop({ keepData: !restarted });
  }
});

test('an attempt in flight at shutdown counts as a failed attempt after the restart and is never sent again as itself', async () => {
  const dataDir = tempDir();
  const rx = await startReceiver();
  rx.behave('hang');
  let emu = await startTestEmulator({ dataDir, clockStart: T0, config: { webhookTimeoutMs: 60_000 } });
  try {
    await createEndpoint(emu, rx.url, ['payment.completed']);
    await simulatePayment(emu);
    // An advance waits for the attempts it makes (up to the webhook timeout): not awaited here,
    // the stop cuts this one off while it waits for an answer, and the advance then answers.
    const advancing = advance(emu, 1_000);
    const [first] = await rx.waitFor(1);
    const id = String(first.headers['svc-delivery']);
    await emu.stop({ keepData: true }); // the attempt is still waiting for an answer
    await advancing;

    rx.behave({ status: 200 });
    emu = await startTestEmulator({ dataDir, clockStart: T0 + 1_000 });
    // The start written before it was sent is found at once: attempt 1, failed, retry in 5 s.
    const d = await attemptsRecorded(emu, id, 1);
    assert.equal(d.status, 'failed');
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0].status_code, null);
    assert.match(d.attempts[0].error, /^interrupted by a restart/);
    assert.equal(d.attempts[0].at, '2026-11-21T12:00:01.000000Z', 'at the time it started');
    await deliveriesSettled(emu);
    assert.equal(rx.received.length, 1, 'the interrupted attempt was not sent again');
    await assertNotDue(emu, id, 'attempt 2 waits the 5 s retry delay');

    await advance(emu, 5_000);
    const [, second] = await rx.waitFor(2);
    assert.equal(second.headers['svc-delivery'], id);
    const done = await attemptsRecorded(emu, id, 2);
    assert.equal(done.status, 'succeeded');
    assert.deepEqual(done.attempts.map((a: { attempt: number; status_code: number | null }) => [a.attempt, a.status_code]), [
      [1, null],
      [2, 200],
    ]);
  } finally {
    await rx.close();
    await emu.stop();
  }
});
