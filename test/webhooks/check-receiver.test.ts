import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { EVENT_TYPES } from '../../contract/common.js';
import { EVENT_ENVELOPES } from '../../contract/events.js';
import { ReceiverReport, type CheckId } from '../../contract/webhook-check.js';
import { startEmulator, type TestEmulator } from '../../src/testing/index.js';
import { runBinary } from '../cli/run-binary.js';
import { startSampleReceiver, type Flaw, type SampleReceiver } from './receivers/express.js';

// `svc webhooks check <url>` grades real receivers, each a listening server under
// test/webhooks/receivers/: through the built CLI in a child process (its --json report and
// its exit code) and through the testing API's emu.checkWebhookReceiver, which run the same
// code (src/webhooks/check/). A correct receiver and the Python example pass every check; each
// flawed one fails exactly the check for its flaw. A check with no answer left to grade (every
// request was cut off by the timeout or redirected, which Time and No redirects grade) warns
// "nothing to grade" instead of passing.

const SECRET = 'check-receiver-test-secret';

let emu: TestEmulator;
before(async () => {
  // 127.0.0.2 stands for an app's container name (an --allow-host name): plain http there is not warned about.
  emu = await startEmulator({ clock: 'manual', allowedHosts: ['127.0.0.2'] });
});
after(() => emu.close());

const receivers: SampleReceiver[] = [];
after(() => Promise.all(receivers.map((r) => r.close())));
async function receiver(flaw: Flaw, secret = SECRET, options?: Parameters<typeof startSampleReceiver>[2]): Promise<SampleReceiver> {
  const r = await startSampleReceiver(flaw, secret, options);
  receivers.push(r);
  return r;
}

/** The built CLI, as a script runs it; --json's report parsed with the published schema. */
async function viaCli(url: string, args: string[] = ['--secret', SECRET], env: Record<string, string> = {}) {
  const run = await runBinary(['webhooks', 'check', url, '--json', ...args], { env });
  return { code: run.code, stderr: run.stderr, report: ReceiverReport.parse(run.json()) };
}

const viaApi = async (url: string, options: { timeoutMs?: number; events?: string[] } = {}) => ReceiverReport.parse(await emu.checkWebhookReceiver(url, { secret: SECRET, ...options }));

const verdicts = (r: ReceiverReport) => Object.fromEntries(r.checks.map((c) => [c.id, c.verdict]));
const failed = (r: ReceiverReport) => r.checks.filter((c) => c.verdict === 'fail').map((c) => c.id);
const check = (r: ReceiverReport, id: CheckId) => r.checks.find((c) => c.id === id)!;

/** Every check passes, the report says so, and every request of checks 1-4 was graded. */
function assertAllPass(r: ReceiverReport, label: string) {
  assert.deepEqual(verdicts(r), { valid: 'pass', bad: 'pass', duplicate: 'pass', forward_compat: 'pass', time: 'pass', redirects: 'pass', transport: 'pass' }, `${label}: ${JSON.stringify(r.checks.map((c) => [c.id, c.why]))}`);
  assert.equal(r.ok, true);
  assert.deepEqual(r.counts, { pass: 7, fail: 0, warn: 0 });
  for (const id of ['valid', 'bad', 'duplicate', 'forward_compat'] as const) assert.ok(check(r, id).requests.every((q) => q.verdict === 'pass'), `${label}: ${id}`);
}

