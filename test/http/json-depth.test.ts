import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { MAX_JSON_DEPTH } from '../../emulator/http/json-depth.js';

// Bodies nested deeper than MAX_JSON_DEPTH are refused with 422 before anything recursive
// (the idempotency fingerprint, zod, JSON.stringify into the store) sees them.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

/** `{"metadata":{"a":[[…]]}}` with `levels` containers in all. */
const nested = (levels: number) => `{"metadata":{"a":${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}},"title":"deep","amount":100,"currency":"USD"}`;

function assertTooDeep(res: { status: number; text: string; json: any; headers: Headers }) {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.code, 'VALIDATION_ERROR');
  assert.match(res.json.error.message, new RegExp(`nest deeper than ${MAX_JSON_DEPTH} levels`));
  assert.match(res.headers.get('x-trace-id') ?? '', /^trc_/);
}

test('4,000 levels of metadata get 422 on the merchant API (with and without an idempotency key) and on the control API', async () => {
  const deep = nested(4000);
  assertTooDeep(await emu.request('POST', '/v1/api/payment-links', { rawBody: deep, idempotencyKey: idem('deep') }));
  assertTooDeep(await emu.request('POST', '/v1/api/payment-links', { rawBody: deep }));
  assertTooDeep(await emu.request('POST', '/_emulator/wallets/top-up', { key: null, rawBody: deep }));
  // A megabyte of brackets is refused the same way (and is not parsed first).
  assertTooDeep(await emu.request('POST', '/v1/api/payment-links', { rawBody: '['.repeat(1_000_000), idempotencyKey: idem('deep') }));
  // The emulator goes on working.
  const ok = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'after', amount: 100, currency: 'USD' }, idempotencyKey: idem('pl') });
  assert.equal(ok.status, 201, ok.text);
});

test('the limit is exact, and brackets inside strings do not count', async () => {
  const atLimit = await emu.request('POST', '/v1/api/payment-links', { rawBody: nested(MAX_JSON_DEPTH), idempotencyKey: idem('pl') });
  assert.equal(atLimit.status, 201, atLimit.text);
  assertTooDeep(await emu.request('POST', '/v1/api/payment-links', { rawBody: nested(MAX_JSON_DEPTH + 1), idempotencyKey: idem('pl') }));
  const text = `[[[[\\"{{{{${'['.repeat(100)}`;
  const strings = await emu.request('POST', '/v1/api/payment-links', { body: { title: text, amount: 100, currency: 'USD', metadata: { note: text } }, idempotencyKey: idem('pl') });
  assert.equal(strings.status, 201, strings.text);
  assert.equal(strings.json.data.metadata.note, text);
});
