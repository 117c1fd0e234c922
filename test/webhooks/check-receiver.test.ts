import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { EVENT_TYPES } from '../../contract/common.js';
import { EVENT_ENVELOPES } from '../../contract/events.js';
import { ReceiverReport, type CheckId } from '../../contract/webhook-check.js';
import { startEmulator, type TestEmulator } from '../../src/testing/index.js';
import { runBinary } from '../cli/run-binary.js';
import { startTestEmulator, tempDir } from '../helpers/emulator.js';
import { networkInterfaces } from 'node:os';
import { svcProcesses } from '../helpers/svc-process.js';
import { startSampleReceiver, type Flaw, type SampleReceiver } from './receivers/express.js';

// `svc webhooks check <url>` grades real receivers, each a listening server under
// test/webhooks/receivers/: through the built CLI in a child process (its --json report and
// its exit code) and through the testing API's emu.checkWebhookReceiver, which run the same
// code (src/webhooks/check/). A correct receiver and the Python example pass every check; each
// flawed one fails (a spec check) or warns (an advice check; fails under --strict) exactly the
// check for its flaw. When no valid delivery was accepted (a wrong secret, a wrong path) the
// one failing check says why and the checks that need an accepted delivery are not graded; a
// check with no answer left to grade (every request was cut off by the timeout or redirected,
// which Time and No redirects grade) is not graded either. (Bad answers that are not HTTP are
// graded in check-bad-answers.test.ts.)

const SECRET = 'check-receiver-test-secret';
/** A folder with no .svc/emulator.json in it or above it: no emulator is found from there. */
const nowhere = tempDir('svc-check-nowhere-');

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
async function viaCli(url: string, args: string[] = ['--secret', SECRET], env: Record<string, string> = {}, cwd = nowhere) {
  const run = await runBinary(['webhooks', 'check', url, '--json', ...args], { env, cwd });
  return { code: run.code, stderr: run.stderr, report: ReceiverReport.parse(run.json()) };
}

const viaApi = async (url: string, options: { timeoutMs?: number; events?: string[] } = {}) => ReceiverReport.parse(await emu.checkWebhookReceiver(url, { secret: SECRET, ...options }));

const verdicts = (r: ReceiverReport) => Object.fromEntries(r.checks.map((c) => [c.id, c.verdict]));
const ALL_PASS = { valid: 'pass', bad: 'pass', timestamps: 'pass', refusal_status: 'pass', duplicate: 'pass', forward_compat: 'pass', time: 'pass', redirects: 'pass', transport: 'pass' } as const;
/** Checks that need an accepted delivery. */
const GATED = ['bad', 'timestamps', 'refusal_status', 'duplicate', 'forward_compat'] as const;
const GATE_CLOSED = { bad: 'not_graded', timestamps: 'not_graded', refusal_status: 'not_graded', duplicate: 'not_graded', forward_compat: 'not_graded' } as const;
const failed = (r: ReceiverReport) => r.checks.filter((c) => c.verdict === 'fail').map((c) => c.id);
const check = (r: ReceiverReport, id: CheckId) => r.checks.find((c) => c.id === id)!;

