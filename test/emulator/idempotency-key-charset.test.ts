import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';

// Rule 2: a key is any string of 1–255 characters that the transport can carry.
// - A body key (a charge's cycle key, the redemptions' idempotency_key) is Unicode text:
//   any string of 1–255 code points, compared exactly (no trimming, no normalization).
// - A header key is the bytes HTTP carried (node reads them as latin1, one character per
//   byte): whatever node's parser let through, 1–255 bytes. Node itself answers 400 to bytes
//   HTTP does not allow (test/http/client-error.test.ts); the route never refuses what arrived.
// Empty is malformed either way (422 IDEMPOTENCY_KEY_INVALID).

let emu: TestEmulator;
let mandateId: string;
before(async () => {
  emu = await startTestEmulator();
  const m = await emu.request('POST', '/v1/api/mandates', { body: { rail: 'card', currency: 'USD', customer_ref: 'cus-charset', max_amount_cents: 5000 }, idempotencyKey: idem('mdt') });
  assert.equal(m.status, 201, m.text);
  mandateId = m.json.data.mandate.id;
});
after(() => emu.stop());

const charge = (cycleKey: unknown, amount = 100) =>
  emu.request('POST', '/v1/api/charges', { body: { mandate_id: mandateId, amount_cents: amount, currency: 'USD', idempotency_key: cycleKey }, idempotencyKey: idem('chg') });