test('a correct Express receiver passes every check, through the CLI (exit 0) and the testing API', async () => {
  const r = await receiver('correct');
  const cli = await viaCli(r.url);
  assert.equal(cli.code, 0, cli.stderr);
  assertAllPass(cli.report, 'cli');
  assert.equal(cli.report.timeout_ms, 10_000, "the spec's 10 s by default");
  assert.deepEqual(cli.report.events, [...EVENT_TYPES], 'every event type by default');
  assertAllPass(await viaApi(r.url), 'testing api');

  // What was sent: one valid delivery per type, each body a real envelope of its type, signed
  // with the emulator's headers; the re-laid-out one has tabs, \u escapes and reversed keys.
  const valid = check(cli.report, 'valid').requests;
  assert.equal(valid.length, EVENT_TYPES.length + 1);
  for (const [i, type] of EVENT_TYPES.entries()) {
    assert.equal(valid[i].request.headers['svc-event'], type);
    EVENT_ENVELOPES[type].parse(JSON.parse(valid[i].request.body));
    assert.match(valid[i].request.headers['svc-signature'], /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.match(valid[i].request.headers['svc-delivery'], /^dlv_[A-Za-z0-9]{20}$/);
    assert.equal(valid[i].request.headers['user-agent'], 'svc-emulator-webhooks/1');
  }
  const relaid = valid.at(-1)!.request.body;
  assert.match(relaid, /\t/);
  assert.match(relaid, /\\u00e9/);
  assert.ok(relaid.indexOf('"data"') < relaid.indexOf('"type"'), 'keys in reverse order');
  EVENT_ENVELOPES['payment.completed'].parse(JSON.parse(relaid));
  const [first, again] = check(cli.report, 'duplicate').requests;
  assert.equal(first.request.headers['svc-delivery'], again.request.headers['svc-delivery']);
  assert.equal(first.request.body, again.request.body);
  assert.equal(JSON.stringify(cli.report).includes(SECRET), false, 'the secret is in no byte of the report');
});

test('the Python example receiver (examples/python) passes every check', async (t) => {
  const child = spawn('python3', [join(packageFile(''), 'test/webhooks/receivers/python_receiver.py')], { env: { ...process.env, WEBHOOK_SECRET: SECRET }, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout!.setEncoding('utf8');
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (c: string) => {
      out += c;
      const m = /^(http:\/\/\S+)$/m.exec(out);
      if (m) ok(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`the Python receiver exited (${code}) before printing its address`)));
  });
  const cli = await viaCli(url);
  assert.equal(cli.code, 0, cli.stderr);
  assertAllPass(cli.report, 'cli');
  assertAllPass(await viaApi(url), 'testing api');
  child.stdin!.end();
  await once(child, 'exit');
});

/** What each flawed receiver fails, and the why its report gives. */
const FLAWED: Array<{ flaw: Flaw; fails: CheckId; why: RegExp; fix: RegExp }> = [
  { flaw: 'reserialized', fails: 'valid', why: /answered 2xx when compact, but 400 when laid out differently: the receiver verifies re-serialized JSON/, fix: /raw body/ },
  { flaw: 'no-verification', fails: 'bad', why: /^6 of 6 bad deliveries were accepted \(2xx\): no Svc-Signature header → 200/, fix: /verify Svc-Signature/ },
  { flaw: '500-on-bad-signature', fails: 'bad', why: /^6 of 6 bad deliveries were not answered 4xx: .*timestamp 301 s old → 500.*a 5xx \(or a dropped connection\) says your server failed/, fix: /answer 400 \(never 5xx\)/ },
  { flaw: '500-on-duplicate', fails: 'duplicate', why: /got 500 \(payment\.completed, same Svc-Delivery again\)/, fix: /dedupe on Svc-Delivery/ },
  { flaw: 'rejects-unknown-types', fails: 'forward_compat', why: /^unknown event type svc_check\.unknown_type → 400/, fix: /event types you do not handle/ },
];

for (const { flaw, fails, why, fix } of FLAWED) {
  test(`a receiver that ${flaw.replace(/-/g, ' ')} fails "${fails}" and passes every other check`, async () => {
    const r = await receiver(flaw);
    const cli = await viaCli(r.url);
    assert.equal(cli.code, 1, cli.stderr);
    for (const report of [cli.report, await viaApi(r.url)]) {
      assert.deepEqual(failed(report), [fails]);
      assert.equal(report.counts.pass, 6, JSON.stringify(report.checks.map((c) => [c.id, c.verdict, c.why])));
      assert.equal(report.ok, false);
      assert.match(check(report, fails).why, why);
      assert.match(check(report, fails).fix ?? '', fix);
    }
  });
}

test('the human report: each check a verdict and a title, a why line, and a fix line unless it passed; exit 1', async () => {
  const r = await receiver('no-verification');
  const run = await runBinary(['webhooks', 'check', r.url, '--secret', SECRET]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /^Sending signed test deliveries to http:\/\/127\.0\.0\.1:\d+\/webhooks …$/m);
  const lines = run.stdout.split('\n');
  const at = (title: string) => lines.findIndex((l) => l.endsWith(`  ${title}`));
  const bad = at('Bad deliveries');
  assert.match(lines[bad]!, /^  fail  Bad deliveries$/);
  assert.match(lines[bad + 1]!, /^        why: 6 of 6 bad deliveries were accepted \(2xx\)/);
  assert.match(lines[bad + 2]!, /^        fix: verify Svc-Signature/);
  const valid = at('Valid deliveries');
  assert.match(lines[valid]!, /^  pass  Valid deliveries$/);
  assert.match(lines[valid + 1]!, /^        why: 7 event types and a body laid out differently/);
  assert.match(lines[valid + 2]!, /^  (pass|fail|warn)  Bad deliveries$/, 'no fix line for a check that passed');
  assert.match(run.stdout, /^FAILED: 6 passed, 1 failed, 0 warned$/m);
});