/** Every check passes, the report says so, and every request of checks 1-4 was graded. */
function assertAllPass(r: ReceiverReport, label: string) {
  assert.deepEqual(verdicts(r), ALL_PASS, `${label}: ${JSON.stringify(r.checks.map((c) => [c.id, c.why]))}`);
  assert.equal(r.ok, true);
  assert.deepEqual(r.counts, { pass: 9, fail: 0, warn: 0, not_graded: 0 });
  for (const id of ['valid', ...GATED] as const) assert.ok(check(r, id).requests.every((q) => q.verdict === 'pass'), `${label}: ${id}`);
  assert.deepEqual(
    r.checks.filter((c) => c.basis === 'advice').map((c) => c.id),
    ['timestamps', 'refusal_status', 'forward_compat', 'transport'],
    'the report says which checks are advice',
  );
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
  // with the emulator's headers; the re-laid-out one has tabs, \u escapes and reversed keys;
  // the last carries two v1= entries, the valid one first.
  const valid = check(cli.report, 'valid').requests;
  assert.equal(valid.length, EVENT_TYPES.length + 2);
  for (const [i, type] of EVENT_TYPES.entries()) {
    assert.equal(valid[i].request.headers['svc-event'], type);
    EVENT_ENVELOPES[type].parse(JSON.parse(valid[i].request.body));
    assert.match(valid[i].request.headers['svc-signature'], /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.match(valid[i].request.headers['svc-delivery'], /^dlv_[A-Za-z0-9]{20}$/);
    assert.equal(valid[i].request.headers['user-agent'], 'svc-emulator-webhooks/1');
  }
  assert.match(valid.at(-1)!.request.headers['svc-signature'], /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  const relaid = valid.at(-2)!.request.body;
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

/** What each flawed receiver gets: the checks that do not pass (spec ones fail, advice ones warn), and the why of the first. */
const FLAWED: Array<{ flaw: Flaw; not: Partial<Record<CheckId, ReceiverReport['checks'][number]['verdict']>>; why: RegExp; fix: RegExp }> = [
  { flaw: 'reserialized', not: { valid: 'fail' }, why: /answered 2xx when compact, but 400 when laid out differently: the receiver verifies re-serialized JSON/, fix: /raw body/ },
  {
    flaw: 'no-verification',
    not: { bad: 'fail', timestamps: 'warn', refusal_status: 'not_graded' },
    why: /^5 of 5 forged deliveries were accepted \(2xx\): no Svc-Signature header → 200.*none carries a valid signature/,
    fix: /verify Svc-Signature/,
  },
  { flaw: '500-on-bad-signature', not: { refusal_status: 'warn' }, why: /^7 of 7 refused deliveries were not answered 4xx: .*timestamp 301 s old → 500.*a 5xx \(or a dropped connection\) says your server failed/, fix: /answer 400 \(never 5xx\)/ },
  { flaw: '500-on-duplicate', not: { duplicate: 'fail' }, why: /got 500 \(payment\.completed, same Svc-Delivery again\)/, fix: /dedupe on Svc-Delivery/ },
  { flaw: 'rejects-unknown-types', not: { forward_compat: 'warn' }, why: /^unknown event type svc_check\.unknown_type → 400/, fix: /event types you do not handle/ },
  { flaw: 'accepts-future', not: { timestamps: 'warn' }, why: /^1 of 2 deliveries correctly signed at a time more than 300 s from now were accepted: timestamp a day in the future → 200/, fix: /either way/ },
  { flaw: 'last-v1-only', not: { valid: 'fail' }, why: /^a header with two v1= signatures, the valid one first, was answered 400: the receiver reads only one v1= entry/, fix: /any v1= entry matches/ },
  // Nothing any correct verifier would accept reached it: a lenient split of the header is no flaw.
  { flaw: 'lenient-header', not: {}, why: /./, fix: /./ },
  // No valid delivery accepted: the one failing check says why, the rest of what needs an accepted delivery is not graded.
  ...(['wrong-secret', 'body-only-signature'] as const).map((flaw) => ({
    flaw,
    not: { valid: 'fail' as const, ...GATE_CLOSED },
    why: new RegExp(`^every correctly signed delivery \\(${EVENT_TYPES.length}\\) was answered ${flaw === 'wrong-secret' ? 401 : 400}: the receiver refused every signature that verifies`),
    fix: /^check the secret .* and that the raw body is signed as t\.body: HMAC-SHA256 of "<t>\.<raw body>"/,
  })),
  {
    flaw: 'wrong-path',
    not: { valid: 'fail' as const, ...GATE_CLOSED },
    why: new RegExp(`^every correctly signed delivery \\(${EVENT_TYPES.length}\\) was answered 404: nothing answers POST /webhooks there`),
    fix: /^wrong path\?/,
  },
];

for (const { flaw, not, why, fix } of FLAWED) {
  const expected = { ...ALL_PASS, ...not };
  const fails = Object.values(not).includes('fail');
  test(`a receiver that ${flaw.replace(/-/g, ' ')}: ${Object.entries(not).map(([id, v]) => `${id} ${v}`).join(', ') || 'passes every check'}; exit ${fails ? 1 : 0} (and 1 under --strict if it warned)`, async () => {
    const r = await receiver(flaw);
    const cli = await viaCli(r.url);
    assert.equal(cli.code, fails ? 1 : 0, cli.stderr);
    for (const report of [cli.report, await viaApi(r.url)]) {
      assert.deepEqual(verdicts(report), expected, JSON.stringify(report.checks.map((c) => [c.id, c.verdict, c.why])));
      assert.equal(report.ok, !fails);
      const first = report.checks.find((c) => c.verdict !== 'pass');
      if (first) {
        assert.match(first.why, why);
        assert.match(first.fix ?? '', fix);
      }
      for (const c of report.checks.filter((c) => c.verdict === 'not_graded')) {
        assert.match(c.why, /^no (valid delivery was accepted|bad delivery was refused)/, c.id);
        assert.equal(c.fix, null);
      }
    }
    if (Object.values(not).includes('warn')) {
      // The advice becomes a failure under --strict.
      const strict = await viaCli(r.url, ['--secret', SECRET, '--strict']);
      assert.equal(strict.code, 1, strict.stderr);
      assert.equal(strict.report.strict, true);
      for (const [id, v] of Object.entries(not)) assert.equal(check(strict.report, id as CheckId).verdict, v === 'warn' ? 'fail' : v, id);
    }
  });
}

test('the human report: each check a verdict, a title and its basis, a why line, and a fix line unless it passed; exit 1', async () => {
  const r = await receiver('no-verification');
  const run = await runBinary(['webhooks', 'check', r.url, '--secret', SECRET]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /^Sending signed test deliveries to http:\/\/127\.0\.0\.1:\d+\/webhooks …$/m);
  const lines = run.stdout.split('\n');
  const at = (title: string) => lines.findIndex((l) => l.includes(`  ${title} (`));
  const bad = at('Forged deliveries');
  assert.match(lines[bad]!, /^  fail  Forged deliveries \(spec\)$/);
  assert.match(lines[bad + 1]!, /^        why: 5 of 5 forged deliveries were accepted \(2xx\)/);
  assert.match(lines[bad + 2]!, /^        fix: verify Svc-Signature/);
  assert.match(lines[at('Timestamps out of tolerance')]!, /^  warn  Timestamps out of tolerance \(advice\)$/);
  assert.match(lines[at('Refusals are 4xx')]!, /^  not graded  Refusals are 4xx \(advice\)$/);
  const valid = at('Valid deliveries');
  assert.match(lines[valid]!, /^  pass  Valid deliveries \(spec\)$/);
  assert.match(lines[valid + 1]!, /^        why: 7 event types, a body laid out differently .* and a header with two v1= signatures were answered 2xx$/);
  assert.match(lines[valid + 2]!, /^  (pass|fail|warn)  Forged deliveries/, 'no fix line for a check that passed');
  assert.match(run.stdout, /^FAILED: 6 passed, 1 failed, 1 warned, 1 not graded$/m);
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
    assert.ok(late.length >= EVENT_TYPES.length + 2 + 2 + 2, String(late.length));
    assert.ok(late.every((q) => q.status === null && q.error === 'timeout: no response within 1000 ms'));
    assert.match(check(report, 'time').why, new RegExp(`^${late.length} of 20 deliveries got no answer within 1 s`));
    // No valid delivery had an answer to grade: what needs one is not graded, and says where to look.
    assert.equal(check(report, 'valid').verdict, 'not_graded');
    assert.ok(check(report, 'valid').requests.every((q) => q.verdict === 'skipped'));
    for (const id of GATED) {
      assert.equal(check(report, id).verdict, 'not_graded');
      assert.match(check(report, id).why, /^no valid delivery got an answer to grade \(each was a redirect or came too late: see No redirects and Time\)/);
    }
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
    assert.match(check(report, 'redirects').why, /^20 of 20 deliveries were answered with a redirect \(302\): deliveries do not follow redirects/);
    assert.equal(check(report, 'redirects').requests.length, 20);
    for (const id of ['valid', ...GATED] as const) assert.equal(check(report, id).verdict, 'not_graded', id);
    assert.deepEqual([check(report, 'time').verdict, check(report, 'transport').verdict], ['pass', 'pass']);
  }
});

test('an answer slower than half the timeout is a warning, not a failure', async () => {
  // The one answer waits 10.5 s in the receiver, so it surely takes more than half of 20 s (the
  // sender's clock starts before the receiver's); the other 9.5 s are room for a busy machine
  // before it would become a timeout (a failure). The wait is idle time, not CPU.
  const r = await receiver('slow-first-answer', SECRET, { firstAnswerDelayMs: 10_500 });
  const report = await viaApi(r.url, { timeoutMs: 20_000, events: ['catalog.published'] });
  assert.deepEqual(verdicts(report), { ...ALL_PASS, time: 'warn' });
  assert.equal(report.ok, true, 'a warning is not a failure');
  assert.match(check(report, 'time').why, /^the slowest answer took \d+ ms \(catalog\.published\), more than half of the 20 s allowed/);
  assert.deepEqual(report.events, ['catalog.published']);
  assert.equal(check(report, 'valid').requests.length, 3, 'one type, the same re-laid out, and with two signatures');
});

test('transport: plain http:// to a host that is not loopback warns, unless it is an allowed test host', async () => {
  // Linux routes all of 127/8 to lo, but only 127.0.0.1 counts as loopback for endpoints.
  const other = (await receiver('correct', SECRET, { host: '127.0.0.2' })).url;
  const cli = await viaCli(other);
  assert.equal(cli.code, 0, 'a warning is not a failure');
  assert.equal(cli.stderr, '', 'no emulator found from this folder: none asked, nothing said');
  assert.equal(check(cli.report, 'transport').verdict, 'warn');
  assert.match(check(cli.report, 'transport').why, /^plain http:\/\/ to 127\.0\.0\.2, not localhost, 127\.0\.0\.1 or \[::1\] nor an allowed test host: a live endpoint must be https/);
  assert.match(check(cli.report, 'transport').fix ?? '', /https/);
  assert.equal((await viaCli(other, ['--secret', SECRET], { SVC_ALLOWED_HOSTS: '127.0.0.2' })).report.counts.warn, 0, 'SVC_ALLOWED_HOSTS names it');
  assert.match(check(await viaApi(other), 'transport').why, /an allowed test host/, "the testing API knows its emulator's allowedHosts");
  // With --endpoint, the CLI asks the emulator: its --allow-host names are test hosts (no SVC_ALLOWED_HOSTS here).
  const { id } = await endpoint(other, ['catalog.published']);
  const viaEndpoint = await viaCli(other, ['--endpoint', id, '--base-url', emu.baseUrl]);
  assert.equal(check(viaEndpoint.report, 'transport').verdict, 'pass', check(viaEndpoint.report, 'transport').why);
  assert.match(check(viaEndpoint.report, 'transport').why, /^plain http:\/\/ to 127\.0\.0\.2, an allowed test host/);
});

test('--secret reads the allowed hosts of the emulator the CLI finds; one it cannot read is said, and the check still runs', async (t) => {
  const other = (await receiver('correct', SECRET, { host: '127.0.0.2' })).url;
  const transport = (r: Awaited<ReturnType<typeof viaCli>>) => check(r.report, 'transport');
  const procs = svcProcesses(t.signal);
  try {
    // A real `svc emulator start` in a project: found from a folder below (.svc/emulator.json),
    // as every command finds it; the testing API's emulator through --base-url and SVC_BASE_URL.
    const project = tempDir('svc-check-project-');
    mkdirSync(join(project, 'src'));
    const started = await procs.start(['--port', '0', '--quiet', '--allow-host', '127.0.0.2'], {}, { cwd: project });
    for (const [how, run] of [
      ['.svc/emulator.json above the folder', () => viaCli(other, ['--secret', SECRET], {}, join(project, 'src'))],
      ['--base-url', () => viaCli(other, ['--secret', SECRET, '--base-url', emu.baseUrl])],
      ['SVC_BASE_URL', () => viaCli(other, ['--secret', SECRET], { SVC_BASE_URL: emu.baseUrl })],
    ] as const) {
      const found = await run();
      assert.equal(found.code, 0, `${how}: ${found.stderr}`);
      assert.equal(transport(found).verdict, 'pass', `${how}: ${transport(found).why}`);
      assert.match(transport(found).why, /^plain http:\/\/ to 127\.0\.0\.2, an allowed test host/, how);
      assert.equal(found.stderr, '', how);
    }

    // Found but not read: nothing listening, the emulator's door refusing the name it was
    // reached by (an IPv4-mapped address reaches its 127.0.0.1 socket with Host
    // "[::ffff:7f00:1]"), a host that is not an emulator. Each is one line on stderr, and the
    // whole check runs, with the warning a host nobody named as a test host gets.
    const mapped = started.ready.base_url.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    const unread: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${await closedPort()}`, /nothing is listening at http:\/\/127\.0\.0\.1:\d+\/_emulator \(connection refused\)/],
      [mapped, /the emulator at http:\/\/\[::ffff:127\.0\.0\.1\]:\d+ refused the request: Refused: Host "\[::ffff:7f00:1\]:\d+" does not name this emulator/],
      [new URL(other).origin, /http:\/\/127\.0\.0\.2:\d+ is not an svc emulator/],
    ];
    for (const [base, why] of unread) {
      const lost = await viaCli(other, ['--secret', SECRET, '--base-url', base]);
      assert.equal(lost.code, 0, lost.stderr);
      assert.equal(transport(lost).verdict, 'warn', base);
      assert.equal(lost.report.counts.pass + lost.report.counts.warn, lost.report.checks.length, `${base}: every check ran`);
      const [note, ...rest] = lost.stderr.split('\n').filter(Boolean);
      assert.deepEqual(rest, [], `${base}: one line`);
      assert.match(note ?? '', /^note: the emulator's allowed hosts \(--allow-host\) could not be read, so only loopback and SVC_ALLOWED_HOSTS are test hosts here: /, base);
      assert.match(note ?? '', why, base);
    }

    // An emulator on another host asks for its control token (this machine's own address makes
    // this process a caller that is not loopback): without it, the door's refusal and its fix;
    // with --control-token, read through the control API like every emulator-only command.
    const address = Object.values(networkInterfaces()).flat().find((a) => a && !a.internal && a.family === 'IPv4')?.address;
    if (address) {
      const token = 'tok_0123456789abcdef_check_receiver';
      const remote = await startTestEmulator({ host: address, controlToken: token, allowedHosts: ['127.0.0.2'] });
      t.after(() => remote.stop());
      const refused = await viaCli(other, ['--secret', SECRET, '--base-url', remote.localUrl]);
      assert.equal(transport(refused).verdict, 'warn');
      assert.match(refused.stderr, /^note: .*refused the request: .*Pass --control-token <token> or set SVC_CONTROL_TOKEN/);
      const read = await viaCli(other, ['--secret', SECRET, '--base-url', remote.localUrl, '--control-token', token]);
      assert.equal(transport(read).verdict, 'pass', read.stderr);
      assert.equal(read.stderr, '');
    } else t.diagnostic('the control token case skipped: this machine has no address besides loopback');

    // Asked once, within --timeout, and only when it matters: a host that answers 503 gets one
    // request (not the five a retried call makes), and none for a loopback receiver or one
    // SVC_ALLOWED_HOSTS names.
    const asked: string[] = [];
    const busy = createHttpServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{}');
    });
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    t.after(() => busy.close());
    const busyUrl = `http://127.0.0.1:${(busy.address() as { port: number }).port}`;
    const once = await viaCli(other, ['--secret', SECRET, '--base-url', busyUrl]);
    assert.deepEqual(asked, ['GET /_emulator/health']);
    assert.match(once.stderr, /^note: .*GET \/_emulator\/health answered HTTP 503/);
    const near = (await receiver('correct')).url;
    assert.equal((await viaCli(near, ['--secret', SECRET, '--base-url', busyUrl])).code, 0);
    assert.equal((await viaCli(other, ['--secret', SECRET, '--base-url', busyUrl], { SVC_ALLOWED_HOSTS: '127.0.0.2' })).stderr, '');
    assert.deepEqual(asked, ['GET /_emulator/health'], 'nothing asked when the receiver is already a test host');

    // The emulator gone (killed: its discovery file left behind, naming a dead process): no
    // emulator is found, which is no error, so nothing is said.
    await procs.end();
    const gone = await viaCli(other, ['--secret', SECRET], {}, join(project, 'src'));
    assert.equal(transport(gone).verdict, 'warn');
    assert.equal(gone.stderr, '');
  } finally {
    await procs.end();
  }
});

/** A port nothing listens on (it did a moment ago). */
const closedPort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** A test endpoint of acme's on `url`, subscribed to `events`: its id and secret. */
async function endpoint(url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const created = await fetch(`${emu.baseUrl}/v1/api/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.key('acme-test')}`, 'content-type': 'application/json', 'x-idempotency-key': `check-endpoint-${url}-${events}` },
    body: JSON.stringify({ url, events }),
  });
  const { data } = (await created.json()) as { data: { endpoint: { id: string }; secret: string } };
  return { id: data.endpoint.id, secret: data.secret };
}

