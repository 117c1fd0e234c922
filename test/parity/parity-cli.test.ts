import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';
import { runBinary } from '../cli/run-binary.js';
import { startProxy } from './proxy.js';

// The proofs of issue 30, through the built `svc` against real emulator processes on loopback:
// a recording from one emulator checks clean against a second; a fault, a renamed field and a
// changed error code are each named by scenario, step, route and JSON path; the suite calls
// only /v1 on a host that is not an emulator; a live key, a missing or damaged snapshot and an
// unreachable host end with a clear message and exit 2 / 2 / 1, never a stack trace.

const keys = ['--api-key', KEYS.acmeTest, '--emulator-fixtures'];
const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `a stack trace:\n${text}`);

const emulator = (procs: ReturnType<typeof svcProcesses>, extra: string[] = []) => procs.start(['--port', '0', '--data-dir', join(tempDir('svc-parity-'), 'data'), '--quiet', ...extra]);

test('a recording from emulator A checks against emulator B with 0 differences; a 500 route, a renamed field and a changed code are named', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const [a, b] = await Promise.all([emulator(procs), emulator(procs)]);
    const dir = tempDir('svc-parity-snap-');
    const snapshot = join(dir, 'a.snapshot.json');
    const rec = await runBinary(['parity', 'record', '--base-url', a.ready.base_url, ...keys, '--out', snapshot, '--json']);
    assert.equal(rec.code, 0, rec.stderr);
    assert.deepEqual(rec.json().skipped, [], 'every scenario ran, webhooks included');
    const text = readFileSync(snapshot, 'utf8');
    assert.doesNotMatch(text, /svc_(test|live)_\w{8,}/, 'no key in the recording');
    assert.match(text, /"<pl_id:1>"/);

    const clean = await runBinary(['parity', 'check', '--base-url', b.ready.base_url, ...keys, '--snapshot', snapshot, '--json']);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    const report = clean.json();
    assert.equal(report.ok, true);
    assert.equal(report.totals.differences, 0, JSON.stringify(report.differences, null, 1));
    assert.equal(report.totals.skipped_scenarios, 0);
    assert.ok(report.totals.compared > 100);

    // B's twin with one route answering 500.
    const faults = join(dir, 'faults.json');
    writeFileSync(faults, JSON.stringify({ faults: [{ route: 'GET /v1/api/mandates/:id', kind: 'status', status: 500 }] }));
    const broken = await emulator(procs, ['--faults', faults]);
    const failed = await runBinary(['parity', 'check', '--base-url', broken.ready.base_url, ...keys, '--snapshot', snapshot]);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stdout, /^DIFF {2}mandates\/get {2}\(GET \/v1\/api\/mandates\/:id\) {2}status: expected 200, got 500$/m);
    assert.match(failed.stdout, /^DIFF {2}mandates\/get {2}\(GET \/v1\/api\/mandates\/:id\) {2}\$\.error\.code: expected absent, got "INTERNAL_ERROR"$/m);
    for (const line of failed.stdout.split('\n').filter((l) => l.startsWith('DIFF'))) assert.match(line, /\(GET \/v1\/api\/mandates\/:id\)/, line);
    assert.match(failed.stdout, /difference\(s\) in \d+ step\(s\)\./);
    noStack(failed.stderr);

    // A drifting host: link_code renamed, IDEMPOTENCY_CONFLICT answered as CONFLICT.
    const drift = { rename: true };
    const proxy = await startProxy(b.ready.base_url, (body) => {
      if (drift.rename && body?.data?.link_code !== undefined) {
        body.data.link_ref = body.data.link_code;
        delete body.data.link_code;
      }
      if (body?.error?.code === 'IDEMPOTENCY_CONFLICT') body.error.code = 'CONFLICT';
      return body;
    });
    try {
      const drifted = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', snapshot, '--scenario', 'payment-links', '--scenario', 'idempotency', '--json']);
      assert.equal(drifted.code, 1, drifted.stderr);
      const diffs = drifted.json().differences as { scenario: string; step: string; route: string; where: string; expected: string; actual: string }[];
      const at = (step: string, where: string) => diffs.find((d) => d.step === step && d.where === where);
      assert.deepEqual(at('create', '$.data.link_code'), { scenario: 'payment-links', step: 'create', route: 'POST /v1/api/payment-links', where: '$.data.link_code', expected: 'string "<link_code:1>"', actual: 'absent' });
      assert.deepEqual(at('create', '$.data.link_ref'), { scenario: 'payment-links', step: 'create', route: 'POST /v1/api/payment-links', where: '$.data.link_ref', expected: 'absent', actual: 'string "<link_code:1>"' });
      assert.deepEqual(at('conflict', '$.error.code'), {
        scenario: 'idempotency',
        step: 'conflict',
        route: 'POST /v1/api/payment-links',
        where: '$.error.code',
        expected: 'string "IDEMPOTENCY_CONFLICT"',
        actual: 'string "CONFLICT"',
      });
      // The human report names the same (the error code alone drifting from here on).
      drift.rename = false;
      const human = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', snapshot, '--scenario', 'idempotency']);
      assert.match(human.stdout, /^DIFF {2}idempotency\/conflict {2}\(POST \/v1\/api\/payment-links\) {2}\$\.error\.code: expected string "IDEMPOTENCY_CONFLICT", got string "CONFLICT"$/m);
      assert.match(human.stdout, /^idempotency +7 +7 +1 +0/m);

      // Accepting it: the reason goes into the snapshot file, and the difference no longer fails the check.
      const noReason = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', snapshot, '--ignore', 'idempotency/conflict:$.error.code']);
      assert.equal(noReason.code, 2);
      assert.match(noReason.stderr, /--ignore needs --reason/);
      const accepted = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', snapshot, '--scenario', 'idempotency', '--ignore', 'idempotency/conflict:$.error.code', '--reason', 'our sandbox still says CONFLICT (ticket 12)']);
      assert.equal(accepted.code, 0, accepted.stdout);
      assert.match(accepted.stdout, /^ignored {2}idempotency\/conflict .* — our sandbox still says CONFLICT \(ticket 12\)$/m);
      const kept = JSON.parse(readFileSync(snapshot, 'utf8')).ignore;
      assert.equal(kept.length, 1);
      assert.equal(kept[0].path, 'idempotency/conflict:$.error.code');
      assert.equal(kept[0].reason, 'our sandbox still says CONFLICT (ticket 12)');
      const again = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', snapshot, '--scenario', 'idempotency']);
      assert.equal(again.code, 0, 'the accepted difference stays accepted');
      const badIgnore = await runBinary(['parity', 'check', '--snapshot', snapshot, '--ignore', 'idempotency/no-such-step', '--reason', 'x']);
      assert.equal(badIgnore.code, 2);
      assert.match(badIgnore.stderr, /scenario idempotency has no step no-such-step/);
    } finally {
      await proxy.close();
    }
  } finally {
    await procs.end();
  }
});

