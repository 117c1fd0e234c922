import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { merchantBalance } from '../helpers/balances.js';

// The doors of every surface that is not the merchant API (emulator/http/local-guard.ts), with
// the exact headers a browser, a DNS-rebinding page or a sloppy client sends.

let emu: TestEmulator;
let port: string;
before(async () => {
  emu = await startTestEmulator();
  port = new URL(emu.baseUrl).port;
});
after(() => emu.stop());

const TOP_UP = JSON.stringify({ merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 777 });
const raw = (method: string, path: string, headers: Record<string, string>, body?: string) => rawRequest(emu.baseUrl, method, path, { headers, body });

function assertRefused(res: RawResponse, why: RegExp) {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.json?.success, false, res.text);
  assert.equal(res.json.error.code, 'FORBIDDEN');
  assert.match(res.json.error.message, why);
  assert.match(String(res.headers['x-trace-id']), /^trc_/);
}

describe('control API', () => {
  test('a cross-site text/plain POST to top-up with a foreign or null Origin is refused and moves no money', async () => {
    const before = await merchantBalance(emu, 'mer_acme', 'test', 'USD');
    for (const origin of ['http://evil.example', 'null', `http://localhost:${Number(port) + 1}`, `https://127.0.0.1:${port}`]) {
      const res = await raw('POST', '/_emulator/wallets/top-up', { 'content-type': 'text/plain', origin }, TOP_UP);
      assertRefused(res, /Origin/);
    }
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), before);
    // The emulator's own origin (what the dashboard's pages send) and no Origin (curl) still work.
    const own = await raw('POST', '/_emulator/wallets/top-up', { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` }, TOP_UP);
    assert.equal(own.status, 200, own.text);
    const viaLocalhost = await raw('POST', '/_emulator/wallets/top-up', { host: `localhost:${port}`, origin: `http://localhost:${port}` }, TOP_UP);
    assert.equal(viaLocalhost.status, 200, viaLocalhost.text);
    const curl = await raw('POST', '/_emulator/wallets/top-up', {}, TOP_UP);
    assert.equal(curl.status, 200, curl.text);
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), before + 3 * 777);
  });

  test("an Origin counts only when it is exactly the emulator's: a trailing dot, a path, userinfo or a mismatched default port is refused", async () => {
    const before = await merchantBalance(emu, 'mer_acme', 'test', 'USD');
    const variants: Array<[string, Record<string, string>]> = [
      ['trailing dot', { origin: `http://127.0.0.1.:${port}` }],
      ['a path', { origin: `http://127.0.0.1:${port}/x` }],
      ['a trailing slash', { origin: `http://127.0.0.1:${port}/` }],
      ['userinfo', { origin: `http://user@127.0.0.1:${port}` }],
      ['the default port spelt out', { host: 'localhost', origin: 'http://localhost:80' }],
      ['the default port left out', { host: 'localhost:80', origin: 'http://localhost' }],
    ];
    for (const [what, headers] of variants) {
      const res = await raw('POST', '/_emulator/wallets/top-up', { 'content-type': 'application/json', ...headers }, TOP_UP);
      assertRefused(res, /Origin/);
      assert.equal(res.headers['svc-guard'], 'origin', what);
    }
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), before, 'no money moved');
  });

  test('GET /_emulator/keys under a foreign Host (DNS rebinding) returns no key', async () => {
    for (const host of ['attacker.example', `attacker.example:${port}`, `localhost.attacker.example:${port}`, '127.0.0.1.nip.io', `[::2]:${port}`]) {
      const res = await raw('GET', '/_emulator/keys', { host });
      assertRefused(res, /Host/);
      assert.doesNotMatch(res.text, /svc_(test|live)_/);
    }
    for (const host of [`localhost:${port}`, 'localhost', `LOCALHOST:${port}`, `127.0.0.1:${port}`, '127.0.0.1', `[::1]:${port}`]) {
      const res = await raw('GET', '/_emulator/keys', { host });
      assert.equal(res.status, 200, `${host}: ${res.text}`);
      assert.match(res.text, /svc_live_/);
    }
  });

  test('any Authorization header at all is refused, whatever its scheme or spacing', async () => {
    const before = await merchantBalance(emu, 'mer_acme', 'test', 'USD');
    for (const authorization of [`Bearer ${KEYS.acmeTest}`, KEYS.acmeTest, `Bearer\t${KEYS.acmeTest}`, 'Token abc', 'Basic dXNlcjpwYXNz', 'Bearer', '']) {
      const res = await raw('POST', '/_emulator/wallets/top-up', { authorization }, TOP_UP);
      assertRefused(res, /Authorization/);
    }
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), before);
  });

  test('a payroll run cannot be approved cross-site, even with the right PIN', async () => {
    const created = await emu.request('POST', '/v1/api/payroll/runs', {
      body: { currency: 'USD', payments: [{ external_ref: 'g-1', payee_phone: '+231770000201', amount_cents: 100 }] },
      headers: { 'Idempotency-Key': idem('run') },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json.data.run.id as string;
    const res = await raw('POST', `/_emulator/payroll-runs/${id}/approve`, { 'content-type': 'text/plain', origin: 'http://evil.example' }, JSON.stringify({ pin: '1357' }));
    assertRefused(res, /Origin/);
    const run = await emu.request('GET', `/v1/api/payroll/runs/${id}`);
    assert.equal(run.json.data.run.status, 'pending_approval');
  });
});

