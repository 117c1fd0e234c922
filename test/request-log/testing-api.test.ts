import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../../src/testing/index.js';

// The testing API's view of the request log: emu.requests(filter) and emu.waitForRequest, which
// waits on the store's commit feed for a request made after it was called.

test('waitForRequest resolves on a later request; requests() filters', async () => {
  const emu = await startEmulator({ clock: 'manual', rateLimit: 'off' });
  try {
    const key = emu.key('acme-test');
    const waiting = emu.waitForRequest((e) => e.status === 422 && e.path === '/v1/api/payment-links');
    const res = await fetch(`${emu.baseUrl}/v1/api/payment-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-idempotency-key': 'testing-api-1' },
      body: JSON.stringify({ title: '' }),
    });
    assert.equal(res.status, 422);
    const entry = await waiting;
    assert.equal(entry.error_code, 'VALIDATION_ERROR');
    assert.equal(entry.key_name, 'acme-test');
    assert.equal(entry.idempotency_key, 'testing-api-1');
    assert.equal(entry.trace_id, res.headers.get('x-trace-id'));

    await fetch(`${emu.baseUrl}/v1/api/payments`, { headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual(
      emu.requests({ status: 'failed' }).map((e) => e.status),
      [422],
    );
    assert.deepEqual(
      emu.requests({ method: 'GET', path: '/v1/api/pay' }).map((e) => e.path),
      ['/v1/api/payments'],
    );
    assert.equal(emu.requests({ key: 'acme-test' }).length, 2);
    assert.equal(emu.requests({ status: 200 }).length, 1);
    await emu.reset();
    assert.deepEqual(emu.requests(), []);
  } finally {
    await emu.close();
  }
});
