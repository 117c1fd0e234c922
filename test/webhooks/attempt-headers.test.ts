import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator } from '../helpers/emulator.js';
import { attemptsRecorded, control, createEndpoint, simulatePayment, startReceiver } from './receiver.js';

// Each recorded attempt shows the request headers it sent (the dashboard's delivery page):
// exactly what the receiver got, the signature included, the endpoint secret nowhere.

test('GET /_emulator/deliveries/{id} shows each attempt’s request headers as the receiver got them, never the secret', async () => {
  const emu = await startTestEmulator();
  const rx = await startReceiver();
  try {
    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    await simulatePayment(emu);
    const id = (await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries`)).data.deliveries[0].id as string;
    const d0 = (await control(emu, 'GET', `/deliveries/${id}`)).data;
    const now = (await control(emu, 'GET', '/clock')).data.now;
    // Attempt 1 may wait on the clock (the retry schedule decides); move it there if so.
    if (d0.attempt_count === 0 && Date.parse(d0.next_attempt_at) > Date.parse(now)) {
      await control(emu, 'POST', '/clock/advance', { ms: Date.parse(d0.next_attempt_at) - Date.parse(now) });
    }
    const [got] = await rx.waitFor(1);
    const d = await attemptsRecorded(emu, id, 1);
    const sent = d.attempts[0].request_headers as Record<string, string>;
    for (const name of ['content-type', 'user-agent', 'svc-signature', 'svc-event', 'svc-delivery']) {
      assert.equal(sent[name], got.headers[name], name);
    }
    assert.equal(sent['svc-delivery'], id);
    const whole = JSON.stringify(await emu.request('GET', `/_emulator/deliveries/${id}`, { key: null }).then((r) => r.json));
    assert.ok(!whole.includes(ep.secret), 'the endpoint secret is not in the delivery');
    // The list view stays small: no attempts, so no headers.
    const list = (await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries`)).data.deliveries[0];
    assert.equal(list.attempts, undefined);
  } finally {
    await rx.close();
    await emu.stop();
  }
});
