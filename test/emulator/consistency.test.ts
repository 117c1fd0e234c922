import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { allRoutes } from '../../emulator/registry.js';
import { startReceiver, toNextDelivery, type Receiver } from '../webhooks/receiver.js';

// The same question gets the same kind of answer everywhere: one timestamp format, unknown
// query parameters, 401s with WWW-Authenticate, bodies whatever their Content-Type, and a
// second DELETE. Every check goes over HTTP.

let emu: TestEmulator;
let rx: Receiver;
before(async () => {
  emu = await startTestEmulator({ clockStart: Date.parse('2026-03-04T10:00:00Z') });
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await emu.stop();
});

const control = async (method: string, path: string, body?: unknown) => (await emu.request(method, `/_emulator${path}`, { key: null, body })).json.data;

async function ok(method: string, path: string, opts: Parameters<TestEmulator['request']>[2] = {}) {
  const res = await emu.request(method, path, opts);
  assert.ok(res.status === 200 || res.status === 201, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

const SIX_DIGITS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const TIMESTAMP_FIELD = /(_at|At|^since|^period_start|^now)$/;

/** Every timestamp-named string in `value`, with its path. */
function timestamps(value: unknown, path = '$', out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(value)) value.forEach((v, i) => timestamps(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && TIMESTAMP_FIELD.test(k)) out.push([`${path}.${k}`, v]);
      else timestamps(v, `${path}.${k}`, out);
    }
  }
  return out;
}

test('one timestamp format (UTC, six fraction digits, like created_at) on every record, echo and event', async () => {
  const seen: unknown[] = [];
  const keep = <T>(x: T) => (seen.push(x), x);
  await ok('POST', '/v1/api/webhook-endpoints', { body: { url: rx.url, events: ['payment.completed'] } }).then(keep);
  const link = keep(await ok('POST', '/v1/api/payment-links', { idempotencyKey: idem(), body: { title: 'ts', amount: 500, expires_at: '2030-01-01T01:00:00+01:00' } }));
  assert.equal(link.expires_at, '2030-01-01T00:00:00.000000Z', 'an echoed input time is normalized too');
  keep(await ok('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { outcome: 'completed' } }));
  keep(await ok('GET', '/v1/api/payments/summary?since=2026-03-04T11:00:00%2B01:00'));
  const mandate = keep(await ok('POST', '/v1/api/mandates', { idempotencyKey: idem(), body: { rail: 'card', customer_ref: 'c-ts', currency: 'USD', max_amount_cents: 1000 } }));
  keep(await ok('DELETE', `/v1/api/mandates/${mandate.mandate.id}`));
  const run = await ok('POST', '/v1/api/payroll/runs', { headers: { 'idempotency-key': idem() }, body: { currency: 'USD', payments: [{ external_ref: 'ts-1', payee_phone: '+231770000201', amount_cents: 100 }] } });
  await control('POST', `/payroll-runs/${run.run.id}/approve`, { pin: '1357' });
  keep(await ok('GET', `/v1/api/payroll/runs/${run.run.id}`));
  keep(await ok('POST', '/v1/api/payouts', { idempotencyKey: idem(), body: { payee_id: 'payee_ada', amount_cents: 100, currency: 'USD' } }));
  await emu.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '1m' } });
  keep(await ok('GET', '/v1/api/payouts'));
  const phone = '+231770000208';
  keep(await ok('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: phone } }));
  const otp = keep(await control('GET', `/otp/${encodeURIComponent(phone)}`));
  keep(await ok('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'TS', manager_phone: phone, otp: otp.messages[0].code } }));
  keep(await ok('POST', '/v1/gift-cards/redeem', { key: KEYS.acmeStation, body: { merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem() } }));
  keep(await ok('POST', '/v1/fleet-cards/redeem', { key: KEYS.acmeStation, body: { fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 1, idempotency_key: idem() } }));
  await toNextDelivery(emu);
  const [delivered] = await rx.waitFor(1);
  keep(JSON.parse(delivered.body));
  keep(await control('GET', `/deliveries/${delivered.headers['svc-delivery']}`));
  keep(await control('GET', '/clock'));
  keep(await ok('GET', '/v1/api/payments'));

  const found = timestamps(seen);
  // The walk reached the fields this is about (not a vacuous pass).
  for (const name of ['created_at', 'expires_at', 'since', 'revoked_at', 'approved_at', 'completed_at', 'paid_at', 'initiated_at', 'resolved_at', 'sent_at', 'period_start', 'createdAt', 'now']) {
    assert.ok(found.some(([p]) => p.endsWith(`.${name}`)), `no ${name} reached`);
  }
  for (const [path, value] of found) assert.match(value, SIX_DIGITS, path);
});

describe('unknown query parameters: 422 VALIDATION_ERROR naming them, on every /v1 route', () => {
  for (const route of allRoutes()) {
    test(`${route.method.toUpperCase()} ${route.path}`, async () => {
      const path = route.path.replace(/:[a-z_]+/g, 'x_1');
      const body = route.method === 'get' ? undefined : { idempotency_key: idem() };
      const res = await emu.request(route.method.toUpperCase(), `${path}?zz_unknown=1`, { idempotencyKey: route.method === 'get' ? undefined : idem(), headers: { 'idempotency-key': idem() }, body });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
      assert.match(res.json.error.message, /^query: unknown parameter "zz_unknown"/);
    });
  }
  test('the control API too', async () => {
    const res = await emu.request('GET', '/_emulator/clock?zz_unknown=1', { key: null });
    assert.equal(res.status, 422);
    assert.match(res.json.error.message, /"zz_unknown"/);
  });
});

test('every 401 carries WWW-Authenticate: Bearer; other errors do not', async () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['/v1/api/payments', {}],
    ['/v1/api/payments', { authorization: 'Basic abc' }],
    ['/v1/api/payments', { authorization: `Bearer ${KEYS.acmeRevoked}` }],
    ['/v1/api/payments', { authorization: 'Bearer svc_test_unknown000000000000000000001' }],
    ['/v1/gift-cards/redeem', {}],
    ['/emulator/stream', {}],
  ];
  for (const [path, headers] of cases) {
    const res = await rawRequest(emu.baseUrl, path === '/v1/gift-cards/redeem' ? 'POST' : 'GET', path, { headers });
    assert.equal(res.status, 401, `${path} ${JSON.stringify(headers)}`);
    assert.equal(res.headers['www-authenticate'], 'Bearer', path);
    assert.equal(res.json.error.code, 'UNAUTHORIZED');
  }
  const forbidden = await emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeReadOnly, idempotencyKey: idem(), body: { title: 'x' } });
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.headers.get('www-authenticate'), null);
});

