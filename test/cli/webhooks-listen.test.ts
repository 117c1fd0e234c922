import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { cliHome, startCli, target } from './cli.js';
import { merchantReceiver, until } from './webhook-receiver.js';

// `svc webhooks listen` end to end: the emulator's stream → a real local server that checks
// the signature itself; a restart of the emulator (same data dir and port) is survived and
// reported; every forward is logged and `replay` sends it again with the same Svc-Delivery.
// listen runs as the binary (startCli: it runs until the process's SIGINT); replay and the
// failures that end at once run in-process.

const cli = cliHome();
const dataDir = tempDir('svc-cli-listen-');
let emu: TestEmulator | undefined;
after(() => emu?.stop());

async function pay(e: TestEmulator, outcome: 'completed' | 'failed') {
  // Non-ASCII metadata: the forwarded bytes (and their signature) must survive UTF-8 decoding.
  const body = { title: 'listen', amount: 900, metadata: { note: 'café ☕ — naïve' } };
  const link = await e.request('POST', '/v1/api/payment-links', { body, idempotencyKey: `listen-${Math.random()}` });
  const p = await e.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome } });
  return p.json.data.id as string;
}

test('listen forwards signed events, survives an emulator restart, logs them for replay; Ctrl-C stops it cleanly', async () => {
  emu = await startTestEmulator({ dataDir });
  const port = Number(new URL(emu.baseUrl).port);
  let secret: string | undefined;
  const app = await merchantReceiver(() => secret);
  const listen = startCli(['webhooks', 'listen', '--forward', app.url, ...target(emu.baseUrl, KEYS.acmeTest)], { env: { HOME: cli.home, XDG_CONFIG_HOME: cli.configHome } });
  try {
    secret = (await listen.waitFor(/Listen secret: ([A-Za-z0-9_-]{43})/))[1];
    await listen.waitFor(/connected; waiting for events/);
    assert.match(listen.stderr(), /^\[TEST\] Ready\. Forwarding test events from/);
    // The secret is kept in the profile, so the next listen signs with the same one.
    const config = JSON.parse(readFileSync(join(cli.configHome, 'svc', 'config.json'), 'utf8'));
    assert.equal(config.profiles.default.listen_secret, secret);

    const first = await pay(emu, 'completed');
    await until(() => app.received.length === 1, 'the first forward');
    const [got] = app.received;
    assert.equal(got.verified, true, 'the receiver verified the signature with node:crypto');
    assert.equal(got.event, 'payment.completed');
    assert.equal(JSON.parse(got.body).data.payment.id, first);
    assert.equal(JSON.parse(got.body).data.link.metadata.note, 'café ☕ — naïve');
    const events = (await emu.request('GET', '/_emulator/events?type=payment.completed', { key: null })).json.data.events;
    assert.equal(got.body, events.at(-1).body, 'the exact body bytes of the event');
    const line = await listen.waitFor(/^\d\d:\d\d:\d\d\s+payment\.completed\s+(ldv_\S+)\s+→ 200\s+\d+ ms$/m);
    assert.equal(line[1], got.delivery);

    // Restart on the same data dir and port: the stream drops, listen reconnects and resumes.
    await emu.stop({ keepData: true });
    await listen.waitFor(/stream lost \(.*\); reconnecting until it is back/);
    emu = await startTestEmulator({ dataDir, port });
    const second = await pay(emu, 'failed');
    await until(() => app.received.length === 2, 'the forward after the restart');
    assert.equal(JSON.parse(app.received[1].body).data.payment.id, second);
    assert.equal(app.received[1].verified, true);
    await listen.waitFor(/reconnected, resuming after \d{4}-\d\d-\d\dT/);
    await listen.waitFor(/payment\.failed\s+ldv_\S+\s+→ 200/); // printed after it is logged

    // The local log holds both forwards (0600), and replay sends one again, freshly signed.
    const log = join(cli.configHome, 'svc', 'listen-log.jsonl');
    assert.equal(statSync(log).mode & 0o777, 0o600);
    assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 2);
    const replay = await cli.run(['webhooks', 'replay', got.delivery, ...target(emu.baseUrl, KEYS.acmeTest)]);
    assert.equal(replay.code, 0, replay.stderr);
    await until(() => app.received.length === 3, 'the replay');
    assert.equal(app.received[2].delivery, got.delivery, 'same Svc-Delivery');
    assert.equal(app.received[2].body, got.body);
    assert.equal(app.received[2].verified, true);
    assert.match(replay.stdout, new RegExp(`payment\\.completed\\s+${got.delivery}\\s+→ 200`));
    const missing = await cli.run(['webhooks', 'replay', 'ldv_nope', ...target(emu.baseUrl, KEYS.acmeTest)]);
    assert.equal(missing.code, 2);
    // A target that does not take the replay: the forward is still printed, and the exit code is 1.
    const refused = await cli.run(['webhooks', 'replay', got.delivery, '--forward', 'http://127.0.0.1:9/webhooks', ...target(emu.baseUrl, KEYS.acmeTest)]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stdout, new RegExp(`payment\\.completed\\s+${got.delivery}\\s+✗ connection refused`));
  } finally {
    const code = await listen.interrupt();
    await app.close();
    assert.equal(code, 0, listen.stderr());
    assert.match(listen.stderr(), /stopped\.\n$/);
  }
});

test('listen --events forwards only those types; --json prints one JSON line per forward', async () => {
  emu ??= await startTestEmulator({ dataDir });
  const e = emu;
  let secret: string | undefined;
  const app = await merchantReceiver(() => secret);
  const listen = startCli(['webhooks', 'listen', '--forward', app.url, '--events', 'payment.failed', '--json', ...target(e.baseUrl, KEYS.acmeTest)], {
    env: { HOME: cli.home, XDG_CONFIG_HOME: cli.configHome },
  });
  try {
    secret = (await listen.waitFor(/Listen secret: (\S+)/))[1];
    await listen.waitFor(/connected; waiting for events/);
    await pay(e, 'completed');
    const failed = await pay(e, 'failed');
    await until(() => app.received.length === 1, 'the failed event');
    const line = JSON.parse((await listen.waitFor(/^\{.*\}$/m))[0]);
    assert.equal(line.type, 'payment.failed');
    assert.equal(line.status_code, 200);
    assert.equal(line.delivery_id, app.received[0].delivery);
    assert.equal(JSON.parse(app.received[0].body).data.payment.id, failed);
    assert.equal(app.received[0].verified, true);
  } finally {
    await listen.interrupt();
    await app.close();
  }
  assert.equal(app.received.length, 1, 'payment.completed was not forwarded');
});

test('listen against a host without a stream exits 1 and points at --port', async () => {
  const { createServer } = await import('node:http');
  const server = createServer((_q, r) => r.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"error":{"code":"NOT_FOUND","message":"No route."}}'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const r = await cli.run(['webhooks', 'listen', '--forward', 'http://127.0.0.1:1/x', ...target(base, KEYS.acmeLive)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /NOT_FOUND \(HTTP 404\).*use --port/);
  } finally {
    server.close();
  }
});
