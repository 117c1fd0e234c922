import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { cliSession, target } from '../cli/cli.js';

// What a scenario run says when the host does not do what the file expects (issue 44): a wrong
// expectation of each kind fails naming the step and the first differing path; the emulator's
// own actions (advance, otp, fault) run and what they leave is removed; --only/--skip and the
// JUnit counts of failures and skips; and every bad input is exit 2 with its file, line and
// column, before anything is sent (a host that records what it gets sees nothing).

const cli = cliSession({ clock: 'system' });
const dir = tempDir('svc-scenario-expect-');
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

const WRONG = `name: wrong
steps:
  - name: link
    request: POST /v1/api/payment-links
    idempotency_key: wrong-\${.run}
    body: { title: "Wrong \${.run}", amount: 100, currency: USD }
    expect: { status: 200 }
  - name: no-key
    request: POST /v1/api/payment-links
    body: { title: "Wrong", amount: 100, currency: USD }
    expect: { code: VALIDATION_ERROR }
  - name: field
    request: GET /v1/api/payment-links/\${link:data.id}
    expect: { body: { data: { amount: 101 } } }
  - name: matcher
    request: GET /v1/api/payment-links/\${link:data.id}
    expect: { body: { data: { link_code: { $matches: "^XX" } } } }
  - name: pay
    request: POST /v1/api/payment-links/\${link:data.id}/simulate
    body: { outcome: completed, method: card }
  - name: paid
    webhook: payment.completed
  - name: hook
    webhook: payment.completed
    within: 2s
    match: { payment: { amount: 123456 } }
  - name: pass
    request: GET /v1/api/payments/\${pay:data.id}
`;

test('a wrong expectation of each kind fails naming the step and the differing path; the JUnit file counts failures and skips', async () => {
  const junitFile = join(dir, 'wrong.xml');
  const r = await cli.svc(['scenario', 'run', file('wrong.yaml', WRONG), '--skip', 'pass', '--junit', junitFile], undefined, { timeoutMs: 120_000 });
  assert.equal(r.code, 1, r.stderr);
  const after = (step: string) => r.stdout.slice(r.stdout.indexOf(`  FAIL  ${step} `));
  assert.match(after('link'), /^ {2}FAIL {2}link +POST \/v1\/api\/payment-links → 201 .*\n {8}status: expected 200, received 201\n {8}request: POST \/v1\/api\/payment-links \{"title":"Wrong \w+","amount":100,"currency":"USD"\}/);
  assert.match(after('no-key'), /^.*\n {8}code: expected "VALIDATION_ERROR", received "IDEMPOTENCY_KEY_REQUIRED"\n/);
  assert.match(after('field'), /^.*GET \/v1\/api\/payment-links\/pl_\w+ → 200.*\n {8}\$\.data\.amount: expected 101, received 100\n/);
  assert.match(after('matcher'), /^.*\n {8}\$\.data\.link_code: expected a string matching \/\^XX\/, received "PL-[A-Z0-9]{8}"\n/);
  // The webhook came (step paid took it), but none that matches: the first one's differing path is named.
  assert.match(after('hook'), /^ {2}FAIL {2}hook +webhook payment\.completed .*\n {8}no payment\.completed event matching arrived within 2s; the first one since the scenario began differs at \$\.data\.payment\.amount: expected 123456, received 100\n/);
  assert.match(r.stdout, /^ {2}PASS {2}pay /m);
  assert.match(r.stdout, /^ {2}PASS {2}paid /m);
  assert.match(r.stdout, /^ {2}SKIP {2}pass +named by --skip$/m);
  assert.match(r.stdout, /^1 scenario\(s\), 8 step\(s\): 2 passed, 5 failed, 1 skipped$/m);
  assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
  const xml = await parse(readFileSync(junitFile, 'utf8'));
  assert.ok(xml && 'testsuite' in xml);
  const [suite] = xml.testsuite!;
  assert.deepEqual([xml.tests, xml.failures, suite.tests, suite.failures, suite.skipped, suite.testcase!.length], [8, 5, 8, 5, 1, 8]);
  const byName = Object.fromEntries(suite.testcase!.map((c) => [c.name, c]));
  assert.equal(byName.field.failure![0].message, '$.data.amount: expected 101, received 100');
  assert.equal(byName.pass.skipped![0].message, 'named by --skip');
  assert.equal(byName.pay.failure, undefined);
  // --json: the same, as data.
  const json = await cli.svc(['scenario', 'run', join(dir, 'wrong.yaml'), '--only', 'link', '--json'], undefined, { timeoutMs: 120_000 });
  assert.equal(json.code, 1);
  const report = json.json();
  assert.deepEqual(report.scenarios[0].steps[0].failure, { where: 'status', expected: '200', received: '201' });
  assert.deepEqual(report.totals, { scenarios: 1, steps: 8, passed: 0, failed: 1, skipped: 7 });
  assert.equal(report.scenarios[0].steps[2].reason, 'not named by --only');
});

