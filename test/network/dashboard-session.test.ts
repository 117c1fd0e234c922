import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM } from '../pages/browser.js';
import { createNetnsPair, netnsUnavailable, startEmulatorOn, startPeer, type NetEmulator, type NetnsPair, type Peer, type PeerRequest } from '../helpers/netns.js';

// Issue 38's proof that a team can publish the emulator's port on a shared box: two network
// namespaces (bench/lib/netns.ts). The built emulator runs on `svc` (--host 0.0.0.0, public
// URL http://svc:<port>, a control token), and so does a second web server, svc:<other port>:
// the browser sends it every cookie of host `svc`, whatever the port. Chromium and a plain
// client run on `app`, so the emulator sees them as a peer that is not loopback.
// - The dashboard's login link gives the browser a session cookie; the other server receives
//   that session value, never the token, and the value opens nothing as Svc-Control-Token, nor
//   on the control API without the dashboard's own Origin; log out and a restart end it.
// - Wrong tokens from `app` are throttled (429 with Retry-After, even for the right token);
//   from loopback on `svc` they never are.

const PORT = 4030;
const OTHER_PORT = 4031;
const SVC = { host: 'svc', port: PORT };
const PUBLIC_URL = `http://svc:${PORT}`;
const COOKIE = `svc_session_${PORT}`;
const token = () => `svc_ctl_${randomBytes(24).toString('base64url')}`;
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'];

const unavailable = netnsUnavailable() ?? (existsSync(CHROMIUM) ? undefined : `needs ${CHROMIUM} (node scripts/ensure-test-tools.mjs installs it)`);

