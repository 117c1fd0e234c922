import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBinary } from './run-binary.js';
import { tempDir } from '../helpers/emulator.js';

// `svc emulator exec --coverage -- <tests>` as a CI step runs it (the binary: exec owns its
// process): a small merchant suite of known requests and deliveries, whose coverage.json lists
// exactly those items covered, with their counts, and every other item uncovered; the summary
// on stderr; --coverage-min passing at and failing below the threshold while a failing suite
// keeps its own exit code; and the bad inputs (a threshold outside 0-100, an out dir that
// cannot be written, an ignore pattern that names nothing).

// The merchant's suite (node:test), with its webhook receiver: it answers 500 to the first
// delivery and 200 to the retry. The clock is manual, so the suite moves it to each attempt.
const SUITE = `
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
const base = process.env.SVC_BASE_URL;
const call = async (method, path, { body, idem, auth = true } = {}) => {
  const headers = { 'content-type': 'application/json' };
  if (auth) headers.authorization = 'Bearer ' + process.env.SVC_API_KEY;
  if (idem) headers['x-idempotency-key'] = idem;
  const r = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};
const nextDelivery = () => fetch(base + '/_emulator/clock/advance-to-next-delivery', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

test('a failed link payment reaches the receiver after one 500', async () => {
  const answers = [500, 200];
  const got = [];
  const server = createServer((req, res) => { req.resume(); req.on('end', () => { got.push(req.headers['svc-event']); res.statusCode = answers.shift() ?? 200; res.end(); }); });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const endpoint = await call('POST', '/v1/api/webhook-endpoints', { body: { url: 'http://127.0.0.1:' + server.address().port + '/hooks', events: ['payment.failed'] } });
    assert.equal(endpoint.status, 201);
    const body = { title: 'Beans', amount: 500, currency: 'USD' };
    const link = await call('POST', '/v1/api/payment-links', { body, idem: 'link-1' });
    assert.equal(link.status, 201);
    assert.equal((await call('POST', '/v1/api/payment-links', { body, idem: 'link-1' })).status, 201);
    assert.equal((await call('POST', '/v1/api/payment-links', { body: { title: 'Tea' }, idem: 'link-1' })).status, 409);
    assert.equal((await call('GET', '/v1/api/payment-links/' + link.json.data.id)).status, 200);
    const paid = await call('POST', '/v1/api/payment-links/' + link.json.data.id + '/simulate', { body: { outcome: 'failed', method: 'card' } });
    assert.equal(paid.json.data.status, 'failed');
    await nextDelivery();
    await nextDelivery();
    assert.deepEqual(got, ['payment.failed', 'payment.failed']);
  } finally {
    server.close();
  }
});

test('payments: two pages, an unknown id, no key', async () => {
  const first = await call('GET', '/v1/api/payments?limit=1');
  assert.equal(first.status, 200);
  assert.equal((await call('GET', '/v1/api/payments?limit=1&before=' + encodeURIComponent(first.json.data.next_before))).status, 200);
  assert.equal((await call('GET', '/v1/api/payments/pay_nothing')).status, 404);
  assert.equal((await call('GET', '/v1/api/payments', { auth: false })).status, 401);
});
`;

/** Exactly what the suite exercised: item (kind and name) → count. */
const EXPECTED: Record<string, number> = {
  'route POST /v1/api/webhook-endpoints 201': 1,
  'route POST /v1/api/payment-links 201': 2,
  'error POST /v1/api/payment-links 409 IDEMPOTENCY_CONFLICT': 1,
  'route GET /v1/api/payment-links/:id 200': 1,
  'route POST /v1/api/payment-links/:id/simulate 201': 1,
  'route GET /v1/api/payments 200': 2,
  'error GET /v1/api/payments/:id 404 NOT_FOUND': 1,
  'error GET /v1/api/payments 401 UNAUTHORIZED': 1,
  'event payment.failed': 1,
  'delivery retried after a 5xx': 1,
  'flow idempotent replay': 1,
  'flow idempotency conflict': 1,
  'flow link payment failed': 1,
  'flow second page of a list': 1,
};

interface Item {
  kind: string;
  name: string;
  covered: boolean;
  count: number;
  ignored: boolean;
}

