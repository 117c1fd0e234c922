import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { tempDir } from '../helpers/emulator.js';
import { runInProcess, testIO, type Collected } from '../cli/run-in-process.js';
import { merchantReceiver, until } from '../cli/webhook-receiver.js';
import type { CliIO } from '../../src/cli/io.js';

// The signature tolerance of the CLI's two verifiers, through their real surfaces: `svc
// webhooks verify` and the live-host receiver `svc webhooks listen --port` (a real listening
// server, sent real HTTP). Both run in-process (main() with a test IO) so their clock is the
// IO's `now`, pinned here: no wall clock is read, nothing waits on time. A signature 299 s or
// 300 s away either way is accepted; 301 s in the past is too_old, 301 s ahead too_new.
// Headers are computed here from the rule with node:crypto, not with svc's own code.

const secret = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';
const body = '{"type":"payment.completed","createdAt":"2026-11-21T12:00:00Z","data":{"payment":{"id":"pay_1","description":"café ☕"}}}';
/** The pinned "now" of every run, in unix seconds. */
const NOW = 1_763_700_000;

const header = (t: number, key = secret) => `t=${t},v1=${createHmac('sha256', Buffer.from(key, 'utf8')).update(`${t}.`).update(body).digest('hex')}`;

const home = tempDir('svc-sig-cli-');
/** A test IO whose clock reads NOW (the IO's `now` is in ms, as Date.now). */
function pinnedIO(extra: Partial<CliIO> = {}, input?: string) {
  const io = testIO({ input, env: { HOME: home, XDG_CONFIG_HOME: home } });
  return Object.assign(io, { now: () => NOW * 1000 + 999 }, extra);
}

const verify = (args: string[]) => runInProcess(['webhooks', 'verify', '--secret', secret, '--json', ...args], {}, pinnedIO({}, body));

test('svc webhooks verify: 299 s and 300 s either way are valid, 301 s past is too_old and 301 s ahead too_new (default tolerance)', async () => {
  for (const [skew, words] of [
    [0, 'signed 0 s ago'],
    [299, 'signed 299 s ago'],
    [300, 'signed 300 s ago'],
    [-299, 'signed 299 s in the future'],
    [-300, 'signed 300 s in the future'],
  ] as const) {
    const r = await verify(['--header', header(NOW - skew)]);
    assert.equal(r.code, 0, `${skew}: ${r.stdout}${r.stderr}`);
    assert.deepEqual(r.json(), { valid: true, reason: null, message: words, timestamp: NOW - skew });
  }
  const old = await verify(['--header', header(NOW - 301)]);
  assert.equal(old.code, 1);
  assert.deepEqual(old.json(), { valid: false, reason: 'too_old', message: 'signed 301 s ago; tolerance is 300 s', timestamp: null });
  const ahead = await verify(['--header', header(NOW + 301)]);
  assert.equal(ahead.code, 1);
  assert.deepEqual(ahead.json(), { valid: false, reason: 'too_new', message: 'signed 301 s in the future; tolerance is 300 s', timestamp: null });
});

test('svc webhooks verify --tolerance moves the boundary both ways; an empty --secret is a usage error', async () => {
  assert.equal((await verify(['--header', header(NOW - 10), '--tolerance', '10'])).code, 0);
  assert.equal((await verify(['--header', header(NOW + 10), '--tolerance', '10'])).code, 0);
  assert.equal((await verify(['--header', header(NOW - 11), '--tolerance', '10'])).json().reason, 'too_old');
  assert.equal((await verify(['--header', header(NOW + 11), '--tolerance', '10'])).json().reason, 'too_new');
  assert.equal((await verify(['--header', header(NOW - 301), '--tolerance', '301'])).code, 0);

  // Signed with the empty key: refused before any verdict, never "valid".
  const empty = await runInProcess(['webhooks', 'verify', '--secret', '', '--header', header(NOW, ''), '--json'], {}, pinnedIO({}, body));
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /--secret is empty/);
});

function post(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

test('svc webhooks listen --port: 299 s and 300 s either way are forwarded; 301 s past or ahead answers 400 and never reaches the app', async () => {
  const app = await merchantReceiver(() => secret);
  const stop = new AbortController();
  const io = pinnedIO({ interrupt: stop.signal });
  const stderr = io.stderr as Collected;
  const running = runInProcess(['webhooks', 'listen', '--port', '0', '--secret', secret, '--forward', app.url], { timeoutMs: 60_000 }, io);
  try {
    await until(() => /Receiving on http:\/\/127\.0\.0\.1:\d+\//.test(stderr.text), 'the receiver to listen');
    const port = /Receiving on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr.text)![1];
    const url = `http://127.0.0.1:${port}/`;
    const send = (t: number, id: string) => post(url, { 'svc-signature': header(t), 'svc-event': 'payment.completed', 'svc-delivery': id });

    const accepted = [
      [NOW - 299, 'dlv_past_299'],
      [NOW - 300, 'dlv_past_300'],
      [NOW + 299, 'dlv_ahead_299'],
      [NOW + 300, 'dlv_ahead_300'],
    ] as const;
    for (const [t, id] of accepted) assert.equal((await send(t, id)).status, 200, id);
    assert.deepEqual(app.received.map((r) => [r.delivery, r.verified, r.body]), accepted.map(([, id]) => [id, true, body]));

    const tooOld = await send(NOW - 301, 'dlv_past_301');
    assert.equal(tooOld.status, 400);
    assert.deepEqual(JSON.parse(tooOld.text), { error: 'too_old', message: 'signed 301 s ago; tolerance is 300 s' });
    const tooNew = await send(NOW + 301, 'dlv_ahead_301');
    assert.equal(tooNew.status, 400);
    assert.deepEqual(JSON.parse(tooNew.text), { error: 'too_new', message: 'signed 301 s in the future; tolerance is 300 s' });
    assert.equal(app.received.length, accepted.length, 'nothing refused reached the app');
    // One line per request on stdout, the refusals with their reason.
    const stdout = (io.stdout as Collected).text;
    assert.match(stdout, /dlv_past_301\s+✗ rejected: too_old/);
    assert.match(stdout, /dlv_ahead_301\s+✗ rejected: too_new/);
  } finally {
    stop.abort();
    const result = await running;
    await app.close();
    assert.equal(result.code, 0, result.stderr);
  }
  assert.match(stderr.text, /stopped\./);
});
