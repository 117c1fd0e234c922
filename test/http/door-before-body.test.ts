import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';

// The door of every surface that is not /v1 (emulator/http/doors.ts) answers before any body
// is read: a cross-site form post or a rebinding page's request is refused with 403 and its
// Svc-Guard reason whatever the body holds, instead of failing in the JSON parser with 422
// (which said nothing about why the request could never have worked). /v1 has no such door
// and still reads the body first.

let emu: TestEmulator;
let port: string;
before(async () => {
  emu = await startTestEmulator();
  port = new URL(emu.baseUrl).port;
});
after(() => emu.stop());

const EVIL = 'http://evil.example';
const MALFORMED = '{"merchant_id": "mer_acme", ';

function assertRefused(res: RawResponse, reason: 'origin' | 'host', what: string) {
  assert.equal(res.status, 403, `${what}: ${res.text}`);
  assert.equal(res.headers['svc-guard'], reason, what);
  assert.equal(res.json?.error?.code, 'FORBIDDEN', what);
}

/** Acme's test USD balance, read through the control API. */
async function acmeUsd(): Promise<number> {
  const res = await rawRequest(emu.baseUrl, 'GET', '/_emulator/wallets?merchant_id=mer_acme&environment=test');
  assert.equal(res.status, 200, res.text);
  const wallet = (res.json.data.wallets as Array<{ currency: string; balance: number }>).find((w) => w.currency === 'USD');
  assert.ok(wallet, 'Acme has a test USD wallet');
  return wallet.balance;
}

test('a cross-site urlencoded form post to the control API is 403 Svc-Guard: origin, and moves no money', async () => {
  const balance = await acmeUsd();
  const res = await rawRequest(emu.baseUrl, 'POST', '/_emulator/wallets/top-up', {
    headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'merchant_id=mer_acme&environment=test&currency=USD&amount=5000',
  });
  assertRefused(res, 'origin', 'form post');
  assert.match(res.json.error.message, /evil\.example/);
  assert.equal(await acmeUsd(), balance);
});

test('a malformed JSON body under a foreign Host is 403 Svc-Guard: host, and moves no money', async () => {
  const balance = await acmeUsd();
  const res = await rawRequest(emu.baseUrl, 'POST', '/_emulator/wallets/top-up', {
    headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
    body: MALFORMED,
  });
  assertRefused(res, 'host', 'foreign Host');
  assert.equal(await acmeUsd(), balance);
});

test('every non-/v1 surface refuses a foreign Host or Origin before reading a malformed body', async () => {
  const surfaces: Array<[string, string]> = [
    ['POST', '/_emulator/clock/advance'],
    ['POST', '/dashboard/records'],
    ['GET', '/dashboard/records/payments/pay_nope'],
    ['GET', '/dashboard/stream'],
    ['GET', '/emulator/stream'],
    ['POST', '/checkout/PL-NOSUCH00'],
    ['GET', '/openapi.yaml'],
    ['GET', '/_emulator/openapi.json'],
    ['GET', '/redocly.yaml'],
  ];
  for (const [method, path] of surfaces) {
    // Content-Length given: node's client sends a GET body without one, which the server would read as the next request.
    const body = { headers: { 'content-type': 'application/json', 'content-length': String(MALFORMED.length) }, body: MALFORMED };
    assertRefused(await rawRequest(emu.baseUrl, method, path, { ...body, headers: { ...body.headers, origin: EVIL } }), 'origin', `${method} ${path} with a foreign Origin`);
    assertRefused(await rawRequest(emu.baseUrl, method, path, { ...body, headers: { ...body.headers, host: `evil.example:${port}` } }), 'host', `${method} ${path} with a foreign Host`);
  }
  // The same malformed body from the emulator's own origin reaches the parser, as before.
  const own = await rawRequest(emu.baseUrl, 'POST', '/_emulator/clock/advance', { headers: { origin: emu.baseUrl, 'content-type': 'application/json' }, body: MALFORMED });
  assert.equal(own.status, 422, own.text);
  assert.equal(own.json.error.code, 'VALIDATION_ERROR');
});

test('/v1 is unaffected: no door, the body is read first (422), and an Origin is not refused', async () => {
  const res = await rawRequest(emu.baseUrl, 'POST', '/v1/api/payment-links', { headers: { origin: EVIL, 'content-type': 'application/json' }, body: MALFORMED });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.code, 'VALIDATION_ERROR');
  assert.equal(res.headers['svc-guard'], undefined);
});
