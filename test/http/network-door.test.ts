import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { idem, KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { runInProcess } from '../cli/run-in-process.js';
import { startEmulator, type EmulatorOptions } from '../../emulator/server.js';

// The emulator when other hosts can reach it (emulator/http/local-guard.ts, network-door.ts):
// names on the allow list are accepted on every surface and nothing else is; the public URL is
// the base of what it hands out; the control token, made up when it binds off loopback, logs a
// dashboard in once and is refused anywhere in a query string; test endpoints may use plain
// http:// to allowed names. What needs a peer on another host (the token being required) is
// tested across two network namespaces in test/network/.

const TOKEN = 'tok_0123456789abcdef_network_door';
const SURFACES = ['/_emulator/health', '/dashboard', '/openapi.yaml', '/checkout/PL-NOSUCH00'];

function assertGuard(res: RawResponse, status: number, reason: string, message: RegExp) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['svc-guard'], reason);
  assert.equal(res.json?.success, false, res.text);
  assert.equal(res.json.error.code, status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
  assert.match(res.json.error.message, message);
}

describe('allowed names', () => {
  let emu: TestEmulator;
  let port: string;
  before(async () => {
    emu = await startTestEmulator({ allowedHosts: ['SVC', '.corp.test'], controlToken: TOKEN });
    port = new URL(emu.localUrl).port;
  });
  after(() => emu.stop());
  const get = (path: string, host: string, headers: Record<string, string> = {}) => rawRequest(emu.localUrl, 'GET', path, { headers: { host: `${host}:${port}`, ...headers } });

  test('a listed name, a subdomain of a dotted entry and the domain itself reach every surface', async () => {
    for (const host of ['svc', 'a.corp.test', 'corp.test', 'localhost']) {
      for (const path of SURFACES) {
        const res = await get(path, host);
        assert.notEqual(res.status, 403, `${host} ${path}: ${res.text}`);
        assert.equal(res.headers['svc-guard'], undefined, `${host} ${path}`);
      }
    }
  });

  test('an unlisted name is refused on every surface, naming the flag that would accept it', async () => {
    for (const host of ['attacker.example', 'svc.attacker.example', 'xcorp.test', 'svcx']) {
      for (const path of [...SURFACES, '/emulator/stream', '/dashboard/stream']) {
        assertGuard(await get(path, host), 403, 'host', new RegExp(`--allow-host ${host.replace(/\./g, '\\.')}`));
      }
    }
  });

  test('the dashboard opened from this machine says so in its footer: loopback, no token needed', async () => {
    const res = await get('/dashboard', 'localhost');
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /<footer>[^<]*opened from this machine \(loopback, no token needed\)/);
  });

  test('the merchant API is not behind the door: any Host works with a key', async () => {
    const res = await rawRequest(emu.localUrl, 'GET', '/v1/api/webhook-endpoints', { headers: { host: `attacker.example:${port}`, authorization: `Bearer ${KEYS.acmeTest}` } });
    assert.equal(res.status, 200, res.text);
  });

  test('a control token in a query string is refused outside the dashboard login link', async () => {
    for (const path of [`/_emulator/health?token=${TOKEN}`, `/_emulator/clock?token=${TOKEN}`, `/emulator/stream?token=${TOKEN}`]) {
      assertGuard(await get(path, 'svc'), 401, 'token', /Svc-Control-Token header/);
    }
  });

  test('the dashboard login link trades the token for a session cookie (HttpOnly, SameSite=Strict, named by the port) and redirects without the token', async () => {
    const res = await get(`/dashboard/time?token=${TOKEN}&view=1`, 'svc');
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.location, '/dashboard/time?view=1');
    const cookie = String(res.headers['set-cookie']);
    const [, name, value] = /^([^=]+)=([^;]*);/.exec(cookie) ?? [];
    assert.equal(name, `svc_session_${port}`);
    assert.match(value!, /^[A-Za-z0-9_-]{43}$/, 'an opaque random value (256 bits)');
    assert.ok(!cookie.includes(TOKEN), 'the token never goes into a cookie');
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\//);
    assert.match(cookie, /; Max-Age=43200/, '12 hours');
    assert.equal(res.headers['cache-control'], 'no-store');
    // Each login is a session of its own.
    const again = await get(`/dashboard?token=${TOKEN}`, 'svc');
    assert.notEqual(/=([^;]*);/.exec(String(again.headers['set-cookie']))?.[1], value);
    // A wrong token logs nobody in and sets nothing.
    const wrong = await get('/dashboard?token=tok_wrong_wrong_wrong_wrong', 'svc');
    assertGuard(wrong, 401, 'token', /not the emulator's control token/);
    assert.equal(wrong.headers['set-cookie'], undefined);
    // POST with a token in the query is no login.
    const post = await rawRequest(emu.localUrl, 'POST', `/dashboard?token=${TOKEN}`, { headers: { host: `svc:${port}` } });
    assertGuard(post, 401, 'token', /query string/);
  });

  test('the login redirect is always a path of the dashboard, never another site (open redirect)', async () => {
    // Request targets sent byte for byte (a URL object would resolve the dot segments first).
    const exact = (target: string) =>
      new Promise<{ status: number; location: string | undefined }>((ok, fail) => {
        const req = httpRequest({ host: '127.0.0.1', port: Number(port), path: target, headers: { host: `svc:${port}` } }, (res) => {
          res.resume();
          ok({ status: res.statusCode ?? 0, location: res.headers.location });
        });
        req.on('error', fail).end();
      });
    for (const target of ['/dashboard/..//evil.example/', '/dashboard/../..//evil.example/x', '/dashboard/%2e%2e//evil.example/', '/dashboard/..%2f%2fevil.example/', '/dashboard/../\\evil.example/', '/dashboard/..//evil.example/dashboard', 'http://evil.example/dashboard/..//evil.example/']) {
      const res = await exact(`${target}?token=${TOKEN}`);
      assert.equal(res.status, 303, target);
      assert.match(String(res.location), /^\/dashboard(\/|\?|$)/, `${target} → ${res.location}`);
      // Resolved as a browser does, it stays on the emulator.
      assert.equal(new URL(String(res.location), `http://svc:${port}/dashboard/x`).origin, `http://svc:${port}`, target);
    }
    // A page of the dashboard keeps its path and other parameters.
    assert.equal((await exact(`/dashboard/records/payments?q=pay_1&token=${TOKEN}`)).location, '/dashboard/records/payments?q=pay_1');
  });

  test('test endpoints may use plain http:// to a listed name; live ones may not; unlisted names never', async () => {
    const create = (key: string, url: string) => emu.request('POST', '/v1/api/webhook-endpoints', { key, body: { url, events: ['payment.completed'] } });
    const ok = await create(KEYS.acmeTest, 'http://svc:3000/webhooks');
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await create(KEYS.acmeTest, 'http://hooks.corp.test/in')).status, 201);
    const live = await create(KEYS.acmeLive, 'http://svc:3000/webhooks');
    assert.equal(live.status, 422, live.text);
    assert.match(live.json.error.message, /url: must be https:\/\//);
    const unlisted = await create(KEYS.acmeTest, 'http://app:3000/webhooks');
    assert.equal(unlisted.status, 422, unlisted.text);
    assert.match(unlisted.json.error.message, /--allow-host name \(svc, \.corp\.test\)/);
  });
});