const redeem = (key: unknown) => emu.request('POST', '/v1/gift-cards/redeem', { body: { merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: key } });
const uniq = () => `${process.pid}-${Math.random().toString(36).slice(2)}`;
/** The UTF-8 bytes of `text` as a header string: node's client writes one byte per character (latin1). */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('body keys: any Unicode string of 1–255 code points', () => {
  test('"café 42" is a cycle key (was refused): the payment carries it, a retry returns that payment', async () => {
    const key = `café 42 ${uniq()}`;
    const first = await charge(key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.json.data.idempotency_key, key);
    const retry = await charge(key);
    assert.equal(retry.status, 201);
    assert.deepEqual(retry.json.data, first.json.data);
  });

  test('keys are compared exactly: other Unicode normalization, spaces at either end, control characters are other keys', async () => {
    const base = `café ${uniq()}`;
    const nfc = base.normalize('NFC');
    const nfd = base.normalize('NFD');
    assert.notEqual(nfc, nfd);
    const ids = new Set<string>();
    for (const key of [nfc, nfd, ` ${nfc}`, `${nfc} `, `${nfc}\n`, `${nfc}\u0000`]) {
      const res = await charge(key);
      assert.equal(res.status, 201, `${JSON.stringify(key)}: ${res.text}`);
      assert.equal(res.json.data.idempotency_key, key, 'stored exactly as sent');
      ids.add(res.json.data.id);
    }
    assert.equal(ids.size, 6, 'six keys, six charges');
  });

  test('255 characters beyond the BMP (over 500 UTF-16 units) are a key; 256 are IDEMPOTENCY_KEY_INVALID, counted in code points', async () => {
    const emoji = (n: number) => '😀'.repeat(n - 8) + Math.random().toString(36).slice(2, 10).padEnd(8, '0');
    const max = emoji(255);
    assert.equal([...max].length, 255);
    assert.equal(max.length, 255 * 2 - 8);
    const ok = await redeem(max);
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json.data.transaction.idempotency_key, max);
    for (const send of [redeem, charge]) {
      const over = await send('😀'.repeat(256));
      assert.equal(over.status, 422, over.text);
      assert.equal(over.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
      assert.equal(over.json.error.message, 'idempotency_key is 256 characters long, 1 over the 255-character limit; it must be a string of 1 to 255 Unicode characters (code points); a UUID works.');
    }
  });

  test('empty and lone surrogates are malformed (IDEMPOTENCY_KEY_INVALID); missing is IDEMPOTENCY_KEY_REQUIRED, on charges and redemptions alike', async () => {
    for (const send of [charge, redeem]) {
      const empty = await send('');
      assert.equal(empty.status, 422, empty.text);
      assert.equal(empty.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
      assert.match(empty.json.error.message, /^idempotency_key is empty; it must be a string of 1 to 255 Unicode characters/);
      // "\ud800" in JSON: not text (no UTF-8 form); a receiver would read it as U+FFFD.
      const lone = await send('ab\ud800');
      assert.equal(lone.status, 422, lone.text);
      assert.equal(lone.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
      assert.match(lone.json.error.message, /^idempotency_key has a lone surrogate at character 3 \(U\+D800\)/);
      const missing = await send(undefined);
      assert.equal(missing.status, 422, missing.text);
      assert.equal(missing.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    }
  });
});

describe('header keys: the bytes HTTP carried, 1–255 of them', () => {
  // Bodies go as Buffers: node's client writes header strings as latin1 (one byte per
  // character), except that it sends headers and a first *string* body chunk in one UTF-8 write.
  const post = (key: string, body = '{"title":"header bytes"}') =>
    rawRequest(emu.baseUrl, 'POST', '/v1/api/payment-links', { headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'x-idempotency-key': key }, body: Buffer.from(body) });

  test('a header key is counted in bytes: 255 bytes of UTF-8 are a key, 256 are not', async () => {
    const salt = Math.random().toString(36).slice(2, 9).padEnd(7, '0');
    const fits = utf8Bytes(`${'é'.repeat(124)}${salt}`); // 124 × 2 bytes + 7 = 255 bytes, 131 characters
    assert.equal(fits.length, 255);
    const ok = await post(fits);
    assert.equal(ok.status, 201, ok.text);
    const over = await post(utf8Bytes('é'.repeat(128))); // 128 characters, 256 bytes
    assert.equal(over.status, 422, over.text);
    assert.equal(over.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
    assert.match(over.json.error.message, /^X-Idempotency-Key is 256 bytes long, 1 over the 255-byte limit of a header key/);
  });

  test('what arrived is the key: a simulated payment carries those bytes, and the same bytes replay', async () => {
    const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'header key' }, idempotencyKey: idem('link') });
    const key = utf8Bytes(`ключ\t${uniq()}`); // UTF-8 bytes and a tab, as curl -H would send them
    const send = () =>
      rawRequest(emu.baseUrl, 'POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'x-idempotency-key': key }, body: Buffer.from('{"amount":250}') });
    const first = await send();
    assert.equal(first.status, 201, first.text);
    assert.equal(first.json.data.idempotency_key, key, 'one character per byte, as node read them');
    const again = await send();
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text);
  });
});

describe('the OpenAPI document states the same rule', () => {
  test('body keys: minLength 1, maxLength 255 (code points, as JSON Schema counts), no pattern; header keys: any header bytes, at most 255', async () => {
    const res = await emu.request('GET', '/openapi.json', { key: null });
    assert.equal(res.status, 200);
    const doc = res.json;
    const resolve = (schema: any): any => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
    const chargeBody = resolve(doc.paths['/v1/api/charges'].post.requestBody.content['application/json'].schema);
    const cycle = chargeBody.properties.idempotency_key;
    assert.equal(cycle.minLength, 1);
    assert.equal(cycle.maxLength, 255);
    assert.equal(cycle.pattern, undefined);
    const header = doc.paths['/v1/api/charges'].post.parameters.find((p: { name?: string }) => p.name === 'X-Idempotency-Key');
    assert.equal(header.schema.maxLength, 255);
    const pattern = new RegExp(header.schema.pattern);
    for (const arrived of ['a', 'tab\there', utf8Bytes('ключ'), 'café']) assert.ok(pattern.test(arrived), JSON.stringify(arrived));
    for (const never of ['', ' lead', 'new\nline', '€']) assert.ok(!pattern.test(never), JSON.stringify(never));
  });
});
