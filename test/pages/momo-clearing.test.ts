import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { payLiveMomo } from '../scheduler/momo.js';

// The live MoMo clearing timer across a restart: a payment left pending when the emulator
// stops is cleared after the next start, once its delay has passed on the clock. The form is
// posted over HTTP as a browser would (the browser itself is exercised in checkout.test.ts).


const status = async (em: TestEmulator, id: string) => (await em.request('GET', `/v1/api/payments/${id}`, { key: KEYS.acmeLive })).json.data.status;
const advance = (em: TestEmulator, ms: number) => em.request('POST', '/_emulator/clock/advance', { key: null, body: { ms } });

test('a pending live MoMo payment clears only when its delay has passed', async () => {
  const em = await startTestEmulator({ config: { momoClearMs: 60_000 } });
  try {
    const { paymentId, linkId } = await payLiveMomo(em);
    assert.equal(await status(em, paymentId), 'pending');
    await advance(em, 59_000);
    assert.equal(await status(em, paymentId), 'pending');
    await advance(em, 1_000);
    assert.equal(await status(em, paymentId), 'completed');
    const link = (await em.request('GET', `/v1/api/payment-links/${linkId}`, { key: KEYS.acmeLive })).json.data;
    assert.equal(link.total_collected, 4200);
  } finally {
    await em.stop();
  }
});

test('a pending live MoMo payment is cleared after a restart', async () => {
  const dataDir = tempDir();
  const first = await startTestEmulator({ dataDir, config: { momoClearMs: 30_000 } });
  const { paymentId } = await payLiveMomo(first);
  await first.stop({ keepData: true });

  const second = await startTestEmulator({ dataDir, config: { momoClearMs: 30_000 } });
  try {
    assert.equal(await status(second, paymentId), 'pending');
    await advance(second, 30_000);
    assert.equal(await status(second, paymentId), 'completed');
    const events = await second.request('GET', '/_emulator/events?merchant_id=mer_acme&environment=live&type=payment.completed', { key: null });
    assert.equal(events.json.data.events.filter((e: { body: string }) => JSON.parse(e.body).data.payment.id === paymentId).length, 1, 'one event, not one per start');
  } finally {
    await second.stop();
  }
});
