import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { emitEvent } from '../../emulator/resources/events/outbox.js';
import { advance, control, createEndpoint, deliveriesSettled, eventually, livePayment, simulatePayment, startReceiver, toNextDelivery } from './receiver.js';

// Who gets what: subscriptions, merchants, environments, and deleted endpoints.


/** A live-environment event: simulate is test-only, so it is appended to the outbox directly. */
function emitLiveEvent(emu: TestEmulator, paymentId: string) {
  const s = emu.services;
  s.store.transaction((tx) => emitEvent(s, tx, { merchantId: 'mer_acme', environment: 'live' }, 'payment.completed', { payment: livePayment(paymentId) }));
}

const paymentOf = (body: string) => JSON.parse(body).data.payment.id as string;

test('deliveries go to subscribed endpoints of the same merchant and environment only', async () => {
  const emu = await startTestEmulator();
  const completed = await startReceiver();
  const failed = await startReceiver();
  const globex = await startReceiver();
  const live = await startReceiver();
  try {
    await createEndpoint(emu, completed.url, ['payment.completed']);
    await createEndpoint(emu, failed.url, ['payment.failed']);
    await createEndpoint(emu, globex.url, ['payment.completed', 'payment.failed'], KEYS.globexTest);
    await createEndpoint(emu, live.url, ['payment.completed'], KEYS.acmeLive);

    const p1 = await simulatePayment(emu, 'completed');
    const p2 = await simulatePayment(emu, 'failed');
    emitLiveEvent(emu, 'pay_live_1');
    const p3 = await simulatePayment(emu, 'completed');
    await toNextDelivery(emu);

    await completed.waitFor(2);
    await failed.waitFor(1);
    await live.waitFor(1);
    await deliveriesSettled(emu);
    // Each receiver got exactly its own, in order: the live event never reached the test
    // endpoint (its second delivery is p3), the test events never reached the live one.
    assert.deepEqual(completed.received.map((r) => paymentOf(r.body)), [p1, p3]);
    assert.deepEqual(failed.received.map((r) => [r.headers['svc-event'], paymentOf(r.body)]), [['payment.failed', p2]]);
    assert.deepEqual(live.received.map((r) => paymentOf(r.body)), ['pay_live_1']);
    assert.equal(globex.received.length, 0);

    // The other merchant's own payment does reach it (the receiver works).
    const g = await simulatePayment(emu, 'completed', KEYS.globexTest);
    await toNextDelivery(emu);
    await globex.waitFor(1);
    assert.equal(paymentOf(globex.received[0].body), g);
  } finally {
    for (const r of [completed, failed, globex, live]) await r.close();
    await emu.stop();
  }
});

test('deleting an endpoint cancels its waiting deliveries and it gets nothing new', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  rx.behave({ status: 500 });
  const other = await startReceiver();
  try {
    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    await createEndpoint(emu, other.url, ['payment.completed']);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    await rx.waitFor(1);
    const id = String(rx.received[0].headers['svc-delivery']);
    await eventually(async () => (await control(emu, 'GET', `/deliveries/${id}`)).data?.status === 'failed', 'first failure');

    assert.equal((await emu.request('DELETE', `/v1/api/webhook-endpoints/${ep.id}`)).status, 200);
    const cancelled = await eventually(async () => {
      const d = (await control(emu, 'GET', `/deliveries/${id}`)).data;
      return d?.status === 'cancelled' ? d : undefined;
    }, 'cancelled');
    assert.equal(cancelled.next_attempt_at, null);
    assert.equal(cancelled.attempts.length, 1);
    const re = await control(emu, 'POST', `/deliveries/${id}/redeliver`, {});
    assert.equal(re.status, 409);
    assert.equal(re.error.code, 'INVALID_STATE');

    // Its retry time passes, and a new event arrives: nothing for the deleted endpoint.
    await advance(emu, 3_600_000);
    await simulatePayment(emu);
    await toNextDelivery(emu);
    await other.waitFor(2);
    await deliveriesSettled(emu);
    assert.equal(rx.received.length, 1);
    const list = await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries`);
    assert.equal(list.status, 200, 'a deleted endpoint keeps its history');
    assert.deepEqual(list.data.deliveries.map((d: { id: string; status: string }) => [d.id, d.status]), [[id, 'cancelled']]);
  } finally {
    await rx.close();
    await other.close();
    await emu.stop();
  }
});