test('against a host that is not an svc emulator the suite calls only /v1 (webhooks too); what needs host inputs is skipped', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const b = await emulator(procs);
    const proxy = await startProxy(b.ready.base_url);
    const hook = createServer();
    await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', () => ok()));
    const port = (hook.address() as AddressInfo).port;
    await new Promise<void>((ok) => hook.close(() => ok()));
    try {
      const out = join(tempDir('svc-parity-host-'), 'host.json');
      const r = await runBinary(['parity', 'record', '--base-url', proxy.url, '--api-key', KEYS.acmeTest, '--webhook-url', `http://127.0.0.1:${port}/hooks`, '--out', out, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(proxy.seen.length > 50);
      const outside = proxy.seen.filter((line) => !/^(GET|POST|DELETE) \/v1\//.test(line));
      assert.deepEqual(outside, [], 'nothing outside /v1');
      const skipped = Object.fromEntries((r.json().skipped as { scenario: string; reason: string }[]).map((s) => [s.scenario, s.reason]));
      assert.match(skipped['cross-merchant'], /needs --other-api-key/);
      assert.match(skipped.scopes, /needs --restricted-api-key/);
      assert.match(skipped.payouts, /needs --var payee_id=… --var payee_currency=…/);
      assert.equal(skipped['webhook-deliveries'], undefined, 'deliveries recorded through --webhook-url');
      const snap = JSON.parse(readFileSync(out, 'utf8'));
      assert.equal(snap.host.kind, 'host');
      const deliveries = snap.scenarios.find((s: { name: string }) => s.name === 'webhook-deliveries').steps.find((s: { name: string }) => s.name === 'deliveries').deliveries;
      assert.deepEqual(
        deliveries.map((d: { event: string; signature_valid: boolean; headers: Record<string, string> }) => [d.event, d.signature_valid, d.headers['svc-signature']]),
        [
          ['payment.completed', true, 't=<unix>,v1=<hmac_sha256_hex>'],
          ['payment.failed', true, 't=<unix>,v1=<hmac_sha256_hex>'],
        ],
      );
      // The endpoint was deleted afterwards.
      assert.ok(proxy.seen.some((l) => /^DELETE \/v1\/api\/webhook-endpoints\/we_/.test(l)));
    } finally {
      await proxy.close();
    }
  } finally {
    await procs.end();
  }
});

test('a live key is refused before any request (exit 2); so is one given as --other-api-key', async () => {
  const proxy = await startProxy('http://127.0.0.1:9');
  try {
    const out = join(tempDir('svc-parity-live-'), 'x.json');
    const live = await runBinary(['parity', 'record', '--base-url', proxy.url, '--api-key', KEYS.acmeLive, '--out', out]);
    assert.equal(live.code, 2);
    assert.match(live.stderr, /^error: the API key from the command line is a live key \(svc_live_…\): svc parity runs with test keys only, so nothing it does can move real money\. Nothing was sent\.$/m);
    noStack(live.stderr);
    const other = await runBinary(['parity', 'record', '--base-url', proxy.url, '--api-key', KEYS.acmeTest, '--other-api-key', KEYS.globexLive, '--out', out]);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /--other-api-key is a live key/);
    assert.deepEqual(proxy.seen, [], 'the host saw no request');
  } finally {
    await proxy.close();
  }
});