describe('a body is read as JSON whatever its Content-Type, on every route', () => {
  const routes: Array<[string, string, Record<string, unknown>, string | null]> = [
    ['POST', '/v1/api/payment-links', { title: 'ct' }, KEYS.acmeTest],
    ['POST', '/v1/api/sub-merchants/start', { manager_phone: '+231770000201' }, KEYS.acmeTest],
    ['POST', '/v1/gift-cards/redeem', { merchant_wallet_id: 'mw_test_ada_usd', amount: 1 }, KEYS.acmeTest],
    ['POST', '/_emulator/clock/advance', { by: '1s' }, null],
  ];
  for (const [method, path, body, key] of routes) {
    test(`${method} ${path}`, async () => {
      const auth: Record<string, string> = key ? { authorization: `Bearer ${key}`, 'x-idempotency-key': idem() } : {};
      const withKey = (b: Record<string, unknown>) => (path.includes('redeem') ? { ...b, idempotency_key: idem() } : b);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/vnd.api+json']) {
        const res = await rawRequest(emu.baseUrl, method, path, { headers: { ...auth, 'x-idempotency-key': idem(), 'content-type': type }, body: JSON.stringify(withKey(body)) });
        assert.ok(res.status === 200 || res.status === 201, `${type}: ${res.status} ${res.text}`);
      }
      // A body that is not JSON is 422 VALIDATION_ERROR on every route, whatever its type.
      for (const [type, text] of [['application/x-www-form-urlencoded', 'title=a'], ['text/plain', 'hello'], ['application/json', '{"title":']]) {
        const res = await rawRequest(emu.baseUrl, method, path, { headers: { ...auth, 'x-idempotency-key': idem(), 'content-type': type }, body: text });
        assert.equal(res.status, 422, `${type}: ${res.text}`);
        assert.equal(res.json.error.code, 'VALIDATION_ERROR');
        assert.match(res.json.error.message, /^body: not valid JSON/);
      }
      // Only UTF-8 is read.
      const latin = await rawRequest(emu.baseUrl, method, path, { headers: { ...auth, 'x-idempotency-key': idem(), 'content-type': 'application/json; charset=latin1' }, body: JSON.stringify(withKey(body)) });
      assert.equal(latin.status, 422);
      assert.match(latin.json.error.message, /^body: unsupported charset/);
    });
  }
});

test('a second DELETE answers like the first: a revoked mandate and a deleted webhook endpoint alike', async () => {
  const mandate = await ok('POST', '/v1/api/mandates', { idempotencyKey: idem(), body: { rail: 'card', customer_ref: 'c-del', currency: 'USD', max_amount_cents: 1000 } });
  const endpoint = await ok('POST', '/v1/api/webhook-endpoints', { body: { url: 'https://localhost:9/del', events: ['payment.failed'] } });
  for (const path of [`/v1/api/mandates/${mandate.mandate.id}`, `/v1/api/webhook-endpoints/${endpoint.endpoint.id}`]) {
    const first = await emu.request('DELETE', path);
    const second = await emu.request('DELETE', path);
    assert.equal(first.status, 200, path);
    assert.equal(second.status, 200, path);
    assert.equal(second.text, first.text, path);
    const missing = await emu.request('DELETE', path.replace(/[^/]+$/, 'x_missing'));
    assert.equal(missing.status, 404, path);
  }
});
