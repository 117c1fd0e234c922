import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { simulatePayment } from '../webhooks/receiver.js';

// The dashboard's doors over raw HTTP: the same guard as the control API (Host, Origin,
// Authorization), its headers (no caching, no framing, scripts from itself only), its 404s,
// and its keyless live feed, which carries every merchant's events.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const PAGES = ['/dashboard', '/dashboard/endpoints', '/dashboard/records', '/dashboard/wallets', '/dashboard/approvals', '/dashboard/time', '/dashboard/app.js'];

test('every page answers a loopback Host with no Origin, with a strict policy', async () => {
  for (const path of PAGES) {
    const res = await rawRequest(emu.baseUrl, 'GET', path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers['cache-control'], 'no-store', path);
    if (path.endsWith('.js')) continue;
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(res.text, /https?:\/\/(?!127\.0\.0\.1|localhost)[a-z]/i, `${path} loads nothing from another host`);
  }
});

test('a foreign Host, a foreign Origin or an Authorization header is refused, like the control API', async () => {
  const port = new URL(emu.baseUrl).port;
  const refused: Array<Record<string, string>> = [{ host: `attacker.example:${port}` }, { origin: 'http://127.0.0.1:1' }, { origin: 'null' }, { authorization: `Bearer ${KEYS.acmeTest}` }];
  for (const headers of refused) {
    for (const path of ['/dashboard', '/dashboard/stream', '/_emulator/clock']) {
      const res = await rawRequest(emu.baseUrl, 'GET', path, { headers });
      assert.equal(res.status, 403, `${path} with ${JSON.stringify(headers)}`);
      assert.equal(res.json.error.code, 'FORBIDDEN');
    }
  }
  // Its own Origin is fine (the page's script posting to the control API).
  assert.equal((await rawRequest(emu.baseUrl, 'GET', '/dashboard', { headers: { origin: emu.baseUrl } })).status, 200);
});

test('unknown pages and records are 404 pages, not crashes', async () => {
  for (const path of ['/dashboard/nope', '/dashboard/deliveries/dlv_nope', '/dashboard/records/payments/pay_nope', '/dashboard/records/users/anything']) {
    const res = await rawRequest(emu.baseUrl, 'GET', path);
    assert.equal(res.status, 404, path);
    assert.match(String(res.headers['content-type']), /text\/html/);
  }
  const bad = await rawRequest(emu.baseUrl, 'GET', '/dashboard/approvals?phone=not-a-phone');
  assert.equal(bad.status, 200);
  assert.match(bad.text, /not-a-phone is not a phone number/);
});

test("the dashboard feed streams every merchant's events without a key", async () => {
  let text = '';
  let opened!: () => void;
  let twoEvents!: () => void;
  const open = new Promise<void>((ok) => (opened = ok));
  const arrived = new Promise<void>((ok) => (twoEvents = ok));
  const req = httpRequest(new URL('/dashboard/stream', emu.baseUrl), (res) => {
    assert.equal(res.statusCode, 200);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes(': svc emulator stream')) opened();
      if ((text.match(/^event: event$/gm) ?? []).length >= 2) twoEvents();
    });
  });
  req.end();
  try {
    await open;
    // Two merchants: a merchant key's stream would carry only one of these.
    await simulatePayment(emu);
    await simulatePayment(emu, 'completed', KEYS.globexTest);
    await arrived;
    const data = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]) as { type: string; body: string });
    const payments = data.filter((d) => d.type === 'payment.completed');
    assert.equal(payments.length, 2);
  } finally {
    req.destroy();
  }
});