test('--endpoint reads the secret from the emulator and sends only the types the endpoint subscribes to; an endpoint it does not know is exit 1 naming it, before anything is sent', async () => {
  const data = { endpoint: await endpoint('http://localhost:9/webhooks', ['payment.completed', 'inventory.low_stock']) };
  const r = await receiver('correct', data.endpoint.secret);
  const known = await viaCli(r.url, ['--endpoint', data.endpoint.id, '--base-url', emu.baseUrl]);
  assert.equal(known.code, 0, known.stderr);
  assert.equal(known.report.ok, true);
  assert.deepEqual(known.report.events, ['payment.completed', 'inventory.low_stock']);
  const sentTypes = new Set(known.report.checks.flatMap((c) => c.requests.map((q) => q.request.headers['svc-event'])));
  assert.deepEqual([...sentTypes].sort(), ['inventory.low_stock', 'payment.completed', 'svc_check.unknown_type'], 'no type the endpoint does not subscribe to (but the unknown one)');
  // --events narrows them; a type the endpoint does not subscribe to is a usage error, before anything is sent.
  const narrowed = await viaCli(r.url, ['--endpoint', data.endpoint.id, '--base-url', emu.baseUrl, '--events', 'inventory.low_stock']);
  assert.deepEqual(narrowed.report.events, ['inventory.low_stock']);
  const other = await runBinary(['webhooks', 'check', r.url, '--endpoint', data.endpoint.id, '--base-url', emu.baseUrl, '--events', 'payment.failed']);
  assert.equal(other.code, 2, other.stderr);
  assert.match(other.stderr, new RegExp(`^error: --events: ${data.endpoint.id} does not subscribe to payment\\.failed \\(it subscribes to payment\\.completed, inventory\\.low_stock\\)\\.$`, 'm'));
  assert.doesNotMatch(other.stderr, /Sending/);

  const unknown = await runBinary(['webhooks', 'check', r.url, '--endpoint', 'we_nope', '--base-url', emu.baseUrl]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /NOT_FOUND \(HTTP 404\): No webhook endpoint we_nope\./);
  assert.doesNotMatch(unknown.stderr, /\n\s+at /, 'no stack trace');
  assert.doesNotMatch(unknown.stderr, /Sending/, 'the 404 comes before anything is sent');

  // A deleted endpoint gets nothing any more: its secret is not handed out either.
  const deleted = await fetch(`${emu.baseUrl}/v1/api/webhook-endpoints/${data.endpoint.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${emu.key('acme-test')}`, 'x-idempotency-key': `check-endpoint-delete-${data.endpoint.id}` } });
  assert.equal(deleted.status, 200);
  const gone = await runBinary(['webhooks', 'check', r.url, '--endpoint', data.endpoint.id, '--base-url', emu.baseUrl]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, new RegExp(`No webhook endpoint ${data.endpoint.id} \\(it was deleted\\)\\.`));
});

