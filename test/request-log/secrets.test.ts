import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { idem, KEYS } from '../helpers/emulator.js';
import { cliSession } from '../cli/cli.js';

// Issue 37's proof that the request log keeps no secret: a battery of probes that put keys, card
// numbers (in every spelling), PINs, OTPs, tokens and passwords in the path, the query, the
// idempotency key, the trace id and the bodies (JSON, form-encoded, broken), then every byte of
// every surface of the log is searched for each of them: the control API, `svc logs list`,
// `svc logs get` and `get --curl` (human and --json), the dashboard's Logs pages, and the
// files on disk, which are 0600 in a 0700 folder.

const cli = cliSession();

const PIN = '973182645';
const OTP = '318264597';
const TOKEN = 'tok9Secret7Token';
const PASSWORD = 'hunter2Secret9';
const CODE = '246813579';
const CARD = '4111111111111111';
const AMEX = '378282246310005';
const NINETEEN = '6011000990139424'; // Discover, 16 digits; glued to other digits below
const FULL_WIDTH = (s: string) => String.fromCharCode(...[...s].map((d) => 0xff10 + Number(d)));

/** The digits of a text as a reader would take them: percent-encoding and full-width read, separators between digits gone. */
function digitsRead(text: string): string {
  const decoded = text.replace(/(%[0-9a-f]{2})+/gi, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
  return decoded.normalize('NFKC').replace(/(?<=\d)[\s\-.\u00a0,_/+]{1,3}(?=\d)/g, '');
}

/** Where a secret would show: its own text, or (for digits) its first digits (a mask keeps the last 4). */
function assertNoSecret(surface: string, text: string): void {
  const readable = digitsRead(text);
  for (const [what, secret] of [
    ['test key', KEYS.acmeTest],
    ['live key', KEYS.acmeLive],
    ['PIN', PIN],
    ['OTP', OTP],
    ['token', TOKEN],
    ['password', PASSWORD],
    ['code', CODE],
    ['card', CARD.slice(0, 12)],
    ['amex', AMEX.slice(0, 11)],
    ['glued card', NINETEEN.slice(0, 12)],
  ]) {
    assert.ok(!text.includes(secret) && !readable.includes(secret), `${surface}: the ${what} (${secret}) is in it:\n${text.slice(0, 4000)}`);
  }
}

async function probes(): Promise<{ endpointSecret: string }> {
  const emu = cli.emu;
  const send = async (method: string, path: string, init: { body?: string; type?: string; key?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${emu.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${init.key ?? KEYS.acmeTest}`, ...(init.body === undefined ? {} : { 'content-type': init.type ?? 'application/json' }), ...init.headers },
      body: init.body,
    });
    await res.arrayBuffer();
    return res.status;
  };
  // The example, and secrets by name in the query, in every case style.
  await send('GET', `/v1/api/payments?api_key=${KEYS.acmeTest}`);
  await send('GET', `/v1/api/payments?apiKey=${KEYS.acmeLive}&accessToken=${TOKEN}&user-password=${PASSWORD}&User%20Pin=${PIN}&OTP_CODE=${OTP}&code=${CODE}&card=${CARD}`);
  await send('GET', `/v1/api/payments?p%69n=${PIN}&t%6Fken=${TOKEN}`);
  // A key in the path; card numbers in the query, every spelling.
  await send('GET', `/v1/api/payments/${KEYS.acmeTest}`);
  for (const spelled of ['4111 1111 1111 1111', '4111-1111-1111-1111', '4111.1111.1111.1111', '4111\u00a01111\u00a01111\u00a01111', FULL_WIDTH(CARD), `ref12${NINETEEN}`]) {
    await send('GET', `/v1/api/payments?note=${encodeURIComponent(spelled)}`);
  }
  // JSON bodies: names in every case style, Luhn numbers and strings anywhere; the idempotency
  // key and the trace id holding a key or a card.
  const metadata = { card: Number(CARD), amex: AMEX, userPin: PIN, 'user-pin': PIN, USER_PIN: PIN, 'User Pin': PIN, otpCode: OTP, accessToken: TOKEN, newPassword: PASSWORD, clientSecret: TOKEN, note: `card ${FULL_WIDTH(CARD)}, or ${AMEX.slice(0, 4)} ${AMEX.slice(4, 10)} ${AMEX.slice(10)}`, glued: `x${NINETEEN}99`, key: KEYS.acmeTest };
  await send('POST', '/v1/api/payment-links', { body: JSON.stringify({ title: 'Secrets', amount: 500, currency: 'USD', metadata }), headers: { 'x-idempotency-key': KEYS.acmeTest, 'x-trace-id': CARD } });
  await send('POST', '/v1/api/payment-links', { body: JSON.stringify({ title: 'Secrets 2', amount: 500, currency: 'USD', metadata: { n: 1 } }), headers: { 'x-idempotency-key': '4111-1111-1111-1111', 'x-trace-id': KEYS.acmeLive } });
  // Refused bodies: unknown secret fields, escapes, form encoding, broken JSON, text.
  await send('POST', '/v1/api/payment-links', { body: JSON.stringify({ title: 'x', pin: PIN, card_number: CARD, password: PASSWORD }), headers: { 'x-idempotency-key': idem('s') } });
  await send('POST', '/v1/api/payment-links', { body: `{"title":"x","p\\u0069n":"${PIN}","n":"\\u0034111111111111111"}`, headers: { 'x-idempotency-key': idem('s') } });
  await send('POST', '/v1/api/payment-links', { body: `title=t&pin=${PIN}&otp=${OTP}&p%61ssword=${PASSWORD}&card=${CARD}`, type: 'application/x-www-form-urlencoded', headers: { 'x-idempotency-key': idem('s') } });
  await send('POST', '/v1/api/payment-links', { body: `{"title": "x", "pin": "${PIN}", "token": "${TOKEN}",`, headers: { 'x-idempotency-key': idem('s') } });
  await send('POST', '/v1/api/payment-links', { body: `{"p\\u0069n": "${PIN}",`, headers: { 'x-idempotency-key': idem('s') } });
  await send('POST', '/v1/api/payment-links', { body: `pin: ${PIN}\npassword: ${PASSWORD}\ncard: ${CARD}`, type: 'text/plain', headers: { 'x-idempotency-key': idem('s') } });
  // An answer that carries a secret (the endpoint's signing secret), and the live key in use.
  const endpoint = await fetch(`${emu.baseUrl}/v1/api/webhook-endpoints`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.test/hooks', events: ['payment.completed'] }) });
  const endpointSecret: string = ((await endpoint.json()) as any).data.secret;
  assert.ok(endpointSecret.length >= 16);
  await send('GET', '/v1/api/payments', { key: KEYS.acmeLive });
  return { endpointSecret };
}

test('after a battery of probes, no byte of any surface of the request log holds a secret', async () => {
  const { endpointSecret } = await probes();
  const check = (surface: string, text: string) => {
    assertNoSecret(surface, text);
    assert.ok(!text.includes(endpointSecret), `${surface}: the endpoint secret is in it`);
  };
  const emu = cli.emu;
  const control = async (path: string) => (await fetch(`${emu.baseUrl}/_emulator${path}`)).text();
  const page = await control('/requests?limit=100');
  const entries: Array<{ id: string; path: string }> = JSON.parse(page).data.requests;
  assert.ok(entries.length >= 20, `${entries.length} entries`);
  // The example is shown, its key redacted: the entry is there, the secret is not.
  assert.ok(entries.some((e) => e.path === '/v1/api/payments?api_key=[redacted]'), page);
  check('GET /_emulator/requests', page);
  for (const args of [['logs', 'list', '--limit', '100'], ['logs', 'list', '--limit', '100', '--json']]) {
    const r = await cli.svc(args);
    assert.equal(r.code, 0, r.stderr);
    check(`svc ${args.join(' ')}`, r.stdout + r.stderr);
  }
  const dashboard = async (path: string) => {
    const res = await fetch(`${emu.baseUrl}/dashboard${path}`);
    assert.equal(res.status, 200, path);
    return res.text();
  };
  check('the dashboard Logs page', await dashboard('/logs'));
  for (const e of entries) {
    check(`GET /_emulator/requests/${e.id}`, await control(`/requests/${e.id}`));
    check(`the dashboard page of ${e.id}`, await dashboard(`/logs/${e.id}`));
    for (const args of [['logs', 'get', e.id], ['logs', 'get', e.id, '--json'], ['logs', 'get', e.id, '--curl']]) {
      const r = await cli.svc(args);
      assert.equal(r.code, 0, r.stderr);
      check(`svc ${args.join(' ')}`, r.stdout + r.stderr);
    }
  }
  // The files: everything written (a compaction writes what waits), every byte read, and kept
  // from other users of the machine.
  assert.equal((await fetch(`${emu.baseUrl}/_emulator/store/compact`, { method: 'POST' })).status, 200);
  const dir = join(emu.dataDir!, 'request-log');
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const files = readdirSync(dir);
  assert.ok(files.length >= 1);
  let onDisk = '';
  for (const f of files) {
    assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);
    onDisk += readFileSync(join(dir, f), 'utf8');
  }
  assert.ok(onDisk.includes('api_key=[redacted]'), 'the entries are on disk');
  check('the files of <data dir>/request-log', onDisk);
});
