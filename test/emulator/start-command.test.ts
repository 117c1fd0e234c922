import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { idem, request, tempDir } from '../helpers/emulator.js';
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, getPriority } from 'node:os';
import { closed, onLines, runSvc, startSvc, svcBin, svcProcesses, type Launch } from '../helpers/svc-process.js';

// `svc emulator start` as scripts use it: the --json ready line, clean shutdown on SIGTERM
// and SIGINT (store flushed, data kept), and usage errors for bad flags.

const KEY_FIELDS = ['environment', 'key', 'merchant_id', 'name', 'revoked', 'scopes'];

test('--json prints exactly one JSON line; SIGTERM exits 0 and the data survives a restart', async (t) => {
  const dataDir = tempDir('svc-start-');
  const procs = svcProcesses(t.signal);
  try {
    // No --quiet: request logs must go to stderr, never to stdout.
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--clock', 'manual']);
    const { ready } = svc;
    // The fields CI scripts read stay as they were; `sources` was added (issue 39): where each option came from.
    assert.deepEqual(Object.keys(ready).sort(), ['base_url', 'checkout_url', 'control_token', 'dashboard_url', 'data_dir', 'keys', 'public_url', 'sources']);
    assert.deepEqual(Object.entries(ready.sources).filter(([, from]) => from !== 'default'), [['port', 'flag'], ['data_dir', 'flag'], ['clock', 'flag'], ['json', 'flag']]);
    assert.equal(ready.control_token, null, 'a loopback emulator makes up no control token');
    assert.equal(ready.public_url, null);
    assert.equal(ready.dashboard_url, `${ready.base_url}/dashboard`);
    assert.match(ready.base_url, /^http:\/\/127\.0\.0\.1:\d+$/, 'default host is 127.0.0.1');
    assert.notEqual(new URL(ready.base_url).port, '0', '--port 0 picked a real port');
    assert.equal(ready.checkout_url, `${ready.base_url}/checkout`);
    assert.equal(ready.data_dir, dataDir);
    assert.ok(ready.keys.length >= 7);
    for (const k of ready.keys) {
      assert.deepEqual(Object.keys(k).sort(), KEY_FIELDS);
      assert.match(k.key, /^svc_(test|live)_/);
      assert.equal(k.environment, k.key.startsWith('svc_test_') ? 'test' : 'live');
      assert.ok(Array.isArray(k.scopes));
      assert.equal(typeof k.revoked, 'boolean');
    }
    const testKey = ready.keys.find((k) => k.environment === 'test' && !k.revoked && k.scopes.includes('payments:create'))!;
    assert.ok(ready.keys.some((k) => k.revoked));

    // The discovery file exists while it runs.
    const discovery = JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8'));
    assert.equal(discovery.base_url, ready.base_url);
    assert.equal(discovery.pid, svc.child.pid);

    const created = await request(ready.base_url, 'POST', '/v1/api/payment-links', { key: testKey.key, body: { title: 'CLI', amount: 10 }, idempotencyKey: idem() });
    assert.equal(created.status, 201);
    svc.child.kill('SIGTERM');
    assert.equal(await svc.done, 0);
    assert.equal(svc.stdout().trimEnd().split('\n').length, 1, `stdout: ${svc.stdout()}`);
    assert.ok(svc.stdout().endsWith('\n'));
    assert.match(svc.stderr(), /POST \/v1\/api\/payment-links 201/);
    assert.ok(!svc.stderr().includes(testKey.key), 'the request log masks keys');
    assert.ok(!existsSync(join(dataDir, 'emulator.json')), 'the discovery file is removed on exit');

    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    try {
      const read = await request(again.ready.base_url, 'GET', `/v1/api/payment-links/${created.json.data.id}`, { key: testKey.key });
      assert.equal(read.status, 200);
      assert.equal(read.json.data.title, 'CLI');
    } finally {
      again.child.kill('SIGINT');
      assert.equal(await again.done, 0);
    }
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('bad flag values exit 2 with a message naming the problem', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--port', 'abc'], /port.*whole number|whole number.*abc/i],
    [['--port', '70000'], /65535/],
    [['--port', '-1'], /port|0 to 65535/i],
    [['--clock', 'weird'], /system, manual/],
    [['--rate-limit', 'lots'], /rate limit/i],
    [['--latency', 'slow'], /latency|whole number/i],
    [['--no-such-flag'], /unknown option/i],
  ];
  for (const [args, message] of cases) {
    const r = runSvc(['emulator', 'start', '--json', '--data-dir', '/nonexistent/never-created', ...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', 'no ready line on a usage error');
  }
  assert.ok(!existsSync('/nonexistent/never-created'));
});

test('--help documents the flags and their defaults; --version prints the version', () => {
  const help = runSvc(['emulator', 'start', '--help']);
  assert.equal(help.status, 0);
  for (const flag of ['--port', '--host', '--data-dir', '--fixtures', '--json', '--clock', '--rate-limit']) assert.ok(help.stdout.includes(flag), flag);
  assert.match(help.stdout, /default:\s+4242\)/);
  assert.match(help.stdout, /default:\s+"127\.0\.0\.1"\)/);
  assert.match(help.stdout, /default:\s+100\/1s\)/);
  const version = runSvc(['--version']);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});

