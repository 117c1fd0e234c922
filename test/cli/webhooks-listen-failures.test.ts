import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { KEYS, startTestEmulator, tempDir } from '../helpers/emulator.js';
import { closed, onLines, svcBin, type ReadyLine } from '../helpers/svc-process.js';
import { cliHome, startCli, target } from './cli.js';
import { until } from './webhook-receiver.js';

// listen / tail when things go wrong: the emulator stays down for many reconnects (no listener
// leak), a bad --events name or an unreachable emulator fails before "Ready", a forward target
// that refuses connections is reported at once, an emulator restarted on another port is
// followed through its discovery file. listen and tail that keep running are the binary
// (startCli: they stop on the process's SIGINT, and the listener-leak check reads the process's
// own warnings); the failures that end at once run in-process.

const cli = cliHome();
const env = { HOME: cli.home, XDG_CONFIG_HOME: cli.configHome };

/** A loopback port with nothing listening on it (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

for (const command of ['listen', 'tail'] as const) {
  test(`${command}: many reconnects with the emulator down add no listeners and no MaxListenersExceededWarning`, async () => {
    const emu = await startTestEmulator({ dataDir: tempDir('svc-cli-leak-') });
    const args = command === 'listen' ? ['webhooks', 'listen', '--forward', 'http://127.0.0.1:9/x'] : ['webhooks', 'tail'];
    const run = startCli([...args, ...target(emu.baseUrl, KEYS.acmeTest)], { env: { ...env, SVC_STREAM_RECONNECT_MS: '2', SVC_DEBUG: 'stream' } });
    try {
      await run.waitFor(/connected; waiting for events/);
      await emu.stop();
      // The old code added one abort listener per retry: 11 was enough for Node's warning.
      await until(() => (run.stderr().match(/abort listeners \d+/g) ?? []).length >= 60, '60 reconnect attempts', 60_000);
    } finally {
      assert.equal(await run.interrupt(), 0, run.stderr());
    }
    const counts = (run.stderr().match(/abort listeners (\d+)/g) ?? []).map((m) => Number(m.split(' ').at(-1)));
    assert.ok(counts.length >= 60);
    assert.deepEqual(new Set(counts.slice(1)).size, 1, `flat listener count across retries: ${counts.join(',')}`);
    assert.ok(counts.at(-1)! <= counts[0], `no growth: first ${counts[0]}, last ${counts.at(-1)}`);
    assert.doesNotMatch(run.stderr(), /MaxListenersExceededWarning/);
    assert.equal(run.stderr().match(/stream lost \(nothing is listening/g)?.length, 1, 'the same reason is said once, not every retry');
    assert.doesNotMatch(run.stderr(), /UND_ERR|ECONNREFUSED/);
  });
}

test('listen --events with an unknown type exits 2 naming the flag, before Ready', async () => {
  const emu = await startTestEmulator();
  try {
    const r = await cli.run(['webhooks', 'listen', '--forward', 'http://127.0.0.1:9/x', '--events', 'payment.done', ...target(emu.baseUrl, KEYS.acmeTest)]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--events: unknown event type "payment\.done" \(known: payment\.completed/);
    assert.doesNotMatch(r.stderr, /Ready/);
  } finally {
    await emu.stop();
  }
});

test('listen with the emulator down fails at once, never says Ready, says connection refused once with the host and a hint', async () => {
  const base = `http://127.0.0.1:${await freePort()}`;
  const r = await cli.run(['webhooks', 'listen', '--forward', 'http://127.0.0.1:9/x', ...target(base, KEYS.acmeTest)]);
  assert.equal(r.code, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /Ready/);
  assert.equal(r.stderr.match(/connection refused/g)?.length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`nothing is listening at ${base} \\(connection refused\\)\\. Is the emulator running \\(svc emulator start\\)`));
  assert.doesNotMatch(r.stderr, /UND_ERR|ECONNREFUSED/);
});

test('listen reports a forward URL that refuses connections at once; --print-secret prints the secret alone', async () => {
  const emu = await startTestEmulator();
  const dead = `http://127.0.0.1:${await freePort()}/webhooks`;
  const run = startCli(['webhooks', 'listen', '--forward', dead, ...target(emu.baseUrl, KEYS.acmeTest)], { env });
  try {
    const secret = (await run.waitFor(/Listen secret: (\S+)/))[1];
    await run.waitFor(/warning: nothing is listening at .* \(connection refused\)/);
    const printed = await cli.run(['webhooks', 'listen', '--print-secret', ...target(emu.baseUrl, KEYS.acmeTest)]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, `${secret}\n`);
    // An event that cannot be forwarded is reported in words.
    const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'x', amount: 100 }, idempotencyKey: `fw-${process.pid}` });
    await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed' } });
    await run.waitFor(/payment\.completed\s+ldv_\S+\s+✗ connection refused \(is your app running\?\)/);
  } finally {
    await run.interrupt();
    await emu.stop();
  }
});

/** `svc emulator start` in `cwd` (its ./.svc, discovered by other commands run there). */
async function startEmulatorIn(cwd: string): Promise<{ ready: ReadyLine; stop(): Promise<unknown> }> {
  const child = spawn(process.execPath, [svcBin, 'emulator', 'start', '--port', '0', '--json', '--quiet'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const done = closed(child);
  const ready = await new Promise<ReadyLine>((ok, fail) => {
    onLines(child, (line) => ok(JSON.parse(line) as ReadyLine));
    child.once('exit', (code) => fail(new Error(`emulator exited ${code}`)));
  });
  return { ready, stop: () => (child.kill('SIGINT'), done) };
}

test('listen follows an emulator restarted on another port (re-reads the discovery file)', async () => {
  const cwd = tempDir('svc-cli-moved-');
  let emu = await startEmulatorIn(cwd);
  const run = startCli(['webhooks', 'listen', '--forward', 'http://127.0.0.1:9/x'], { cwd, env: { ...env, SVC_STREAM_RECONNECT_MS: '20' } });
  try {
    await run.waitFor(/connected; waiting for events/);
    const first = emu.ready.base_url;
    await emu.stop();
    await run.waitFor(/stream lost/);
    emu = await startEmulatorIn(cwd);
    assert.notEqual(emu.ready.base_url, first, 'a new port');
    await run.waitFor(new RegExp(`the emulator moved to ${emu.ready.base_url}; following it`));
    await run.waitFor(/reconnected/);
  } finally {
    await run.interrupt();
    await emu.stop();
  }
});
