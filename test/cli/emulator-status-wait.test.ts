import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { cliHome } from './cli.js';
import { join } from 'node:path';
import { startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';

// `svc emulator status --wait` in-process: the IO's sleep stands in for the pause between
// tries, so a test sees every pause asked for and can act on the first one (start the
// emulator the command is waiting for), and a 30 s deadline runs through in milliseconds.

const home = cliHome();

/** A loopback port nothing listens on (taken from the kernel, then let go). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

test('--wait: the emulator starts after the command began (at its first pause); exit 0 once it answers', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const waits: number[] = [];
  let emu: TestEmulator | undefined;
  try {
    const r = await home.run(['emulator', 'status', '--wait', '--base-url', base], {
      sleep: async (ms) => {
        waits.push(ms);
        // The command's first try found nobody: only now does the emulator start.
        if (waits.length === 1) emu = await startTestEmulator({ port });
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(emu, 'the command never paused: it cannot have waited for the emulator');
    assert.equal(waits.length, 1, 'answered at the try after the emulator started');
    assert.match(r.stderr, new RegExp(`waiting up to 30 s for the emulator at ${base} \\(connection refused`));
    assert.match(r.stdout, /status\s+ok/);
    assert.match(r.stdout, /answered after\s+.*\(2 tries\)/);

    // Already up: the first try answers, nothing paused, --json carries the health data.
    const again = await home.run(['emulator', 'status', '--wait', '--json', '--base-url', base], { sleep: async (ms) => void waits.push(ms) });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(again.json(), { ok: true, service: 'svc-emulator', allowed_hosts: [] });
    assert.equal(again.stderr, '');
    assert.equal(waits.length, 1);
  } finally {
    await emu?.stop();
  }
});

test('--wait against nothing: tries until the 30 s default passes (in paused time, not real time), then exit 1 naming the URL and the wait', async () => {
  const base = `http://127.0.0.1:${await freePort()}`;
  const waits: number[] = [];
  const started = performance.now();
  const r = await home.run(['emulator', 'status', '--wait', '--base-url', base], { sleep: async (ms) => void waits.push(ms) });
  const realMs = performance.now() - started;
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`TIMEOUT: the emulator at ${base} did not answer within 30 s \\(waited 30 s, ${waits.length + 1} tries; the last: connection refused`));
  assert.match(r.stderr, /--timeout/, 'says how to wait longer');
  assert.equal(r.stdout, '');
  // The deadline is kept in the pauses asked for plus the tries' own time: every pause is
  // the short retry pause (never past the deadline), and together they fill the 30 s.
  assert.ok(waits.every((ms) => ms > 0 && ms <= 250), `pauses: ${waits.join(', ')}`);
  assert.ok(sum(waits) <= 30_000, `paused ${sum(waits)} ms`);
  assert.ok(sum(waits) + realMs >= 30_000, `paused ${sum(waits)} ms + ${Math.round(realMs)} ms of tries`);
});

test('--wait --timeout takes a duration or ms; --json reports the timeout as one JSON error on stderr', async () => {
  const base = `http://127.0.0.1:${await freePort()}`;
  for (const [flag, ms] of [['1500ms', 1500], ['2s', 2000], ['1200', 1200]] as const) {
    const waits: number[] = [];
    const r = await home.run(['emulator', 'status', '--wait', '--timeout', flag, '--json', '--base-url', base], { sleep: async (w) => void waits.push(w) });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    const { error } = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    assert.equal(error.code, 'TIMEOUT');
    assert.match(error.message, new RegExp(`did not answer within ${ms / 1000} s`));
    assert.ok(sum(waits) <= ms && sum(waits) >= ms - 1000, `--timeout ${flag}: paused ${sum(waits)} ms`);
  }
});

test('bad --timeout values are usage errors (exit 2) naming the flag; nothing is tried', async () => {
  // A bare number is milliseconds, as on every other command; a unit is needed for anything else.
  for (const bad of ['3x', '1.5', '0', '0s', '2h', '-1s', '']) {
    const r = await home.run(['emulator', 'status', '--wait', '--timeout', bad, '--base-url', 'http://127.0.0.1:9'], {
      sleep: async () => assert.fail(`--timeout "${bad}": the command paused, so it tried`),
    });
    assert.equal(r.code, 2, `--timeout "${bad}": ${r.stderr}`);
    assert.match(r.stderr, /option '--timeout <duration>' argument .* is invalid/, `--timeout "${bad}"`);
  }
});

test('a refusal by the door guard (Svc-Guard) is not retried: exit 1 at once with the guard\'s reason and fix', async () => {
  const emu = await startTestEmulator();
  try {
    // The same emulator under a name it does not answer to: an IPv4-mapped address reaches
    // its 127.0.0.1 socket with Host "[::ffff:7f00:1]", which is not on its list.
    const mapped = emu.baseUrl.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    const r = await home.run(['emulator', 'status', '--wait', '--base-url', mapped], { sleep: async () => assert.fail('a refusal was retried') });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /FORBIDDEN \(HTTP 403\): the emulator at http:\/\/\[::ffff:127\.0\.0\.1\]:\d+ refused the request: Refused: Host "\[::ffff:7f00:1\]:\d+" does not name this emulator/);
    assert.match(r.stderr, /--allow-host/, 'the guard names the fix');
  } finally {
    await emu.stop();
  }
});

test('something that is not an emulator answering is not retried either: exit 2 at once', async () => {
  const server: Server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await home.run(['emulator', 'status', '--wait', '--base-url', base], { sleep: async () => assert.fail('a foreign answer was retried') });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${base} answers, but it is not an svc emulator \\(GET /_emulator/health answered HTTP 404\\)`));
  } finally {
    await new Promise<void>((ok) => server.close(() => ok()));
  }
});

test('--wait with no emulator found yet: waits for one to start here (its discovery file), then for its answer', async () => {
  const cwd = tempDir('svc-wait-here-');
  const waits: number[] = [];
  let emu: TestEmulator | undefined;
  try {
    // The emulator starts from this folder (./.svc) only once the command has paused.
    const r = await home.run(['emulator', 'status', '--wait'], {
      cwd,
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 2) emu = await startTestEmulator({ dataDir: join(cwd, '.svc') });
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(emu);
    assert.equal(waits.length, 2, 'found and answered at the try after the start');
    assert.match(r.stderr, /waiting up to 30 s for an emulator to start here \(no base URL, no \.svc\/emulator\.json in .* yet\)/);
    assert.match(r.stdout, /answered after\s+.*\(1 try\)/);
  } finally {
    await emu?.stop();
  }
  // None ever comes: the same deadline, in paused time; exit 1 saying what it waited for.
  const none: number[] = [];
  const r = await home.run(['emulator', 'status', '--wait', '--timeout', '2s'], { cwd: tempDir('svc-wait-none-'), sleep: async (ms) => void none.push(ms) });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /TIMEOUT: no emulator to wait for appeared within 2 s \(\d+ tries\): no base URL/);
  assert.ok(sum(none) <= 2000 && sum(none) >= 1000, `paused ${sum(none)} ms`);
});
