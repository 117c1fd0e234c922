import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// An empty query parameter is a parameter not given, on every route that takes a query: the
// spec writes the payments list as `GET /v1/api/payments?status=&before=&limit=`, and form
// serializers send unset fields that way. Unknown names and repeated names stay refused.

let emu: TestEmulator;
const control = (path: string) => emu.request('GET', `/_emulator${path}`, { key: null });

before(async () => {
  emu = await startTestEmulator();
  // A link with three payments (two completed, one failed), so filters and limits have rows to act on.
  const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'empty query' }, idempotencyKey: idem('eq') });
  assert.equal(link.status, 201, link.text);
  for (const outcome of ['completed', 'failed', 'completed']) {
    const pay = await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { amount: 300, outcome } });
    assert.equal(pay.status, 201, pay.text);
  }
  const payout = await emu.request('POST', '/v1/api/payouts', { body: { payee_id: 'payee_ada', amount_cents: 100, currency: 'USD' }, idempotencyKey: idem('eq-po') });
  assert.equal(payout.status, 201, payout.text);
});
after(() => emu.stop());

describe('merchant API', () => {
  test('GET /v1/api/payments?status=&before=&limit= is the list with no parameters', async () => {
    const plain = await emu.request('GET', '/v1/api/payments');
    assert.equal(plain.status, 200, plain.text);
    assert.ok(plain.json.data.payments.length >= 3);
    const empty = await emu.request('GET', '/v1/api/payments?status=&before=&limit=');
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.json.data, plain.json.data);
  });

  test('an empty parameter beside given ones leaves only the given ones in force', async () => {
    const twoOfAll = await emu.request('GET', '/v1/api/payments?status=&limit=2');
    assert.equal(twoOfAll.status, 200, twoOfAll.text);
    assert.equal(twoOfAll.json.data.payments.length, 2);
    const statuses = new Set(twoOfAll.json.data.payments.map((p: { status: string }) => p.status));
    assert.deepEqual([...statuses].sort(), ['completed', 'failed'], 'no status filter: the newest two are completed and failed');

    const failed = await emu.request('GET', '/v1/api/payments?status=failed&before=&limit=');
    assert.equal(failed.status, 200, failed.text);
    assert.ok(failed.json.data.payments.length >= 1);
    assert.ok(failed.json.data.payments.every((p: { status: string }) => p.status === 'failed'));
  });

  test('GET /v1/api/payments/summary?since= counts everything, like no since', async () => {
    const plain = await emu.request('GET', '/v1/api/payments/summary');
    const empty = await emu.request('GET', '/v1/api/payments/summary?since=');
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.json.data.since, null);
    assert.deepEqual(empty.json.data, plain.json.data);
  });

  test('GET /v1/api/payouts?limit=&offset= applies the defaults (20, 0)', async () => {
    const res = await emu.request('GET', '/v1/api/payouts?limit=&offset=');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.limit, 20);
    assert.equal(res.json.data.offset, 0);
    assert.ok(res.json.data.payouts.length >= 1);
  });

  test('an unknown name is refused even when empty, and a repeated name stays an error', async () => {
    const unknown = await emu.request('GET', '/v1/api/payments?stauts=');
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal(unknown.json.error.code, 'VALIDATION_ERROR');
    assert.match(unknown.json.error.message, /^query: unknown parameter "stauts"/);
    const none = await emu.request('GET', '/v1/api/payment-links/by-code/nope?x=');
    assert.equal(none.status, 422, none.text);
    assert.match(none.json.error.message, /^query: unknown parameter "x" \(this route takes none\)/);
    const twice = await emu.request('GET', '/v1/api/payments?limit=&limit=5');
    assert.equal(twice.status, 422, twice.text);
    assert.match(twice.json.error.message, /^limit: /);
  });

  test('a value that is not empty is still checked', async () => {
    const bad = await emu.request('GET', '/v1/api/payments?status=&limit=0');
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.json.error.message, /^limit: /);
  });
});

describe('control API', () => {
  test('GET /_emulator/events?merchant_id=&environment=&type= lists every event, like no filter', async () => {
    const plain = await control('/events');
    const empty = await control('/events?merchant_id=&environment=&type=');
    assert.equal(empty.status, 200, empty.text);
    assert.ok(plain.json.data.events.length >= 3);
    assert.deepEqual(empty.json.data, plain.json.data);
  });

  test('optional limits fall back to their defaults', async () => {
    const log = await control('/faults/log?limit=');
    assert.equal(log.status, 200, log.text);
    const wallets = await control('/wallets?merchant_id=mer_acme&environment=&entries=');
    assert.equal(wallets.status, 200, wallets.text);
    assert.ok(wallets.json.data.wallets.some((w: { environment: string }) => w.environment === 'live'), 'no environment filter: both environments');
  });

  test('an empty required parameter is a missing one', async () => {
    const res = await control('/payees?merchant_id=');
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    assert.match(res.json.error.message, /^merchant_id: /);
  });
});

describe('live stream', () => {
  test('GET /emulator/stream?types=&cursor=&from= opens a live stream of every type', async () => {
    const res = await new Promise<IncomingMessage>((ok, fail) => {
      const req = httpRequest(`${emu.baseUrl}/emulator/stream?types=&cursor=&from=`, { headers: { authorization: `Bearer ${KEYS.acmeTest}` } }, ok);
      req.once('error', fail);
      req.end();
    });
    try {
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/event-stream/);
    } finally {
      res.destroy();
    }
  });
});
