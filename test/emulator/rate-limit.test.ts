import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// One budget per merchant, shared by its test and live keys. 5 requests per 10 minutes: the
// bucket regains one token per 2 minutes, far longer than the test runs even on a slow machine.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator({ rateLimit: { limit: 5, windowMs: 600_000 } });
});
after(() => emu.stop());

test('the 6th request of a merchant is 429 RATE_LIMITED with Retry-After; test and live share it; others unaffected', async () => {
  // 3 test + 2 live requests of Acme spend its budget of 5.
  const keys = [KEYS.acmeTest, KEYS.acmeLive, KEYS.acmeTest, KEYS.acmeLive, KEYS.acmeReadOnly];
  for (const key of keys) {
    const ok = await emu.request('GET', '/v1/api/payments', { key });
    assert.equal(ok.status, 200, ok.text);
  }
  for (const key of [KEYS.acmeLive, KEYS.acmeTest]) {
    const limited = await emu.request('GET', '/v1/api/payments', { key, headers: { 'x-trace-id': 'rl-1' } });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.json, { success: false, error: { code: 'RATE_LIMITED', message: limited.json.error.message } });
    assert.equal(limited.headers.get('x-trace-id'), 'rl-1');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 120, `Retry-After ${limited.headers.get('retry-after')}`);
  }
  // A create route is limited too (before idempotency and validation).
  const create = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'x' }, idempotencyKey: 'rl-create' });
  assert.equal(create.status, 429);

  // Globex has its own budget, in both environments.
  for (let i = 0; i < 5; i++) {
    const key = i % 2 ? KEYS.globexLive : KEYS.globexTest;
    assert.equal((await emu.request('GET', '/v1/api/payments', { key })).status, 200);
  }
  assert.equal((await emu.request('GET', '/v1/api/payments', { key: KEYS.globexTest })).status, 429);
});

test('requests refused before the merchant is known (401) spend no budget', async () => {
  // Acme is exhausted by the test above; a bad key is still a 401, not a 429.
  const res = await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeRevoked });
  assert.equal(res.status, 401);
});