test('advance, otp and fault run on the emulator; a step that refers to a skipped one is skipped, naming it; the faults go when the scenario ends', async () => {
  const text = `name: actions
steps:
  - name: clock
    advance: 2h
    expect: { body: { now: { $exists: true } } }
  - name: outage
    fault: { route: "GET /v1/api/payments/:id", kind: status, status: 503 }
  - name: down
    request: GET /v1/api/payments/pay_nothing0here0000000
    expect: { status: 503, code: SERVICE_UNAVAILABLE }
  - name: start
    request: POST /v1/api/sub-merchants/start
    body: { manager_phone: "+231770000202" }
  - name: code
    otp: start
  - name: complete
    request: POST /v1/api/sub-merchants/complete
    body: { merchant_name: "Actions", manager_phone: "+231770000202", otp: "\${code:code}" }
    expect: { status: 201 }
`;
  const r = await cli.svc(['scenario', 'run', file('actions.yaml', text), '--json']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(r.json().scenarios[0].steps.map((s: { outcome: string }) => s.outcome), ['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
  assert.deepEqual((await cli.control('/faults')).faults, [], 'the fault was removed at the end');
  const skipped = await cli.svc(['scenario', 'run', join(dir, 'actions.yaml'), '--skip', 'code', '--json']);
  assert.equal(skipped.code, 0, skipped.stdout);
  assert.equal(skipped.json().scenarios[0].steps[5].reason, 'refers to step code, which was skipped');
});

test('a live key is refused without --live, before anything is sent', async () => {
  const r = await cli.run(['scenario', 'run', 'link-paid', ...target(cli.emu.baseUrl, KEYS.acmeLive)]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^error: the API key from the command line is a live key \(svc_live_…\): .* Pass --live to run it .*Nothing was sent\.$/m);
  const requests = await cli.emu.request('GET', '/_emulator/requests?environment=live', { key: null });
  assert.equal(requests.json.data.requests.length, 0, 'no live request reached the emulator');
});

// A host that records what it gets: a file that cannot run must not reach it.
let server: Server;
const seen: string[] = [];
before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(500).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
});
after(() => new Promise<void>((ok) => server.close(() => ok())));

const BAD: [string, string, string[], RegExp][] = [
  ['yaml-syntax.yaml', 'name: x\nsteps:\n  - name: a\n    request: GET /v1/api/payments\n    query: { limit: 1\n', [], /^error: .*yaml-syntax\.yaml:6:1: Flow map in block collection must be sufficiently indented and end with a \}$/m],
  ['unknown-key.yaml', 'name: x\nsteps:\n  - name: a\n    request: GET /v1/api/payments\n    exepct: { status: 200 }\n', [], /^error: .*unknown-key\.yaml:5:5: unknown key exepct in steps\.0$/m],
  ['later-step.yaml', 'name: x\nsteps:\n  - name: a\n    request: GET /v1/api/payments/${b:data.id}\n  - name: b\n    request: GET /v1/api/payments\n', [], /^error: .*later-step\.yaml:4:35: \$\{b:data\.id\} refers to step b, which comes later/m],
  ['no-step.yaml', 'name: x\nsteps:\n  - name: a\n    request: GET /v1/api/payments/${nope:data.id}\n', [], /^error: .*no-step\.yaml:4:35: \$\{nope:data\.id\} refers to step nope, and there is no such step$/m],
  ['no-env.yaml', 'name: x\nsteps:\n  - name: a\n    request: POST /v1/api/payment-links\n    body: { title: "${.env:TITLE}" }\n', [], /^error: .*no-env\.yaml:5:21: \$\{\.env:TITLE\} has no value: give --env TITLE=… or a default under env$/m],
  ['event.yaml', 'name: x\nsteps:\n  - name: a\n    webhook: payment.refunded\n', [], /^error: .*event\.yaml:4:14: steps\.0\.webhook: unknown event type "payment\.refunded": expected one of payment\.completed, /m],
  ['set-step.yaml', 'name: x\nsteps:\n  - name: a\n    request: POST /v1/api/payment-links\n    body: { title: t }\n', ['--set', 'b.title=u'], /^error: .*set-step\.yaml:3:3: --set b\.title=u: there is no step b \(steps: a\)$/m],
  ['set-path.yaml', 'name: x\nsteps:\n  - name: a\n    request: POST /v1/api/payment-links\n    body: { title: t }\n', ['--set', 'a.amount=5'], /^error: .*set-path\.yaml:5:11: --set a\.amount=5: step a's body has no amount$/m],
  ['matcher.json', '{\n  "name": "j",\n  "steps": [\n    { "name": "a", "request": "GET /v1/api/payments", "expect": { "body": { "x": { "$foo": 1 } } } }\n  ]\n}\n', [], /^error: .*matcher\.json:4:82: steps\.0\.expect\.body\.x: unknown matcher \$foo/m],
];

for (const [name, text, extra, message] of BAD) {
  test(`bad input ${name}: exit 2 with file, line and column; nothing sent`, async () => {
    seen.length = 0;
    const path = file(name, text);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const verb of ['run', 'check']) {
      const r = await cli.run(['scenario', verb, path, ...extra, ...(verb === 'run' ? target(base, KEYS.acmeTest) : [])]);
      assert.equal(r.code, 2, `${verb}: ${r.stderr}`);
      assert.match(r.stderr, message, verb);
      assert.match(r.stderr, /Nothing was sent\.$/m);
      assert.equal(r.stdout, '');
    }
    assert.deepEqual(seen, [], 'the host got nothing');
  });
}