test('a receiver that takes longer than the timeout fails "Time" only; the sender cut off each request it did not answer', async () => {
  // The real flaw is an answer after 11 s against the spec's 10. Waiting 11 real seconds would
  // be slow and, on a busy machine, a bet on wall-clock time; instead this receiver never
  // answers a verified delivery at all (it answers bad ones 400 at once, having verified
  // first), and the check runs with --timeout 1s. That an answer did not come within the
  // timeout is then certain whatever the machine's speed, and the receiver's count of requests
  // whose connection the sender closed proves the check gave up on them rather than waited.
  const r = await receiver('slow');
  const cli = await viaCli(r.url, ['--secret', SECRET, '--timeout', '1s']);
  assert.equal(cli.code, 1, cli.stderr);
  const api = await viaApi(r.url, { timeoutMs: 1000 });
  for (const report of [cli.report, api]) {
    assert.deepEqual(failed(report), ['time']);
    assert.equal(report.timeout_ms, 1000);
    const late = check(report, 'time').requests;
    // Every verified delivery: the valid ones, the duplicate pair, the forward-compatibility pair.
    assert.ok(late.length >= EVENT_TYPES.length + 1 + 2 + 2, String(late.length));
    assert.ok(late.every((q) => q.status === null && q.error === 'timeout: no response within 1000 ms'));
    assert.match(check(report, 'time').why, new RegExp(`^${late.length} of 18 deliveries got no answer within 1 s`));
    // Checks whose every answer was cut off have nothing to grade: they say so, and do not fail.
    for (const id of ['valid', 'duplicate', 'forward_compat'] as const) {
      assert.equal(check(report, id).verdict, 'warn');
      assert.match(check(report, id).why, /^nothing to grade/);
      assert.ok(check(report, id).requests.every((q) => q.verdict === 'skipped'));
    }
    assert.notEqual(check(report, 'bad').verdict, 'fail');
  }
  const timedOut = check(cli.report, 'time').requests.length + check(api, 'time').requests.length;
  // The last connections close as the sender gives up: wait for the receiver to have seen them all.
  for (let i = 0; r.aborted < timedOut && i < 200; i++) await new Promise((ok) => setTimeout(ok, 10));
  assert.equal(r.aborted, timedOut);
});

test('a receiver that redirects fails "No redirects" only (the other checks have no answer to grade)', async () => {
  const r = await receiver('redirects');
  const cli = await viaCli(r.url);
  assert.equal(cli.code, 1, cli.stderr);
  for (const report of [cli.report, await viaApi(r.url)]) {
    assert.deepEqual(failed(report), ['redirects']);
    assert.match(check(report, 'redirects').why, /^18 of 18 deliveries were answered with a redirect \(302\): deliveries do not follow redirects/);
    assert.equal(check(report, 'redirects').requests.length, 18);
    for (const id of ['valid', 'bad', 'duplicate', 'forward_compat'] as const) assert.match(check(report, id).why, /^nothing to grade/);
    assert.deepEqual([check(report, 'time').verdict, check(report, 'transport').verdict], ['pass', 'pass']);
  }
});

test('an answer slower than half the timeout is a warning, not a failure', async () => {
  // The one answer waits 10.5 s in the receiver, so it surely takes more than half of 20 s (the
  // sender's clock starts before the receiver's); the other 9.5 s are room for a busy machine
  // before it would become a timeout (a failure). The wait is idle time, not CPU.
  const r = await receiver('slow-first-answer', SECRET, { firstAnswerDelayMs: 10_500 });
  const report = await viaApi(r.url, { timeoutMs: 20_000, events: ['catalog.published'] });
  assert.deepEqual(verdicts(report), { valid: 'pass', bad: 'pass', duplicate: 'pass', forward_compat: 'pass', time: 'warn', redirects: 'pass', transport: 'pass' });
  assert.equal(report.ok, true, 'a warning is not a failure');
  assert.match(check(report, 'time').why, /^the slowest answer took \d+ ms \(catalog\.published\), more than half of the 20 s allowed/);
  assert.deepEqual(report.events, ['catalog.published']);
  assert.equal(check(report, 'valid').requests.length, 2, 'one type, and the same re-laid out');
});

