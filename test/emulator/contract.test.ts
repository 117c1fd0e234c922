import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from '../helpers/emulator.js';
import { checkContract } from '../helpers/contract.js';

// The contract check of the test HTTP helper can fail: an answer /openapi.yaml does not
// document — a status, a field, a missing trace id — makes request() throw, so the test that
// received it fails.

const url = 'http://127.0.0.1:1/v1/api/payments';
const traced = () => new Headers({ 'x-trace-id': 'trc_test' });
const payment = { id: 'pay_1', amount: 100, currency: 'USD', status: 'completed', payment_method: 'card', environment: 'test', mandate_id: null, payment_link_id: 'pl_1', idempotency_key: 'k', created_at: '2026-01-01T00:00:00.000000Z' };

test('a documented answer passes and names its operation', () => {
  const body = { success: true, data: { payments: [payment], next_before: payment.created_at } };
  assert.deepEqual(checkContract('GET', url, { status: 200, headers: traced(), text: JSON.stringify(body), json: body }), { path: '/v1/api/payments', method: 'GET', status: 200 });
  // /v1/api/payments/summary is its own operation, not /v1/api/payments/{id}.
  const summary = { success: true, data: { summary: [], since: null } };
  assert.equal(checkContract('GET', `${url}/summary`, { status: 200, headers: traced(), text: '', json: summary })?.path, '/v1/api/payments/summary');
  assert.equal(checkContract('GET', 'http://127.0.0.1:1/_emulator/clock', { status: 200, headers: new Headers(), text: '', json: {} }), undefined, 'not a /v1 route');
});

test('an undocumented status, a field the schema does not allow, a wrong type or no X-Trace-ID fails', () => {
  const err = { success: false, error: { code: 'TEAPOT', message: 'no' } };
  assert.throws(() => checkContract('GET', url, { status: 418, headers: traced(), text: JSON.stringify(err), json: err }), /status 418 is not documented for GET \/v1\/api\/payments/);
  const extra = { success: true, data: { payments: [{ ...payment, surprise: 1 }], next_before: null } };
  assert.throws(() => checkContract('GET', url, { status: 200, headers: traced(), text: '', json: extra }), /does not match the document's schema/);
  const wrongType = { success: true, data: { payments: [{ ...payment, amount: '100' }], next_before: null } };
  assert.throws(() => checkContract('GET', url, { status: 200, headers: traced(), text: '', json: wrongType }), /amount/);
  const badTime = { success: true, data: { payments: [], next_before: 'yesterday' } };
  assert.throws(() => checkContract('GET', url, { status: 200, headers: traced(), text: '', json: badTime }), /next_before/);
  const ok = { success: true, data: { payments: [], next_before: null } };
  assert.throws(() => checkContract('GET', url, { status: 200, headers: new Headers(), text: '', json: ok }), /no X-Trace-ID/);
  // A documented status with a code the route does not list for it.
  const otherCode = { success: false, error: { code: 'LINK_CLOSED', message: 'no' } };
  assert.throws(() => checkContract('GET', url, { status: 422, headers: traced(), text: '', json: otherCode }), /error code LINK_CLOSED is not documented for GET \/v1\/api\/payments 422/);
  // A 404 on a route whose path has no id is undocumented unless the route declares it.
  assert.throws(() => checkContract('GET', url, { status: 404, headers: traced(), text: '', json: err }), /not documented/);
});

test('request() applies the check: a server answering off-contract fails the test that called it', async () => {
  const server = createServer((_req, res) => res.writeHead(418, { 'content-type': 'application/json', 'x-trace-id': 'trc_x' }).end('{"success":false,"error":{"code":"TEAPOT","message":"short and stout"}}'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await assert.rejects(request(base, 'GET', '/v1/api/payments'), /contract: GET \/v1\/api\/payments → 418/);
    // Paths the document does not describe are not checked.
    assert.equal((await request(base, 'GET', '/_emulator/anything')).status, 418);
  } finally {
    server.close();
  }
});
