import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { verifySignature } from '../../src/webhooks/signature.js';
import { CHROMIUM } from '../pages/browser.js';
import { createNetnsPair, netnsUnavailable, runSvcOn, startEmulatorOn, startPeer, type NetEmulator, type NetnsPair, type Peer, type PeerRequest } from '../helpers/netns.js';

// Issue 26's proof on two real network hosts: two network namespaces joined by a veth pair
// (bench/lib/netns.ts), each with its own hosts file. The built emulator runs on `svc`
// (--host 0.0.0.0, --allow-host svc, --public-url http://svc:<port>, --control-token), and
// everything else runs on `app`: the merchant's client and webhook receiver (net-peer.ts),
// the built CLI, and Chromium. Every request here crosses the veth link from 10.231.0.2 to
// 10.231.0.1, so the emulator sees a peer that is not loopback. Needs root (namespaces);
// without it the whole file skips and says why.

const PORT = 4010;
const RECEIVER_PORT = 4020;
const SVC = { host: 'svc', port: PORT };
const PUBLIC_URL = `http://svc:${PORT}`;
const TOKEN = `svc_ctl_${randomBytes(24).toString('base64url')}`;
const TEST_KEY = 'svc_test_acme0all0scopes0000000000001';
const LIVE_KEY = 'svc_live_acme0all0scopes0000000000001';
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'];

const unavailable = netnsUnavailable();