describe('the other local surfaces', () => {
  test('the live stream checks Host and Origin but still takes its merchant key', async () => {
    const auth = `Bearer ${KEYS.acmeTest}`;
    assertRefused(await raw('GET', '/emulator/stream', { host: 'attacker.example', authorization: auth }), /Host/);
    assertRefused(await raw('GET', '/emulator/stream', { origin: 'http://evil.example', authorization: auth }), /Origin/);
    // Past the door, the key is checked as before (the happy path is test/webhooks/stream.test.ts).
    const noKey = await raw('GET', '/emulator/stream', {});
    assert.equal(noKey.status, 401, noKey.text);
  });

  test('the hosted pages: Host checked on every request, Origin on form posts only', async () => {
    assertRefused(await raw('GET', '/checkout/PL-NOPE', { host: `attacker.example:${port}` }), /Host/);
    // A payer arrives by navigation from anywhere: a GET with another site's Origin is served.
    const nav = await raw('GET', '/checkout/PL-NOPE', { origin: 'http://shop.example' });
    assert.equal(nav.status, 404);
    assert.match(String(nav.headers['content-type']), /text\/html/);
    const post = await raw('POST', '/checkout/PL-NOPE/pay', { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, 'method=card');
    assertRefused(post, /Origin/);
    const own = await raw('POST', '/checkout/PL-NOPE/pay', { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/x-www-form-urlencoded' }, 'method=card');
    assert.equal(own.status, 404, 'past the door, the page answers as before');
  });

  test('the OpenAPI document checks Host', async () => {
    for (const path of ['/openapi.yaml', '/openapi.json']) {
      assertRefused(await raw('GET', path, { host: 'attacker.example' }), /Host/);
      assert.equal((await raw('GET', path, { host: `localhost:${port}` })).status, 200);
    }
  });

  test('the merchant API is not behind the guard: any Host or Origin reaches /v1', async () => {
    const res = await raw('GET', '/v1/api/payments?limit=1', { host: 'api.example', origin: 'http://evil.example', authorization: `Bearer ${KEYS.acmeTest}` });
    assert.equal(res.status, 200, res.text);
  });
});

describe('bound to every interface', () => {
  test('an IP-literal Host is accepted (no name to rebind), a name still is not', async () => {
    const wide = await startTestEmulator({ host: '0.0.0.0' });
    try {
      const p = new URL(wide.baseUrl).port;
      const ok = await rawRequest(`http://127.0.0.1:${p}`, 'GET', '/openapi.json', { headers: { host: `10.9.8.7:${p}` } });
      assert.equal(ok.status, 200, ok.text);
      const named = await rawRequest(`http://127.0.0.1:${p}`, 'GET', '/openapi.json', { headers: { host: `attacker.example:${p}` } });
      assertRefused(named, /Host/);
    } finally {
      await wide.stop();
    }
    // Bound to loopback, another address in Host is refused.
    assertRefused(await raw('GET', '/openapi.json', { host: `10.9.8.7:${port}` }), /Host/);
  });
});
