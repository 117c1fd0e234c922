import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';

// The dashboard session's rules for a caller that is not on loopback, without root (issue 46:
// they were caught only by test/network/, which needs network namespaces). The emulator listens
// on this machine's own non-loopback address, and this process calls it there: the kernel makes
// the connection's source that address too, so the emulator sees a peer that is not loopback
// (the packets never leave the machine). Checked here:
// - the session cookie opens the control API only with the emulator's own Origin (the
//   dashboard's fetches), never without an Origin, with a foreign one, or as Svc-Control-Token;
//   its pages take it without an Origin;
// - wrong tokens throttle the peer (429, even for the right token, as before), but a valid
//   session cookie keeps working while its peer is throttled: ten <img src=…?token=wrong> loads
//   from any web page must not lock a logged-in teammate out.

/** The first address of this machine that is not loopback (IPv4 first), or null. */
function ownAddress(): string | null {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const v4 = all.find((a) => !a.internal && a.family === 'IPv4');
  const v6 = all.find((a) => !a.internal && a.family === 'IPv6' && !a.address.startsWith('fe80'));
  return v4?.address ?? (v6 ? `[${v6.address}]` : null);
}

const address = ownAddress();
const TOKEN = 'tok_0123456789abcdef_session_door';

describe('the dashboard session from a peer that is not loopback', { skip: address === null ? 'skipped: this machine has no address besides loopback' : false }, () => {
  let emu: TestEmulator;
  let base: string;
  let origin: string;
  const start = async () => {
    emu = await startTestEmulator({ host: address!.replace(/^\[|\]$/g, ''), controlToken: TOKEN, clock: 'manual' });
    base = emu.localUrl;
    origin = new URL(base).origin;
  };
  before(start);
  after(() => emu.stop());

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    rawRequest(base, method, path, { headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body });
  const assertGuard = (res: RawResponse, status: number, guard: string, what: string) => {
    assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
    assert.equal(res.headers['svc-guard'], guard, what);
  };
  const clockNow = async () => Date.parse((await call('GET', '/_emulator/clock', { 'svc-control-token': TOKEN })).json.data.now);

  test('the emulator sees this caller as a peer that is not loopback: no token, no entry', async () => {
    assertGuard(await call('GET', '/_emulator/health'), 401, 'token', 'the control API without a token');
    assertGuard(await call('GET', '/dashboard'), 401, 'token', 'the dashboard without a token');
    assert.equal((await call('GET', '/_emulator/health', { 'svc-control-token': TOKEN })).status, 200);
    // The merchant API is not behind the door.
    assert.equal((await call('GET', '/v1/api/payments', { authorization: `Bearer ${KEYS.acmeTest}` })).status, 200);
  });

  /** The login link's session: the cookie header to send, and its value. */
  async function logIn(): Promise<{ cookie: string; value: string }> {
    const login = await call('GET', `/dashboard/time?token=${TOKEN}`);
    assert.equal(login.status, 303, login.text);
    const [, name, value] = /^([^=]+)=([^;]*);/.exec(String(login.headers['set-cookie'])) ?? [];
    assert.equal(name, `svc_session_${new URL(base).port}`);
    assert.ok(value && value !== TOKEN && !value.includes(TOKEN));
    return { cookie: `${name}=${value}`, value };
  }

  test('the login link gives a session cookie; on the control API it counts only with the emulator\'s own Origin', async () => {
    const { cookie, value } = await logIn();

    const before = await clockNow();
    const advance = JSON.stringify({ ms: 60_000 });
    assertGuard(await call('POST', '/_emulator/clock/advance', { cookie }, advance), 401, 'token', 'the cookie without an Origin');
    assertGuard(await call('GET', '/_emulator/keys', { cookie }), 401, 'token', 'a read with the cookie and no Origin');
    assertGuard(await call('POST', '/_emulator/clock/advance', { cookie, origin: 'http://evil.example' }, advance), 403, 'origin', 'the cookie with a foreign Origin');
    assertGuard(await call('POST', '/_emulator/clock/advance', { 'svc-control-token': value }, advance), 401, 'token', 'the session value as Svc-Control-Token');
    assertGuard(await call('POST', '/_emulator/clock/advance', { 'svc-control-token': value, origin }, advance), 401, 'token', 'the session value as Svc-Control-Token, own Origin');
    assert.equal(await clockNow(), before, 'none of them moved the clock');
    // The dashboard's own fetch: the cookie and its Origin.
    const own = await call('POST', '/_emulator/clock/advance', { cookie, origin }, advance);
    assert.equal(own.status, 200, own.text);
    assert.equal(await clockNow(), before + 60_000);
    // Its pages take the cookie without an Origin (a navigation sends none).
    assert.equal((await call('GET', '/dashboard', { cookie })).status, 200);
  });

  test('ten wrong tokens throttle the peer, the right token included; its valid session keeps working', async () => {
    // A fresh emulator: the wrong tokens of the test above are forgotten with it.
    await emu.stop();
    await start();
    const { cookie } = await logIn();
    // What ten <img src="…/dashboard?token=wrong"> on any web page send: SameSite=Strict keeps the cookie off them.
    for (let i = 1; i <= 10; i++) assertGuard(await call('GET', `/dashboard?token=wrong_${i}_0123456789abcdefghij`), 401, 'token', `wrong token ${i}`);
    for (const [what, res] of [
      ['an 11th wrong token', await call('GET', '/dashboard?token=wrong_11_0123456789abcdefghij')],
      ['the right token in the header', await call('GET', '/_emulator/health', { 'svc-control-token': TOKEN })],
      ['the right login link', await call('GET', `/dashboard?token=${TOKEN}`)],
      ['no token and no session', await call('GET', '/dashboard')],
      ['a wrong token with the session cookie', await call('GET', '/_emulator/health', { cookie, origin, 'svc-control-token': 'wrong_12_0123456789abcdefghij' })],
      ['a session that is not one', await call('GET', '/dashboard', { cookie: `${cookie}x` })],
    ] as const) {
      assertGuard(res, 429, 'throttle', what);
      assert.ok(Number(res.headers['retry-after']) >= 1, what);
    }
    // The teammate's browser, logged in before: its pages, its feed and its actions still work.
    const page = await call('GET', '/dashboard/time', { cookie });
    assert.equal(page.status, 200, page.text.slice(0, 300));
    const action = await call('POST', '/_emulator/clock/advance', { cookie, origin }, JSON.stringify({ ms: 1_000 }));
    assert.equal(action.status, 200, action.text);
  });
});