test('bad input: an unreachable URL is exit 1 naming the connection error; a bad URL or no secret is exit 2; never a stack trace', async () => {
  const unreachable = `http://127.0.0.1:${await closedPort()}/webhooks`;
  const cases: Array<{ args: string[]; code: number; stderr: RegExp }> = [
    { args: [unreachable, '--secret', SECRET], code: 1, stderr: new RegExp(`^error: cannot reach ${unreachable}: connection refused \\(ECONNREFUSED\\)$`, 'm') },
    { args: ['ftp://example.com/webhooks', '--secret', SECRET], code: 2, stderr: /^error: <url>: must be http:\/\/ or https:\/\/ \(got ftp:\/\/\)/m },
    { args: ['not a url', '--secret', SECRET], code: 2, stderr: /^error: <url>: "not a url" is not an absolute URL/m },
    { args: ['http://localhost:3000/webhooks'], code: 2, stderr: /give the endpoint's signing secret with --secret <secret>, or --endpoint/ },
    { args: ['http://localhost:3000/webhooks', '--secret', SECRET, '--endpoint', 'we_1'], code: 2, stderr: /one of the two/ },
    { args: ['http://localhost:3000/webhooks', '--secret', ''], code: 2, stderr: /^error: --secret: give the endpoint's signing secret \(an empty or blank key signs nothing\)\.$/m },
    { args: ['http://localhost:3000/webhooks', '--secret', '   '], code: 2, stderr: /^error: --secret: give the endpoint's signing secret \(an empty or blank key signs nothing\)\.$/m },
    { args: ['http://localhost:3000/webhooks', '--secret', `${SECRET}\n`], code: 2, stderr: /^error: --secret: holds a newline: give the secret alone/m },
    // The URL parser would drop the newline and grade another URL than the one typed.
    { args: ['http://localhost:3000/web\nhooks', '--secret', SECRET], code: 2, stderr: /^error: <url>: holds a control character \(U\+000A, a newline\)/m },
    { args: ['http://localhost:3000/webhooks\t', '--secret', SECRET], code: 2, stderr: /^error: <url>: holds a control character \(U\+0009\)/m },
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
  await assert.rejects(emu.checkWebhookReceiver('http://localhost:3000/webhooks', { secret: 'a\r\nb' }), { message: /^secret: holds a newline/ });
  await assert.rejects(emu.checkWebhookReceiver('http://localhost:3000/\nwebhooks', { secret: SECRET }), { message: /^url: holds a control character/ });
});