describe('the emulator on one network host, its users on another', { skip: unavailable ? `skipped: ${unavailable}` : false }, () => {
  let pair: NetnsPair;
  let emu: NetEmulator;
  let peer: Peer;
  let scratch: string;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'svc-net-'));
    pair = createNetnsPair();
    // `app` is on the allow list too: a test-key webhook endpoint may use plain http:// only to
    // loopback or to an allowed name. A manual clock: the test moves time itself and reads
    // exact differences back.
    const args = ['--host', '0.0.0.0', '--port', String(PORT), '--data-dir', join(scratch, 'data'), '--allow-host', 'svc', '--allow-host', 'app', '--public-url', PUBLIC_URL, '--control-token', TOKEN, '--clock', 'manual', '--quiet'];
    [emu, peer] = await Promise.all([startEmulatorOn(pair, pair.svc, args), startPeer(pair, pair.app, RECEIVER_PORT)]);
  });
  after(async () => {
    await peer?.close();
    await emu?.stop();
    pair?.destroy();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const call = (method: string, path: string, opts?: PeerRequest) => peer.request(method, SVC, path, opts);
  const withToken = { 'svc-control-token': TOKEN };
  const keyed = (key: string, idem?: string) => ({ authorization: `Bearer ${key}`, ...(idem ? { 'x-idempotency-key': `${idem}-${randomBytes(6).toString('hex')}` } : {}) });
  const clockNow = async () => {
    const res = await call('GET', '/_emulator/clock', { headers: withToken });
    assert.equal(res.status, 200, res.body);
    return Date.parse(res.json.data.now);
  };

  test('the ready line hands out URLs under the public URL, not the bound address', () => {
    assert.equal(emu.ready.base_url, PUBLIC_URL);
    assert.equal(emu.ready.public_url, PUBLIC_URL);
    assert.ok(emu.ready.checkout_url.startsWith(`${PUBLIC_URL}/`), emu.ready.checkout_url);
  });

  test('from the app host, the allowed name works on every surface', async () => {
    const payments = await call('GET', '/v1/api/payments', { headers: keyed(TEST_KEY) });
    assert.equal(payments.status, 200, payments.body);
    assert.equal(payments.json.success, true);

    // A URL the emulator hands out names the public URL, and opens from the other host.
    const created = await call('POST', '/v1/api/mandates', { headers: keyed(LIVE_KEY, 'mandate'), body: { rail: 'card', customer_ref: 'cust_net', currency: 'USD', max_amount_cents: 5000 } });
    assert.equal(created.status, 201, created.body);
    const approval = new URL(created.json.data.approval_url);
    assert.equal(approval.origin, PUBLIC_URL);
    const page = await call('GET', approval.pathname);
    assert.equal(page.status, 200, page.body.slice(0, 300));
    assert.match(String(page.headers['content-type']), /text\/html/);

    const link = await call('POST', '/v1/api/payment-links', { headers: keyed(TEST_KEY, 'link'), body: { title: 'Across the link', amount: 900, currency: 'USD' } });
    assert.equal(link.status, 201, link.body);
    const checkout = await call('GET', `${new URL(emu.ready.checkout_url).pathname}/${link.json.data.link_code}`);
    assert.equal(checkout.status, 200, checkout.body.slice(0, 300));
    assert.match(checkout.body, /Across the link/);

    const openapi = await call('GET', '/openapi.yaml');
    assert.equal(openapi.status, 200, openapi.body.slice(0, 300));
    assert.ok(openapi.body.startsWith('openapi: "3.1'), openapi.body.slice(0, 100));
    // The document's server is the public URL too, so a generated client calls the right host.
    assert.ok(openapi.body.includes(`- url: "${PUBLIC_URL}"`), 'servers names the public URL');

    const health = await call('GET', '/_emulator/health', { headers: withToken });
    assert.equal(health.status, 200, health.body);
    assert.equal(health.json.data.service, 'svc-emulator');

    const dashboard = await call('GET', '/dashboard', { headers: withToken });
    assert.equal(dashboard.status, 200, dashboard.body.slice(0, 300));
    assert.match(String(dashboard.headers['content-type']), /text\/html/);
  });

  test('a name that is not on the allow list is refused on every surface, token or not', async () => {
    const hostHeader = `evil.example:${PORT}`;
    const link = await call('POST', '/v1/api/payment-links', { headers: keyed(TEST_KEY, 'link'), body: { title: 'Rebound', amount: 100, currency: 'USD' } });
    assert.equal(link.status, 201, link.body);
    for (const path of [`/checkout/${link.json.data.link_code}`, '/openapi.yaml', '/_emulator/health', '/dashboard', '/emulator/stream', '/dashboard/stream']) {
      const res = await call('GET', path, { hostHeader, headers: withToken });
      assert.equal(res.status, 403, `${path}: ${res.status} ${res.body.slice(0, 200)}`);
      assert.equal(res.headers['svc-guard'], 'host', path);
      assert.equal(res.json.error.code, 'FORBIDDEN', path);
      assert.match(res.json.error.message, /evil\.example/, path);
    }
  });

  test('the control API answers the other host only with the token, and only in the header', async () => {
    const wrong: Record<string, string>[] = [{}, { 'svc-control-token': `${TOKEN}x` }, { 'svc-control-token': '' }];
    for (const headers of wrong) {
      const res = await call('GET', '/_emulator/health', { headers });
      assert.equal(res.status, 401, `${JSON.stringify(headers)}: ${res.body}`);
      assert.equal(res.headers['svc-guard'], 'token');
      assert.equal(res.json.success, false);
      assert.equal(res.json.error.code, 'UNAUTHORIZED');
      assert.match(res.json.error.message, /--control-token/);
      // The login link it suggests is a real one: the public URL's, not a placeholder.
      assert.ok(res.json.error.message.includes(`${PUBLIC_URL}/dashboard?token=<token>`), res.json.error.message);
      assert.doesNotMatch(res.json.error.message, /\{public_url\}/);
    }

    // The dashboard, opened from here with the token, says how it was opened (not "loopback only").
    const dashboard = await call('GET', '/dashboard', { headers: withToken });
    assert.equal(dashboard.status, 200, dashboard.body);
    assert.match(dashboard.body, /<footer>[^<]*opened from another host with the control token/);

    // A merchant key is never a way in, token or not.
    const keyedControl = await call('GET', '/_emulator/health', { headers: { ...withToken, ...keyed(TEST_KEY) } });
    assert.equal(keyedControl.status, 403, keyedControl.body);
    assert.equal(keyedControl.headers['svc-guard'], 'authorization');

    // An action: refused without the token (the clock does not move), done with it.
    const before = await clockNow();
    const refused = await call('POST', '/_emulator/clock/advance', { body: { ms: 60_000 } });
    assert.equal(refused.status, 401, refused.body);
    assert.equal(await clockNow(), before);
    const advanced = await call('POST', '/_emulator/clock/advance', { headers: withToken, body: { ms: 60_000 } });
    assert.equal(advanced.status, 200, advanced.body);
    assert.equal(await clockNow(), before + 60_000);

    // A token in a URL ends up in logs and histories: refused on the control API and the streams.
    for (const path of [`/_emulator/clock?token=${TOKEN}`, `/emulator/stream?token=${TOKEN}`]) {
      const res = await call('GET', path);
      assert.equal(res.status, 401, `${path}: ${res.body}`);
      assert.equal(res.headers['svc-guard'], 'token', path);
      assert.match(res.json.error.message, /Svc-Control-Token header/, path);
    }
  });

  test('the CLI on the app host reaches the emulator with the token, and without it says why and how to fix it', () => {
    const cwd = mkdtempSync(join(scratch, 'cli-'));
    const status = ['emulator', 'status', '--base-url', PUBLIC_URL];
    const viaEnv = runSvcOn(pair, pair.app, status, { cwd, env: { SVC_CONTROL_TOKEN: TOKEN } });
    assert.equal(viaEnv.status, 0, viaEnv.stderr);
    assert.match(viaEnv.stdout, /status\s+ok/);
    const viaFlag = runSvcOn(pair, pair.app, [...status, '--control-token', TOKEN], { cwd });
    assert.equal(viaFlag.status, 0, viaFlag.stderr);

    const without = runSvcOn(pair, pair.app, status, { cwd });
    assert.notEqual(without.status, 0);
    assert.doesNotMatch(without.stderr, /not an svc emulator/);
    // The guard's reason, then the fix.
    assert.match(without.stderr, /need the control token/);
    assert.match(without.stderr, /--control-token/);
    assert.match(without.stderr, /SVC_CONTROL_TOKEN/);

    // links create against the emulator by its name: the payer's URL is the one it hands out.
    const created = runSvcOn(pair, pair.app, ['links', 'create', '--title', 'From app', '--amount', '500'], { cwd, env: { SVC_BASE_URL: PUBLIC_URL, SVC_API_KEY: TEST_KEY } });
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, new RegExp(`checkout url\\s+${PUBLIC_URL}/checkout/PL-\\w+`));

    // On the emulator's own host, over loopback, no token is needed (as before issue 26).
    const local = runSvcOn(pair, pair.svc, ['emulator', 'status', '--base-url', `http://127.0.0.1:${PORT}`], { cwd });
    assert.equal(local.status, 0, local.stderr);
  });

  test('a test endpoint at http://app:<port> gets a signed delivery across the link; a live one must be https', async () => {
    const url = `http://app:${RECEIVER_PORT}/hook`;
    const live = await call('POST', '/v1/api/webhook-endpoints', { headers: keyed(LIVE_KEY), body: { url, events: ['payment.completed'] } });
    assert.equal(live.status, 422, live.body);

    const ep = await call('POST', '/v1/api/webhook-endpoints', { headers: keyed(TEST_KEY), body: { url, events: ['payment.completed'] } });
    assert.equal(ep.status, 201, ep.body);
    const secret: string = ep.json.data.secret;
    const link = await call('POST', '/v1/api/payment-links', { headers: keyed(TEST_KEY, 'link'), body: { title: 'Hooked', amount: 1500, currency: 'USD' } });
    assert.equal(link.status, 201, link.body);
    const paid = await call('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { headers: keyed(TEST_KEY), body: { outcome: 'completed', method: 'card' } });
    assert.equal(paid.status, 201, paid.body);
    // Whatever the first attempt's schedule, the clock is moved to it (a no-op when it is due now).
    const moved = await call('POST', '/_emulator/clock/advance-to-next-delivery', { headers: withToken, body: {} });
    assert.equal(moved.status, 200, moved.body);

    const [hook] = await peer.waitFor(1);
    assert.equal(hook.method, 'POST');
    assert.equal(hook.path, '/hook');
    // The receiver's socket saw the emulator's address on the link: it came across the veth pair.
    assert.equal(hook.peer, pair.svc.address);
    const verified = verifySignature({ secret, header: hook.headers['svc-signature'] as string, body: hook.body, now: Math.floor((await clockNow()) / 1000) });
    assert.equal(verified.ok, true, JSON.stringify(verified));
    const event = JSON.parse(hook.body);
    assert.equal(event.type, 'payment.completed');
    assert.equal(event.data.payment.id, paid.json.data.id);
  });

  /** Chromium inside the app namespace. */
  function launchOnApp(): Promise<Browser> {
    // playwright-core starts `executablePath` with the browser's flags and talks to it over
    // pipes; this wrapper puts the real browser inside the app namespace (ip netns exec keeps
    // the pipes' descriptors).
    const wrapper = join(scratch, 'chromium-in-app');
    writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${pair.app.ns} ${CHROMIUM} "$@"\n`);
    chmodSync(wrapper, 0o755);
    return chromium.launch({ executablePath: wrapper, headless: true, args: BROWSER_ARGS });
  }
  const needsChromium = { skip: existsSync(CHROMIUM) ? false : `needs ${CHROMIUM} (node scripts/ensure-test-tools.mjs installs it)` };

  test('a payer\'s Chromium on the app host pays a link on hosted checkout through the public URL', needsChromium, async () => {
    const created = await call('POST', '/v1/api/payment-links', { headers: keyed(TEST_KEY, 'co'), body: { title: 'Across the link', amount: 900, currency: 'USD' } });
    assert.equal(created.status, 201, created.body);
    const checkoutUrl = `${emu.ready.checkout_url}/${created.json.data.link_code}`;
    assert.ok(checkoutUrl.startsWith(`${PUBLIC_URL}/checkout/PL-`), checkoutUrl);
    let browser: Browser | undefined;
    try {
      browser = await launchOnApp();
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      const opened = await page.goto(checkoutUrl);
      assert.equal(opened?.status(), 200);
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry').fill('12/34');
      await page.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: 'Pay $9.00' }).click();
      await page.getByText('Payment received').waitFor();
      assert.ok(page.url().startsWith(PUBLIC_URL), page.url());
    } finally {
      await browser?.close();
    }
    const link = await call('GET', `/v1/api/payment-links/${created.json.data.id}`, { headers: keyed(TEST_KEY) });
    assert.equal(link.json.data.payment_count, 1, link.body);
    assert.equal(link.json.data.total_collected, 900);
  });
  // The dashboard from the app host (its login link, session cookie, actions and log out):
  // test/network/dashboard-session.test.ts.
});
