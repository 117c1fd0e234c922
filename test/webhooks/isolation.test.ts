import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator } from '../helpers/emulator.js';
import { control, createEndpoint, eventually, simulatePayment, startReceiver, toNextDelivery } from './receiver.js';

// One endpoint that never answers must not hold up the others: it keeps at most its own
// share of the engine's slots, and everyone else's deliveries complete while it hangs.

test('a hanging endpoint does not delay the others', async () => {
  // A long timeout: the hanging attempts stay open for the whole test.
  const emu = await startTestEmulator({ config: { webhookTimeoutMs: 120_000 } });
  const hang = await startReceiver();
  hang.behave('hang');
  const healthy = await startReceiver();
  try {
    const stuck = await createEndpoint(emu, hang.url, ['payment.completed']);
    const fine = await createEndpoint(emu, healthy.url, ['payment.completed']);
    const N = 30;
    for (let i = 0; i < N; i++) await simulatePayment(emu);
    // All 2N deliveries are due 1 s after their events (one frozen instant). The advance waits
    // for that step's attempts up to the webhook timeout: not awaited here, the hanging ones are
    // still open while the healthy ones complete, and the stop below cuts them off.
    const advancing = toNextDelivery(emu);
    await healthy.waitFor(N);
    const list = await eventually(async () => {
      const l = (await control(emu, 'GET', `/webhook-endpoints/${fine.id}/deliveries?limit=100`)).data;
      return l.deliveries.every((d: { status: string }) => d.status === 'succeeded') ? l : undefined;
    }, 'healthy deliveries succeeded');
    assert.equal(list.deliveries.length, N);

    // Meanwhile the hanging endpoint holds a bounded number of requests open (not all N), and
    // the rest of its deliveries wait their turn.
    assert.ok(hang.open > 0 && hang.open < N, `hanging endpoint holds ${hang.open} of ${N}`);
    const stuckList = (await control(emu, 'GET', `/webhook-endpoints/${stuck.id}/deliveries?limit=100`)).data;
    assert.ok(stuckList.deliveries.every((d: { status: string }) => d.status === 'pending'));
    await emu.stop(); // aborts the hanging attempts; the advance then answers
    await advancing;
  } finally {
    await emu.stop();
    await hang.close();
    await healthy.close();
  }
});