test('without --json it prints the API and checkout addresses and the seeded test key, masked', async () => {
  const dataDir = tempDir('svc-human-');
  const child = spawn(process.execPath, [svcBin, 'emulator', 'start', '--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', '6000/1m'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = closed(child);
  try {
    let out = '';
    await new Promise<void>((ok) => {
      onLines(child, (line) => {
        out += `${line}\n`;
        if (line.includes('Test key')) ok();
      });
    });
    const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    assert.ok(api, out);
    const checkout = new RegExp(`Checkout\\s+(${api.replace(/[.]/g, '\\.')}/checkout)\n`).exec(out)?.[1];
    assert.ok(checkout, out);
    // The printed URL answers: a page saying what lives under it, not a 404.
    const page = await fetch(checkout);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Hosted checkout/);
    // Masked, as every key the console shows (issue 46); the whole key is in --json and svc emulator keys --json.
    assert.match(out, /Test key\s+svc_test_…0001 \(.*whole: svc emulator keys --json\)/);
    assert.doesNotMatch(out, /svc_test_acme0all0scopes/);
    assert.match(out, /rate limit: 6000\/1m/);
    const res = await request(api, 'GET', '/v1/api/payments');
    assert.equal(res.status, 200);
  } finally {
    child.kill('SIGTERM');
    assert.equal(await done, 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('--payout-delay 0 is accepted (a bare 0 needs no unit): payouts answer completed at once', async () => {
  const dataDir = tempDir('svc-start-payout0-');
  const svc = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--payout-delay', '0']);
  try {
    const key = svc.ready.keys.find((k) => k.environment === 'test' && !k.revoked && k.scopes.includes('payouts:create'))!;
    const res = await request(svc.ready.base_url, 'POST', '/v1/api/payouts', { key: key.key, body: { payee_id: 'payee_ada', amount_cents: 100, currency: 'USD' }, idempotencyKey: idem('p0') });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.data.status, 'completed');
  } finally {
    svc.child.kill('SIGTERM');
    assert.equal(await svc.done, 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// performance/heap.ts: the emulator's own process collects young garbage young (no allocation-site
// pretenuring), grows its heap by 30% at most, and on a single CPU marks on its main thread
// (no concurrent marking); GET /_emulator/metrics says what it set. A node flag given on the
// command line is the user's choice and is left alone.
const taskset = spawnSync('taskset', ['-V']).status === 0;

test('the started emulator tunes its own heap and says so in its metrics; a node flag on the command line wins', async (t) => {
  // Started as this test process is, the emulator sees the CPUs this process may use.
  const few = availableParallelism() === 1 ? ['--no-concurrent-marking'] : [];
  const cases: Array<[Launch, string[]]> = [
    [{}, ['--heap-growing-percent=30', '--no-allocation-site-pretenuring', ...few]],
    [{ nodeArgs: ['--heap-growing-percent=50'] }, ['--no-allocation-site-pretenuring', ...few]],
    [{ nodeArgs: ['--heap_growing_percent=40', '--allocation-site-pretenuring', '--concurrent-marking'] }, []],
  ];
  // Pinned to one CPU, whatever this machine has (taskset is util-linux; macOS has none).
  if (taskset) {
    cases.push([{ cpus: '0' }, ['--heap-growing-percent=30', '--no-allocation-site-pretenuring', '--no-concurrent-marking']]);
    cases.push([{ cpus: '0', nodeArgs: ['--concurrent_marking'] }, ['--heap-growing-percent=30', '--no-allocation-site-pretenuring']]);
  }
  for (const [launch, expected] of cases) {
    const dataDir = tempDir('svc-heap-');
    const procs = svcProcesses(t.signal);
    try {
      const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet'], undefined, launch);
      const metrics = await request(svc.ready.base_url, 'GET', '/_emulator/metrics', { key: null });
      assert.equal(metrics.status, 200);
      assert.deepEqual(metrics.json.data.heap_tuning, expected, JSON.stringify(launch));
      svc.child.kill('SIGTERM');
      assert.equal(await svc.done, 0);
    } finally {
      await procs.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
});

// performance/helper-threads.ts: on one CPU the emulator's process gives the CPU to its event loop first:
// every thread but the main one (V8's GC helpers, libuv's pool) runs at nice 19. With more CPUs
// it leaves them alone. `exec`'s command is the user's and starts at the event loop's priority.
const niceOf = (statLine: string) => Number(statLine.slice(statLine.lastIndexOf(')') + 2).split(' ')[16]);
const threadNices = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map((tid) => ({ tid: Number(tid), nice: niceOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')) }));

test('on one CPU the emulator runs its other threads at nice 19 and its event loop at 0; with more CPUs it leaves them', { skip: process.platform !== 'linux' && 'per-thread nice is Linux' }, async (t) => {
  const launches: Launch[] = [{}];
  if (taskset) launches.push({ cpus: '0' });
  for (const launch of launches) {
    const single = launch.cpus !== undefined || availableParallelism() === 1;
    const dataDir = tempDir('svc-nice-');
    const procs = svcProcesses(t.signal);
    try {
      const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet'], undefined, launch);
      const threads = threadNices(svc.child.pid!);
      const main = threads.find((t) => t.tid === svc.child.pid);
      const others = threads.filter((t) => t.tid !== svc.child.pid);
      // The priority it was started at: this runner's own (0, or more under `nice npm test`).
      assert.equal(main?.nice, getPriority(), 'the event loop keeps its priority');
      // Node starts 4 V8 platform workers at once, libuv 4 pool threads on its first work.
      assert.ok(others.length >= 8, `${others.length} other threads`);
      assert.deepEqual([...new Set(others.map((t) => t.nice))], [single ? 19 : getPriority()], JSON.stringify(launch));
      const metrics = await request(svc.ready.base_url, 'GET', '/_emulator/metrics', { key: null });
      assert.deepEqual(metrics.json.data.helper_threads, single ? { nice: 19, threads: others.length } : null);
      svc.child.kill('SIGTERM');
      assert.equal(await svc.done, 0);
    } finally {
      await procs.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (!taskset) return;
  // The command exec runs is spawned by the main thread, so it keeps the event loop's priority.
  const exec = spawnSync('taskset', ['-c', '0', process.execPath, svcBin, 'emulator', 'exec', '--', 'sh', '-c', 'cat /proc/$$/stat'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(exec.status, 0, exec.stderr);
  assert.equal(niceOf(exec.stdout.trim()), getPriority(), exec.stdout);
});
