import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';
import { runBinary } from '../cli/run-binary.js';

// Where `svc parity check` goes and what it says when the webhook part or its flags go wrong:
// by default the emulator found in ./.svc (its keys and fixtures, webhooks to a loopback
// receiver), checked clean against the published recording; a delivery that never comes is
// named as one; bad flags are exit 2 before anything is sent; an unreachable host exit 1.

const PUBLISHED = packageFile('parity/emulator.snapshot.json');
const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `a stack trace:\n${text}`);

test('by default check compares the emulator running from ./.svc, with its own keys, against the published recording: no differences', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const project = tempDir('svc-parity-project-');
    await procs.start(['--port', '0', '--quiet'], undefined, { cwd: project });
    const r = await runBinary(['parity', 'check', '--snapshot', PUBLISHED, '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = r.json();
    assert.equal(report.totals.differences, 0);
    assert.equal(report.totals.skipped_scenarios, 0, 'the second merchant, the restricted key and webhooks came from the emulator');
    assert.match(report.target, /^http:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    await procs.end();
  }
});

test('a delivery that never arrives within --webhook-wait is a difference named by event', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const dir = tempDir('svc-parity-drop-');
    const faults = join(dir, 'faults.json');
    writeFileSync(faults, JSON.stringify({ faults: [{ deliveries: { event_type: 'payment.failed' }, kind: 'drop' }] }));
    const emulator = await procs.start(['--port', '0', '--quiet', '--data-dir', join(dir, 'data'), '--faults', faults]);
    const r = await runBinary(['parity', 'check', '--base-url', emulator.ready.base_url, '--api-key', KEYS.acmeTest, '--emulator-fixtures', '--snapshot', PUBLISHED, '--scenario', 'webhook-deliveries', '--webhook-wait', '3s']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^DIFF {2}webhook-deliveries\/deliveries {2}\(RECEIVE <webhook_url>\) {2}delivery:payment\.failed:received: expected received, got not received$/m);
    assert.doesNotMatch(r.stdout, /delivery:payment\.completed/, 'the other delivery still agrees');
  } finally {
    await procs.end();
  }
});

/** A free loopback port (listened on, then closed). */
const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => ok(p));
    });
  });

test('--webhook-url through a "tunnel" to --webhook-listen: a tunnel that alters the payload shows as an invalid signature and a changed payload', async (t) => {
  const procs = svcProcesses(t.signal);
  const listen = await freePort();
  // The tunnel: forwards each delivery to the receiver, headers as they came, one field added to the body.
  const tunnel = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (body.type === 'payment.completed') body.tunnel = true;
      const text = JSON.stringify(body);
      const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(text)) };
      const fwd = request(`http://127.0.0.1:${listen}${req.url}`, { method: 'POST', headers }, (up) => {
        up.resume();
        up.on('end', () => res.writeHead(up.statusCode ?? 502).end());
      });
      fwd.on('error', () => res.writeHead(502).end());
      fwd.end(text);
    });
  });
  await new Promise<void>((ok) => tunnel.listen(0, '127.0.0.1', () => ok()));
  try {
    const emulator = await procs.start(['--port', '0', '--quiet', '--data-dir', join(tempDir('svc-parity-tunnel-'), 'data')]);
    const url = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/svc/hooks`;
    const r = await runBinary(['parity', 'check', '--base-url', emulator.ready.base_url, '--api-key', KEYS.acmeTest, '--emulator-fixtures', '--snapshot', PUBLISHED, '--scenario', 'webhook-deliveries', '--webhook-url', url, '--webhook-listen', String(listen)]);
    assert.equal(r.code, 1, r.stderr);
    const diffs = r.stdout.split('\n').filter((l) => l.startsWith('DIFF'));
    assert.deepEqual(diffs, [
      'DIFF  webhook-deliveries/deliveries  (RECEIVE <webhook_url>)  delivery:payment.completed:signature_valid: expected true, got false',
      'DIFF  webhook-deliveries/deliveries  (RECEIVE <webhook_url>)  delivery:payment.completed:$.tunnel: expected absent, got boolean true',
    ]);
  } finally {
    await new Promise<void>((ok) => {
      tunnel.close(() => ok());
      tunnel.closeAllConnections();
    });
    await procs.end();
  }
});

test('a 429 is waited out (Retry-After) and sent again; one that lasts past 5 retries is recorded, and named', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const dir = tempDir('svc-parity-429-');
    const start = async (times: number) => {
      const file = join(dir, `faults-${times}.json`);
      writeFileSync(file, JSON.stringify({ faults: [{ route: 'GET /v1/api/mandates/:id', kind: 'status', status: 429, retry_after: 0, times }] }));
      return procs.start(['--port', '0', '--quiet', '--data-dir', join(dir, `data-${times}`), '--faults', file]);
    };
    const [brief, lasting] = await Promise.all([start(2), start(6)]);
    const check = (base: string) => runBinary(['parity', 'check', '--base-url', base, '--api-key', KEYS.acmeTest, '--emulator-fixtures', '--snapshot', PUBLISHED, '--scenario', 'mandates']);
    const ok = await check(brief.ready.base_url);
    assert.equal(ok.code, 0, ok.stdout);
    const failed = await check(lasting.ready.base_url);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /^DIFF {2}mandates\/get {2}\(GET \/v1\/api\/mandates\/:id\) {2}status: expected 200, got 429$/m);
    assert.match(failed.stdout, /\$\.error\.code: expected absent, got "RATE_LIMITED"/);
  } finally {
    await procs.end();
  }
});

test('flag errors are exit 2 before anything is sent; an unreachable host is exit 1 for check too', async () => {
  const port = await freePort();
  const base = ['--base-url', `http://127.0.0.1:${port}`, '--api-key', KEYS.acmeTest, '--snapshot', PUBLISHED];
  for (const [args, message] of [
    [['--var', 'payee_id'], /--var <name=value>.*expected name=value/],
    [['--webhook-listen', '8080'], /--webhook-listen goes with --webhook-url/],
    [['--webhook-url', 'https://hooks.example.com/parity'], /--webhook-listen <port> is needed/],
    [['--webhook-url', 'not a url'], /--webhook-url "not a url" is not a URL/],
    [['--scenario', 'nope'], /--scenario nope: no such scenario; the suite has auth, scopes, /],
    [['--ignore', 'payouts/create:data.status', '--reason', 'x'], /the part after ":" is a JSON path/],
    [['--reason', 'x'], /--reason goes with --ignore/],
    [['--api-key', 'sk_test_123'], /does not start with svc_test_/],
  ] as [string[], RegExp][]) {
    const r = await runBinary(['parity', 'check', ...base, ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
    noStack(r.stderr);
  }
  const noFolder = await runBinary(['parity', 'record', '--base-url', `http://127.0.0.1:${port}`, '--api-key', KEYS.acmeTest, '--out', join(tempDir('svc-parity-out-'), 'missing', 'x.json')]);
  assert.equal(noFolder.code, 2, 'said before the run (the host is not even up)');
  assert.match(noFolder.stderr, /^error: cannot write --out .*x\.json: its folder does not exist\. Nothing was sent\.$/m);
  const down = await runBinary(['parity', 'check', ...base]);
  assert.equal(down.code, 1);
  assert.match(down.stderr, /^error: NETWORK_ERROR: nothing is listening at /m);
  noStack(down.stderr);
  const json = await runBinary(['parity', 'check', ...base, '--json']);
  assert.equal(json.code, 1);
  assert.equal(JSON.parse(json.stderr).error.code, 'NETWORK_ERROR');
  assert.equal(json.stdout, '');
});