test('the testing API runs a scenario and resolves with the same report; a bad one rejects with its line and column', async () => {
  const { startEmulator } = await import('../../src/testing/index.js');
  const emu = await startEmulator();
  try {
    const report = await emu.runScenario('link-paid', { env: { AMOUNT: 2500 } });
    assert.equal(report.ok, true, JSON.stringify(report, null, 1));
    assert.equal(report.totals.passed, report.totals.steps);
    const inline = await emu.runScenario(
      { name: 'inline', steps: [{ name: 'link', request: 'POST /v1/api/payment-links', idempotency_key: 'inline-${.run}', body: { title: 'Inline', amount: 100, currency: 'USD' }, expect: { body: { data: { amount: 300 } } } }] },
      { set: { 'link.amount': 300 } },
    );
    assert.equal(inline.ok, true, JSON.stringify(inline));
    const failing = await emu.runScenario({ name: 'inline', steps: [{ name: 'get', request: 'GET /v1/api/payments/pay_none', expect: { status: 200 } }] });
    assert.equal(failing.ok, false);
    assert.deepEqual(failing.scenarios[0].steps[0].failure, { where: 'status', expected: '200', received: '404 (NOT_FOUND)' });
    await assert.rejects(emu.runScenario(join(dir, 'later-step.yaml')), /later-step\.yaml:4:35: \$\{b:data\.id\} refers to step b, which comes later/);
  } finally {
    await emu.close();
  }
});
