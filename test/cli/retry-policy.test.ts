import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, isRetryableNetworkCode, isRetryableStatus, MAX_ATTEMPTS, retryAfterMs } from '../../src/client/retry.js';

// The retry policy as data (the CLI's behaviour is proven against a fault-injecting server
// in retry.test.ts): the spec's numbers, and how Retry-After is read.

test('backoff: 500 ms doubling, capped at 30 s; 5 attempts in all', () => {
  assert.equal(MAX_ATTEMPTS, 5);
  assert.deepEqual([0, 1, 2, 3].map(backoffMs), [500, 1000, 2000, 4000]);
  assert.equal(backoffMs(6), 30_000);
  assert.equal(backoffMs(20), 30_000);
});

test('which answers are retried', () => {
  for (const s of [429, 500, 502, 503]) assert.equal(isRetryableStatus(s, undefined), true, String(s));
  assert.equal(isRetryableStatus(409, 'IDEMPOTENCY_IN_FLIGHT'), true);
  assert.equal(isRetryableStatus(409, 'IDEMPOTENCY_CONFLICT'), false);
  assert.equal(isRetryableStatus(409, 'INVALID_STATE'), false);
  for (const s of [400, 401, 403, 404, 422, 423, 501, 504]) assert.equal(isRetryableStatus(s, undefined), false, String(s));
  assert.equal(isRetryableNetworkCode('ECONNRESET'), true);
  assert.equal(isRetryableNetworkCode('UND_ERR_HEADERS_TIMEOUT'), true);
  assert.equal(isRetryableNetworkCode('HEADERS_TIMEOUT'), true);
  assert.equal(isRetryableNetworkCode('BODY_TIMEOUT'), false, 'an answer that did not finish in time is not asked for again');
  assert.equal(isRetryableNetworkCode('ECONNREFUSED'), false);
  assert.equal(isRetryableNetworkCode(undefined), false);
});

test('Retry-After: delta seconds or an HTTP date, capped at 30 s; unreadable values are ignored', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  assert.equal(retryAfterMs('2', now), 2000);
  assert.equal(retryAfterMs(['0'], now), 0);
  assert.equal(retryAfterMs('120', now), 30_000);
  assert.equal(retryAfterMs('Sat, 21 Nov 2026 12:00:05 GMT', now), 5000);
  assert.equal(retryAfterMs('Sat, 21 Nov 2026 11:59:00 GMT', now), 0, 'a date in the past means now');
  assert.equal(retryAfterMs(undefined, now), undefined);
  assert.equal(retryAfterMs('', now), undefined);
  assert.equal(retryAfterMs('soon', now), undefined);
});