test('transport: plain http:// to a host that is not loopback warns, unless it is an allowed test host', async () => {
  // Linux routes all of 127/8 to lo, but only 127.0.0.1 counts as loopback for endpoints.
  const other = (await receiver('correct', SECRET, { host: '127.0.0.2' })).url;
  const cli = await viaCli(other);
  assert.equal(cli.code, 0, 'a warning is not a failure');
  assert.equal(check(cli.report, 'transport').verdict, 'warn');
  assert.match(check(cli.report, 'transport').why, /^plain http:\/\/ to 127\.0\.0\.2, not localhost, 127\.0\.0\.1 or \[::1\] nor an allowed test host: a live endpoint must be https/);
  assert.match(check(cli.report, 'transport').fix ?? '', /https/);
  assert.equal((await viaCli(other, ['--secret', SECRET], { SVC_ALLOWED_HOSTS: '127.0.0.2' })).report.counts.warn, 0, 'SVC_ALLOWED_HOSTS names it');
  assert.match(check(await viaApi(other), 'transport').why, /an allowed test host/, "the testing API knows its emulator's allowedHosts");
});

test('--endpoint reads the secret from the emulator; an endpoint it does not know is exit 1 naming it', async () => {
  const created = await fetch(`${emu.baseUrl}/v1/api/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.key('acme-test')}`, 'content-type': 'application/json', 'x-idempotency-key': 'check-endpoint-1' },
    body: JSON.stringify({ url: 'http://localhost:9/webhooks', events: ['payment.completed'] }),
  });
  const { data } = (await created.json()) as { data: { endpoint: { id: string }; secret: string } };
  const r = await receiver('correct', data.secret);
  const known = await viaCli(r.url, ['--endpoint', data.endpoint.id, '--base-url', emu.baseUrl]);
  assert.equal(known.code, 0, known.stderr);
  assert.equal(known.report.ok, true);

  const unknown = await runBinary(['webhooks', 'check', r.url, '--endpoint', 'we_nope', '--base-url', emu.baseUrl]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /NOT_FOUND \(HTTP 404\): No webhook endpoint we_nope\./);
  assert.doesNotMatch(unknown.stderr, /\n\s+at /, 'no stack trace');

  // A deleted endpoint gets nothing any more: its secret is not handed out either.
  const deleted = await fetch(`${emu.baseUrl}/v1/api/webhook-endpoints/${data.endpoint.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${emu.key('acme-test')}`, 'x-idempotency-key': 'check-endpoint-2' } });
  assert.equal(deleted.status, 200);
  const gone = await runBinary(['webhooks', 'check', r.url, '--endpoint', data.endpoint.id, '--base-url', emu.baseUrl]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, new RegExp(`No webhook endpoint ${data.endpoint.id} \\(it was deleted\\)\\.`));
});

test('bad input: an unreachable URL is exit 1 naming the connection error; a bad URL or no secret is exit 2; never a stack trace', async () => {
  const closedPort = await new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
  const unreachable = `http://127.0.0.1:${closedPort}/webhooks`;
  const cases: Array<{ args: string[]; code: number; stderr: RegExp }> = [
    { args: [unreachable, '--secret', SECRET], code: 1, stderr: new RegExp(`^error: cannot reach ${unreachable}: connection refused \\(ECONNREFUSED\\)$`, 'm') },
    { args: ['ftp://example.com/webhooks', '--secret', SECRET], code: 2, stderr: /^error: <url>: must be http:\/\/ or https:\/\/ \(got ftp:\/\/\)/m },
    { args: ['not a url', '--secret', SECRET], code: 2, stderr: /^error: <url>: "not a url" is not an absolute URL/m },
    { args: ['http://localhost:3000/webhooks'], code: 2, stderr: /give the endpoint's signing secret with --secret <secret>, or --endpoint/ },
    { args: ['http://localhost:3000/webhooks', '--secret', SECRET, '--endpoint', 'we_1'], code: 2, stderr: /one of the two/ },
    { args: ['http://localhost:3000/webhooks', '--secret', ''], code: 2, stderr: /--secret is empty/ },
    { args: ['http://localhost:3000/webhooks', '--secret', SECRET, '--events', 'payment.refunded'], code: 2, stderr: /--events: unknown event type "payment\.refunded" \(known: payment\.completed,/ },
    { args: ['http://localhost:3000/webhooks', '--secret', SECRET, '--timeout', 'soon'], code: 2, stderr: /--timeout/ },
  ];
  for (const c of cases) {
    const run = await runBinary(['webhooks', 'check', ...c.args]);
    assert.equal(run.code, c.code, `${c.args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, c.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(run.stdout, '');
  }
  await assert.rejects(emu.checkWebhookReceiver(unreachable, { secret: SECRET }), { message: `cannot reach ${unreachable}: connection refused (ECONNREFUSED)` });
  await assert.rejects(emu.checkWebhookReceiver('mailto:a@b.c', { secret: SECRET }), { name: 'RangeError', message: /^url: must be http/ });
  await assert.rejects(emu.checkWebhookReceiver('http://localhost:3000/webhooks', { secret: '' }), { message: /^secret: / });
});