describe('the dashboard session across two network hosts', { skip: unavailable ? `skipped: ${unavailable}` : false }, () => {
  let pair: NetnsPair;
  let emu: NetEmulator | undefined;
  let other: Peer; // svc:<other port>, and the loopback client on svc
  let peer: Peer; // the client on app
  let browser: Browser;
  let scratch: string;
  let tokenNow = token();

  const startSvc = async (controlToken: string) => {
    tokenNow = controlToken;
    emu = await startEmulatorOn(pair, pair.svc, ['--host', '0.0.0.0', '--port', String(PORT), '--data-dir', join(scratch, 'data'), '--allow-host', 'svc', '--public-url', PUBLIC_URL, '--control-token', controlToken, '--clock', 'manual', '--quiet']);
  };

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'svc-session-'));
    pair = createNetnsPair();
    await startSvc(tokenNow);
    [other, peer] = await Promise.all([startPeer(pair, pair.svc, OTHER_PORT), startPeer(pair, pair.app)]);
    // playwright-core starts `executablePath` and talks to it over pipes; the wrapper puts the
    // real browser inside the app namespace (ip netns exec keeps the pipes' descriptors).
    const wrapper = join(scratch, 'chromium-in-app');
    writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${pair.app.ns} ${CHROMIUM} "$@"\n`);
    chmodSync(wrapper, 0o755);
    browser = await chromium.launch({ executablePath: wrapper, headless: true, args: BROWSER_ARGS });
  });
  after(async () => {
    await browser?.close();
    await peer?.close();
    await other?.close();
    await emu?.stop();
    pair?.destroy();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const call = (method: string, path: string, opts?: PeerRequest) => peer.request(method, SVC, path, opts);
  const clockNow = async () => Date.parse((await call('GET', '/_emulator/clock', { headers: { 'svc-control-token': tokenNow } })).json.data.now);
  const assertToken401 = (res: { status: number; headers: Record<string, unknown>; body: string }, what: string) => {
    assert.equal(res.status, 401, `${what}: ${res.status} ${res.body.slice(0, 200)}`);
    assert.equal(res.headers['svc-guard'], 'token', what);
  };

  /** Logs a fresh browser context in through the token link; returns it and its session value. */
  async function logIn(): Promise<{ context: BrowserContext; session: string }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const opened = await page.goto(`${PUBLIC_URL}/dashboard/time?token=${encodeURIComponent(tokenNow)}`);
    assert.equal(opened?.status(), 200);
    assert.equal(page.url(), `${PUBLIC_URL}/dashboard/time`, 'the token left the address bar');
    const cookies = await context.cookies(PUBLIC_URL);
    assert.deepEqual(cookies.map((c) => c.name), [COOKIE]);
    const [cookie] = cookies;
    assert.notEqual(cookie.value, tokenNow, 'the cookie is not the token');
    assert.ok(!cookie.value.includes(tokenNow));
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.path, '/');
    assert.ok(cookie.expires > Date.now() / 1000 + 11 * 3600 && cookie.expires <= Date.now() / 1000 + 12 * 3600 + 60, `expires in 12 h (${cookie.expires})`);
    return { context, session: cookie.value };
  }

  test('a server on svc:<other port> receives only the session value; it opens nothing as Svc-Control-Token or without the dashboard Origin; the dashboard itself works and logs out', async () => {
    const { context, session } = await logIn();
    try {
      const page = context.pages()[0]!;
      // The browser visits the other service on the same host name: it gets the cookie of
      // svc:<port> too (cookies are per host, not per port), but only the session value.
      const seen = other.received.length;
      const visit = await page.goto(`http://svc:${OTHER_PORT}/app`);
      assert.equal(visit?.status(), 200);
      const [leaked] = (await other.waitFor(seen + 1)).slice(seen);
      assert.equal(leaked.path, '/app');
      assert.equal(leaked.headers.cookie, `${COOKIE}=${session}`);
      assert.ok(!String(leaked.headers.cookie).includes(tokenNow), 'the token never reaches the other server');

      // Replayed by the other side, from the app host.
      const before = await clockNow();
      assertToken401(await call('GET', '/_emulator/health', { headers: { 'svc-control-token': session } }), 'the session value as Svc-Control-Token');
      assertToken401(await call('POST', '/_emulator/clock/advance', { headers: { 'svc-control-token': session }, body: { ms: 60_000 } }), 'an action with the session value as the token');
      assertToken401(await call('GET', '/_emulator/keys', { headers: { cookie: `${COOKIE}=${session}` } }), 'the cookie on a control route without Origin');
      assertToken401(await call('POST', '/_emulator/clock/advance', { headers: { cookie: `${COOKIE}=${session}` }, body: { ms: 60_000 } }), 'an action with the cookie and no Origin');
      assert.equal(await clockNow(), before, 'nothing moved the clock');
      // The cookie under another port's name is not this emulator's session.
      assertToken401(await call('GET', '/dashboard', { headers: { cookie: `svc_session_${OTHER_PORT}=${session}` } }), 'the value under another name');
      // Where the dashboard's own pages use it, it works: its pages, and its fetches (same Origin).
      const pageWithCookie = await call('GET', '/dashboard', { headers: { cookie: `${COOKIE}=${session}` } });
      assert.equal(pageWithCookie.status, 200, pageWithCookie.body.slice(0, 200));

      // In the browser: the Time page's form posts to the control API with the cookie.
      await page.goto(`${PUBLIC_URL}/dashboard/time`);
      await page.getByLabel(/Advance by/).fill('1h');
      await page.getByRole('button', { name: 'Advance', exact: true }).click();
      const flash = page.locator('#flash p');
      await flash.waitFor();
      assert.equal(await flash.textContent(), 'Clock advanced.');
      assert.equal(await clockNow(), before + 3_600_000);

      // Log out: the browser's session ends on the emulator, the cookie goes.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByText("This browser's dashboard session has ended").waitFor();
      assert.deepEqual(await context.cookies(PUBLIC_URL), []);
      assert.equal((await page.goto(`${PUBLIC_URL}/dashboard`))?.status(), 401);
      assertToken401(await call('GET', '/dashboard', { headers: { cookie: `${COOKIE}=${session}` } }), 'a logged-out session');
    } finally {
      await context.close();
    }
  });

  test('a restart with another token logs the browser out', async () => {
    const { context, session } = await logIn();
    try {
      const page = context.pages()[0]!;
      assert.equal((await page.goto(`${PUBLIC_URL}/dashboard`))?.status(), 200);
      await emu!.stop();
      emu = undefined;
      const first = tokenNow;
      await startSvc(token());
      const res = await page.goto(`${PUBLIC_URL}/dashboard`);
      assert.equal(res?.status(), 401, 'the browser is logged out');
      assertToken401(await call('GET', '/dashboard', { headers: { cookie: `${COOKIE}=${session}` } }), 'the old session');
      assertToken401(await call('GET', '/_emulator/health', { headers: { 'svc-control-token': first } }), 'the old token');
      // The new token's link logs it in again.
      assert.equal((await page.goto(`${PUBLIC_URL}/dashboard?token=${encodeURIComponent(tokenNow)}`))?.status(), 200);
    } finally {
      await context.close();
    }
  });

  test('11 wrong tokens from the app host, then the right one: 429 with Retry-After; from loopback never throttled', async () => {
    // A fresh emulator: the wrong tokens the tests above sent are forgotten with the process.
    await emu!.stop();
    emu = undefined;
    await startSvc(tokenNow);
    const wrong = `${tokenNow.slice(0, -4)}XXXX`;
    for (let i = 1; i <= 10; i++) assertToken401(await call('GET', '/_emulator/health', { headers: { 'svc-control-token': wrong } }), `wrong token ${i}`);
    const eleventh = await call('GET', '/_emulator/health', { headers: { 'svc-control-token': wrong } });
    const right = await call('GET', '/_emulator/health', { headers: { 'svc-control-token': tokenNow } });
    const login = await call('GET', `/dashboard?token=${encodeURIComponent(tokenNow)}`);
    for (const [what, res] of [
      ['the 11th wrong token', eleventh],
      ['the right token', right],
      ['the right login link', login],
    ] as const) {
      assert.equal(res.status, 429, `${what}: ${res.body}`);
      assert.equal(res.headers['svc-guard'], 'throttle', what);
      assert.equal(res.json.error.code, 'RATE_LIMITED', what);
      const seconds = Number(res.headers['retry-after']);
      assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `${what}: Retry-After ${res.headers['retry-after']}`);
    }
    assert.equal(login.headers['set-cookie'], undefined, 'no session while throttled');

    // On the emulator's own host, over loopback: 11 wrong tokens, then the right one works.
    const local = { host: '127.0.0.1', port: PORT };
    for (let i = 1; i <= 11; i++) assertToken401(await other.request('GET', local, `/dashboard?token=${wrong}`), `loopback wrong login ${i}`);
    const ok = await other.request('GET', local, `/dashboard?token=${encodeURIComponent(tokenNow)}`);
    assert.equal(ok.status, 303, ok.body);
    assert.match(String(ok.headers['set-cookie']), new RegExp(`^${COOKIE}=`));
  });
});
