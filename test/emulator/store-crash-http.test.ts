import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request, tempDir } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';

// kill -9 of a real `svc emulator start` during a burst of POSTs: after a restart on the same
// data dir, every link and payment the client saw acknowledged (201) is there, with the
// payment's outbox event and the link's idempotency record (the retry is a byte-identical replay).

test('svc emulator start: kill -9 during a burst keeps every acknowledged link, payment, outbox event and idempotency record', async (t) => {
  const dataDir = tempDir('svc-crash-http-');
  const procs = svcProcesses(t.signal);
  try {
    const first = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    const acked = new Map<string, { key: string; text: string; body: unknown }>();
    const payments = new Map<string, string>(); // acknowledged simulate: payment id -> response text
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const key = `crash-${w}-${i}`;
        const body = { title: `crash ${w}/${i}`, amount: 100 + i, metadata: { w, i } };
        try {
          const res = await request(first.ready.base_url, 'POST', '/v1/api/payment-links', { body, idempotencyKey: key });
          if (res.status !== 201) throw new Error(`unexpected ${res.status} ${res.text}`);
          acked.set(res.json.data.id, { key, text: res.text, body });
          if (i % 3 === 0) {
            // A settled payment, with its outbox event, in the same burst.
            const sim = await request(first.ready.base_url, 'POST', `/v1/api/payment-links/${res.json.data.id}/simulate`, { body: {} });
            if (sim.status !== 201) throw new Error(`unexpected ${sim.status} ${sim.text}`);
            payments.set(sim.json.data.id, sim.text);
          }
          if (acked.size >= 200 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch (err) {
          if (killed) return; // requests cut off by the kill were never acknowledged
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    assert.equal(await first.done, 'SIGKILL');

    const second = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    try {
      for (const [id, { key, text, body }] of acked) {
        const read = await request(second.ready.base_url, 'GET', `/v1/api/payment-links/${id}`);
        assert.equal(read.status, 200, `acknowledged ${id} missing after kill -9`);
        const original = JSON.parse(text).data;
        assert.deepEqual({ ...read.json.data, status: 0, total_collected: 0, payment_count: 0 }, { ...original, status: 0, total_collected: 0, payment_count: 0 });
        // The idempotency record was committed with the link: the retry is a replay.
        const retry = await request(second.ready.base_url, 'POST', '/v1/api/payment-links', { body, idempotencyKey: key });
        assert.equal(retry.text, text);
      }
      const events = await request(second.ready.base_url, 'GET', '/_emulator/events?merchant_id=mer_acme&environment=test', { key: null });
      const eventPayments = new Set(events.json.data.events.map((e: { body: string }) => JSON.parse(e.body).data.payment.id));
      assert.ok(payments.size > 0);
      for (const [id, text] of payments) {
        const read = await request(second.ready.base_url, 'GET', `/v1/api/payments/${id}`);
        assert.equal(read.status, 200, `acknowledged payment ${id} missing after kill -9`);
        assert.deepEqual(read.json.data, JSON.parse(text).data);
        assert.ok(eventPayments.has(id), `the payment.completed event of ${id} is missing`);
      }
    } finally {
      second.child.kill('SIGTERM');
      assert.equal(await second.done, 0);
    }
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