test('a merchant suite under exec --coverage: coverage.json lists exactly what it exercised, with the counts; the summary says what it never did and how', async () => {
  const cwd = tempDir('svc-exec-coverage-');
  writeFileSync(join(cwd, 'suite.test.mjs'), SUITE);
  // NODE_TEST_CONTEXT: this file's runner marks its children; the merchant's runner is not one of them.
  const r = await runBinary(['emulator', 'exec', '--clock', 'manual', '--coverage', '--', process.execPath, '--test', '--test-reporter=tap', 'suite.test.mjs'], { cwd, timeoutMs: 90_000, env: { NODE_TEST_CONTEXT: undefined } });
  assert.match(r.stdout, /# pass 2\n# fail 0/);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const report = JSON.parse(readFileSync(join(cwd, 'svc-coverage', 'coverage.json'), 'utf8'));
  const covered = Object.fromEntries(report.items.filter((i: Item) => i.covered).map((i: Item) => [`${i.kind} ${i.name}`, i.count]));
  assert.deepEqual(covered, EXPECTED);
  assert.ok(report.items.filter((i: Item) => !i.covered).every((i: Item) => i.count === 0 && !i.ignored));
  const total = report.items.length;
  assert.deepEqual([report.covered, report.total, report.ignored], [14, total, 0]);
  assert.equal(report.percent, Math.floor(14_000 / total) / 10);
  assert.equal(report.kinds.find((k: { kind: string }) => k.kind === 'delivery').covered, 1);
  // The summary: a row per kind, then the ten most important never exercised, each with its how.
  assert.match(r.stderr, new RegExp(`${report.percent.toFixed(1)}% covered: 14 of ${total} items`));
  assert.match(r.stderr, /^ {2}flow +4\/16 +25\.0% +0$/m);
  assert.match(r.stderr, /Never exercised, most important first \(10 of \d+\):\n {2}delivery {2}dead_letter\n {12}how: answer non-2xx to all 7 attempts/);
  assert.equal((r.stderr.match(/^ {12}how: /gm) ?? []).length, 10);
  assert.match(readFileSync(join(cwd, 'svc-coverage', 'coverage.html'), 'utf8'), /<h1>Integration coverage<\/h1>/);
});

/** A suite of one GET, passing or failing with `exit`; under exec with coverage flags. */
async function tiny(flags: string[], exit = 0, cwd = tempDir('svc-exec-coverage-min-')) {
  const script = `fetch(process.env.SVC_BASE_URL + '/v1/api/payments', { headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY } }).then((r) => { require('fs').writeFileSync('ran', String(r.status)); process.exit(${exit}); });`;
  const r = await runBinary(['emulator', 'exec', ...flags, '--', process.execPath, '-e', script], { cwd, timeoutMs: 60_000 });
  return { ...r, cwd, ran: existsSync(join(cwd, 'ran')) };
}

test('--coverage-min: passes at the threshold, exits 1 below it although the tests passed, and keeps the tests\' own exit code when they failed', async () => {
  const probe = await tiny(['--coverage']);
  assert.equal(probe.code, 0, probe.stderr);
  const { covered, total } = JSON.parse(readFileSync(join(probe.cwd, 'svc-coverage', 'coverage.json'), 'utf8'));
  assert.equal(covered, 1);
  const exact = String((100 * covered) / total); // the run's own coverage, to the last digit

  const at = await tiny(['--coverage-min', exact]);
  assert.equal(at.code, 0, at.stderr);
  assert.doesNotMatch(at.stderr, /below/);

  const below = await tiny(['--coverage-min', String((100 * covered) / total + 0.01)]);
  assert.equal(below.code, 1, below.stderr);
  assert.match(below.stderr, /svc emulator exec: coverage 0\.\d% is below --coverage-min [\d.]+%: exit 1, although the command passed/);
  assert.ok(existsSync(join(below.cwd, 'svc-coverage', 'coverage.json')), 'written all the same');

  const failing = await tiny(['--coverage-min', '90'], 3);
  assert.equal(failing.code, 3, failing.stderr);
  assert.match(failing.stderr, /is below --coverage-min 90%; exit 3, the command's own/);

  const fromEnv = await runBinary(['emulator', 'exec', '--', process.execPath, '-e', '0'], { cwd: tempDir(), env: { SVC_COVERAGE_MIN: '100' }, timeoutMs: 60_000 });
  assert.equal(fromEnv.code, 1, 'SVC_COVERAGE_MIN alone asks for coverage');
  assert.match(fromEnv.stderr, /is below SVC_COVERAGE_MIN 100%/);
});

test('bad coverage input: a threshold outside 0-100 and an out dir that cannot be written are exit 2 before the tests run; a pattern naming nothing warns once', async () => {
  for (const value of ['101', '-1', 'most']) {
    const r = await tiny(['--coverage-min', value]);
    assert.equal(r.code, 2, `${value}: ${r.stderr}`);
    assert.match(r.stderr, /--coverage-min/);
    assert.equal(r.ran, false, `${value}: the tests did not run`);
  }
  const cwd = tempDir('svc-exec-coverage-out-');
  writeFileSync(join(cwd, 'a-file'), '');
  const unwritable = await tiny(['--coverage', '--coverage-out', join(cwd, 'a-file', 'coverage')], 0, cwd);
  assert.equal(unwritable.code, 2, unwritable.stderr);
  assert.match(unwritable.stderr, /--coverage-out: cannot write to .*a-file\/coverage \(ENOTDIR.*\); the command was not run/);
  assert.equal(unwritable.ran, false);

  const unmatched = await tiny(['--coverage-ignore', 'payroll', '--coverage-ignore', 'refunds']);
  assert.equal(unmatched.code, 0, unmatched.stderr);
  assert.equal((unmatched.stderr.match(/warning/g) ?? []).length, 1);
  assert.match(unmatched.stderr, /svc emulator exec: warning: --coverage-ignore "refunds" matches no coverage item; nothing was ignored for it/);
  const report = JSON.parse(readFileSync(join(unmatched.cwd, 'svc-coverage', 'coverage.json'), 'utf8'));
  assert.ok(report.ignored > 0 && report.items.filter((i: Item) => i.ignored).every((i: Item) => /payroll/i.test(i.name)));
  assert.match(unmatched.stderr, new RegExp(`\\(${report.ignored} ignored, counted apart\\)`));
});