test('a missing, non-JSON or damaged snapshot is exit 2 with a clear message; an unreachable host is exit 1; no stack trace', async () => {
  const dir = tempDir('svc-parity-bad-');
  const closedPort = await new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => ok(port));
    });
  });
  const base = ['--base-url', `http://127.0.0.1:${closedPort}`, '--api-key', KEYS.acmeTest];
  const missing = await runBinary(['parity', 'check', ...base, '--snapshot', join(dir, 'nope.json')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^error: snapshot file .*nope\.json does not exist \(record one with `svc parity record --out .*`\)\.$/m);
  writeFileSync(join(dir, 'garbage.json'), '{"format": "svc-parity-snapshot", ');
  const garbage = await runBinary(['parity', 'check', ...base, '--snapshot', join(dir, 'garbage.json')]);
  assert.equal(garbage.code, 2);
  assert.match(garbage.stderr, /^error: snapshot file .*garbage\.json is not JSON: /m);
  writeFileSync(join(dir, 'other.json'), '{"hello": 1}');
  const other = await runBinary(['parity', 'check', ...base, '--snapshot', join(dir, 'other.json')]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /is not an svc parity snapshot/);
  writeFileSync(join(dir, 'damaged.json'), JSON.stringify({ format: 'svc-parity-snapshot', version: 1, svc_version: '0', recorded_at: 'x', host: {}, vars: {}, ignore: [], scenarios: [{ name: 'auth' }] }));
  const damaged = await runBinary(['parity', 'check', ...base, '--snapshot', join(dir, 'damaged.json'), '--json']);
  assert.equal(damaged.code, 2);
  assert.equal(damaged.stdout, '');
  const error = JSON.parse(damaged.stderr).error;
  assert.equal(error.code, 'USAGE_ERROR');
  assert.match(error.message, /damaged\.json is damaged: .*host\.base_url: .*scenarios\.0\.description: /);
  for (const r of [missing, garbage, other, damaged]) noStack(r.stderr);

  const out = join(dir, 'never.json');
  const down = await runBinary(['parity', 'record', ...base, '--out', out]);
  assert.equal(down.code, 1);
  assert.match(down.stderr, new RegExp(`^error: NETWORK_ERROR: nothing is listening at http://127\\.0\\.0\\.1:${closedPort} \\(connection refused\\)`, 'm'));
  noStack(down.stderr);
  assert.throws(() => readFileSync(out), /ENOENT/, 'no recording is written for a run that could not reach the host');
  const usage = await runBinary(['parity', 'check', '--snapshot', join(dir, 'x.json'), '--scenario', 'nope', ...base]);
  assert.equal(usage.code, 2);
});
