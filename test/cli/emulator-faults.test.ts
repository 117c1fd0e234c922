import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliSession, recordedWaits, target } from './cli.js';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { startSvc } from '../helpers/svc-process.js';

// `svc emulator faults …` (in-process), and the svc client proving the spec's
// retry guidance against the emulator's own faults: a lost answer recovered by an idempotent
// replay (exactly one link), and a persistent 503 given up after 5 attempts.

const s = cliSession({ clock: 'system' });

const links = async () => ((await s.control('/snapshot')).collections.payment_links ?? []).length;

test('an after-commit 502 once: `svc links create` succeeds, says it was recovered by an idempotent replay, one link exists', async () => {
  await s.ctl(['faults', 'clear']);
  const added = await s.ctl(['faults', 'add', '--route', 'POST /v1/api/payment-links', '--status', '502', '--after-commit', '--times', '1', '--json']);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.json().after_commit, true);
  const before = await links();
  const waits = recordedWaits();
  const r = await s.svc(['links', 'create', '--amount', '500', '--currency', 'USD', '--title', 'Lost answer', '--json'], undefined, { sleep: waits.sleep });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /retrying in 0\.5 s \(attempt 2 of 5\): 502 BAD_GATEWAY/);
  assert.deepEqual(waits.waits, [500], 'the first backoff, recorded rather than waited');
  assert.match(r.stderr, /recovered by an idempotent replay: attempt 2 reused the idempotency key and got the original answer/);
  assert.equal(await links(), before + 1, 'exactly one link');
  assert.equal(r.json().title, 'Lost answer');
  const log = await s.ctl(['faults', 'log', '--json']);
  assert.equal(log.json().entries.at(-1).fault_id, added.json().id);
});

test('a 503 five times: the client gives up after the spec’s 5 attempts, exit 1, and says so', async () => {
  await s.ctl(['faults', 'clear']);
  assert.equal((await s.ctl(['faults', 'add', '--route', 'GET /v1/api/payments', '--status', '503', '--times', '5', '--retry-after', '0'])).code, 0);
  const waits = recordedWaits();
  const r = await s.svc(['payments', 'list'], undefined, { sleep: waits.sleep });
  assert.equal(r.code, 1);
  assert.equal(r.stderr.match(/retrying in/g)?.length, 4);
  assert.deepEqual(waits.waits, [0, 0, 0, 0], "the fault's Retry-After: 0 replaces the backoff");
  assert.match(r.stderr, /error: SERVICE_UNAVAILABLE \(HTTP 503\): Injected fault flt_\w+: .* \(gave up after 5 attempts with the same idempotency key, as the spec advises\)/);
  assert.deepEqual((await s.ctl(['faults', 'list', '--json'])).json().faults, [], 'all five spent');
  assert.equal((await s.svc(['payments', 'list'])).code, 0);
});

test('faults add checks its flags locally (exit 2, naming the flag); list, remove, clear, presets, apply', async () => {
  await s.ctl(['faults', 'clear']);
  for (const [args, message] of [
    [['--route', 'POST charges', '--status', '503'], /--route: must be "<METHOD> <path>"/],
    [['--route', 'POST /v1/api/charges'], /give exactly one kind of fault/],
    [['--route', 'POST /v1/api/charges', '--status', '418'], /--status:/],
    [['--route', 'POST /v1/api/charges', '--truncate'], /--after-commit: truncate cuts the real response short/],
    [['--route', 'POST /v1/api/charges', '--hang', '--reset'], /got hang, reset/],
    [['--route', 'POST /v1/api/charges', '--latency', 'soon'], /--latency\/--delay\/--reorder:/],
    [['--route', 'POST /v1/api/charges', '--reset', '--probability', '2'], /--probability/],
    [['--deliveries', '--status', '503'], /the kind .*: a delivery fault is one of duplicate, drop, delay, reorder/],
  ] as const) {
    const r = await s.ctl(['faults', 'add', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.deepEqual((await s.ctl(['faults', 'list', '--json'])).json().faults, [], 'nothing was sent');

  const one = (await s.ctl(['faults', 'add', '--deliveries', '--duplicate', '--json'])).json();
  const listed = await s.ctl(['faults', 'list']);
  assert.match(listed.stdout, new RegExp(`${one.id}\\s+deliveries\\s+duplicate\\s+always\\s+0`));
  assert.equal((await s.ctl(['faults', 'remove', one.id])).code, 0);
  const missing = await s.ctl(['faults', 'remove', one.id]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No fault flt_/);

  const presets = await s.ctl(['faults', 'presets', '--json']);
  assert.ok(presets.json().presets.some((p: { name: string }) => p.name === 'provider-outage'));
  const applied = await s.ctl(['faults', 'apply', 'provider-outage', '--json']);
  assert.equal(applied.code, 0, applied.stderr);
  assert.deepEqual(applied.json().faults.map((f: { provider: string; kind: string }) => [f.provider, f.kind]), [['payouts', 'down'], ['momo', 'down']]);
  const unknown = await s.ctl(['faults', 'apply', 'nope']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No fault preset named "nope"; the presets are flaky-network/);
  const cleared = await s.ctl(['faults', 'clear', '--json']);
  assert.equal(cleared.json().cleared, 2);
});

test('start --faults FILE starts with the faults in force; a bad file is exit 2 and starts nothing', async () => {
  const dir = tempDir('svc-faults-');
  const good = join(dir, 'faults.json');
  writeFileSync(good, JSON.stringify({ faults: [{ route: 'GET /v1/api/payments', kind: 'status', status: 503, retry_after: 0 }] }));
  const proc = await startSvc(['--port', '0', '--data-dir', join(dir, 'data'), '--quiet', '--faults', good]);
  try {
    const r = await s.run(['payments', 'list', ...target(proc.ready.base_url, KEYS.acmeTest)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Injected fault/);
  } finally {
    proc.child.kill('SIGTERM');
    await proc.done;
  }

  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ faults: [{ route: 'GET /v1/api/payments', kind: 'status' }] }));
  // Binary: start owns its process (signal handlers, process.exit); a refused start must leave it cleanly.
  const refused = await s.run(['emulator', 'start', '--port', '0', '--data-dir', join(dir, 'data2'), '--faults', bad], { binary: true });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--faults: .*bad\.json: faults\.0\.status: kind status needs a status/);
});