describe('public URL', () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startTestEmulator({ publicUrl: 'https://svc.dev.example.test/' });
  });
  after(() => emu.stop());

  test('is the base of the ready line, checkout and approval URLs; its host is accepted', async () => {
    const info = emu.readyInfo();
    assert.equal(info.base_url, 'https://svc.dev.example.test');
    assert.equal(info.checkout_url, 'https://svc.dev.example.test/checkout');
    assert.equal(info.dashboard_url, 'https://svc.dev.example.test/dashboard');
    assert.equal(info.public_url, 'https://svc.dev.example.test');
    assert.equal(info.control_token, null, 'a loopback emulator makes up no token');
    const res = await rawRequest(emu.localUrl, 'POST', '/v1/api/mandates', {
      headers: { authorization: `Bearer ${KEYS.acmeLive}`, 'x-idempotency-key': idem(), 'content-type': 'application/json' },
      body: JSON.stringify({ rail: 'card', customer_ref: 'c1', currency: 'USD', max_amount_cents: 500 }),
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.json.data.approval_url, /^https:\/\/svc\.dev\.example\.test\/checkout\/mandate\/md/);
    const page = await rawRequest(emu.localUrl, 'GET', '/dashboard', { headers: { host: 'svc.dev.example.test' } });
    assert.equal(page.status, 200, page.text);
  });

  test("behind a TLS proxy the page's https origin is the emulator's own; others stay foreign", async () => {
    const post = (origin: string) => rawRequest(emu.localUrl, 'POST', '/_emulator/clock/advance', { headers: { host: 'svc.dev.example.test', origin, 'content-type': 'application/json' }, body: '{"by":"1s"}' });
    assert.equal((await post('https://svc.dev.example.test')).status, 200);
    assertGuard(await post('https://attacker.example'), 403, 'origin', /not the emulator's own/);
    assertGuard(await post('http://svc.dev.example.test:8443'), 403, 'origin', /not the emulator's own/);
    // Exactly the public URL's origin: not with its default port spelt out, a path or a trailing dot.
    for (const origin of ['https://svc.dev.example.test:443', 'https://svc.dev.example.test/', 'https://svc.dev.example.test.']) {
      assertGuard(await post(origin), 403, 'origin', /not the emulator's own/);
    }
  });
});

describe('bound off loopback', () => {
  test('makes up a control token, names a real address and writes both to emulator.json (0600)', async () => {
    const dataDir = tempDir();
    const emu = await startTestEmulator({ host: '0.0.0.0', dataDir });
    try {
      const info = emu.readyInfo();
      // 32 base64url characters: 192 random bits.
      assert.match(String(info.control_token), /^svc_ctl_[A-Za-z0-9_-]{32}$/);
      assert.equal(Buffer.from(String(info.control_token).slice(8), 'base64url').length, 24);
      assert.equal(emu.controlToken, info.control_token);
      assert.doesNotMatch(info.base_url, /0\.0\.0\.0/);
      assert.equal(emu.localUrl, `http://127.0.0.1:${new URL(info.base_url).port}`);
      const file = join(dataDir, 'emulator.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const discovery = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(discovery.control_token, info.control_token);
      assert.equal(discovery.local_url, emu.localUrl);
      // Loopback callers still need no token.
      const res = await rawRequest(emu.localUrl, 'GET', '/_emulator/health');
      assert.equal(res.status, 200, res.text);
    } finally {
      await emu.stop();
    }
  });

  test('a given token is kept, not printed, and stays in emulator.json only', async () => {
    const dataDir = tempDir();
    const emu = await startTestEmulator({ host: '0.0.0.0', dataDir, controlToken: TOKEN });
    try {
      assert.equal(emu.readyInfo().control_token, null);
      assert.equal(emu.controlToken, TOKEN);
      assert.equal(JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8')).control_token, TOKEN);
    } finally {
      await emu.stop();
    }
  });

  test('bad options start nothing and name the flag', async () => {
    const cases: Array<[EmulatorOptions, string]> = [
      [{ allowedHosts: ['http://svc:4242'] }, '--allow-host'],
      [{ allowedHosts: [''] }, '--allow-host'],
      [{ publicUrl: 'svc:4242' }, '--public-url'],
      [{ publicUrl: 'http://svc:4242/?x=1' }, '--public-url'],
      [{ controlToken: 'short' }, '--control-token'],
      [{ controlToken: 'has space in it 0123456789' }, '--control-token'],
      [{ controlToken: 'abababababababababababababababababab' }, '--control-token'],
    ];
    for (const [options, flag] of cases) {
      await assert.rejects(startEmulator({ port: 0, store: 'memory', ...options }), (err: Error) => err.message.includes(flag), JSON.stringify(options));
    }
  });
});

describe('CLI flags', () => {
  test('empty or malformed --allow-host, --public-url, --control-token and SVC_* values exit 2 naming the flag', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--allow-host', ''], {}, /--allow-host <name>.*is empty/],
      [['--allow-host', 'svc:4242'], {}, /--allow-host <name>.*not a host name/],
      // A list with an empty entry ("svc,") is svc, as SVC_ALLOWED_HOSTS reads it; one with no name at all is refused.
      [['--allow-host', ', ,'], {}, /--allow-host <name>.*not a host name/],
      [[], { SVC_ALLOWED_HOSTS: 'svc,http://x' }, /SVC_ALLOWED_HOSTS: .*not a host name/],
      [['--public-url', ''], {}, /--public-url <url>.*not an absolute URL/],
      [['--public-url', 'ftp://svc'], {}, /--public-url <url>.*http:\/\/ or https:\/\//],
      [[], { SVC_PUBLIC_URL: 'http://u:p@svc' }, /SVC_PUBLIC_URL: .*credentials/],
      [['--control-token', ''], {}, /--control-token <token>.*is empty/],
      [['--control-token', 'short'], {}, /--control-token <token>.*at least 32 .*characters of A-Z, a-z, 0-9, "_" and "-", with at least 10 different characters \(this one is 5 characters\)/],
      [['--control-token', '0123456789abcdef'], {}, /--control-token <token>.*at least 32/],
      [['--control-token', 'a'.repeat(40)], {}, /--control-token <token>.*at least 10 different characters \(this one has 1\)/],
      [['--control-token', `${'ab'.repeat(20)}.~`], {}, /--control-token <token>.*some of them not allowed/],
      [[], { SVC_CONTROL_TOKEN: 'aaaaaaaaaaaaaaaa' }, /SVC_CONTROL_TOKEN.*at least 32/],
    ];
    for (const [flags, env, message] of cases) {
      const r = await runInProcess(['emulator', 'start', '--port', '0', '--data-dir', tempDir(), ...flags], { env });
      assert.equal(r.code, 2, `${flags.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`);
      assert.match(r.stderr.replace(/\n/g, ' '), message);
    }
    const bad = await runInProcess(['payments', 'list', '--base-url', 'http://127.0.0.1:9', '--api-key', KEYS.acmeTest], { env: { SVC_CONTROL_TOKEN: 'bad token' } });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /SVC_CONTROL_TOKEN must be at least 32 \(at most 256\) characters of A-Z, a-z, 0-9, "_" and "-", with at least 10 different characters/);
  });
});
