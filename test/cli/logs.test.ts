import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { cliSession, startCli, target } from './cli.js';
import { idem, KEYS } from '../helpers/emulator.js';

// `svc logs list|get|tail` over the emulator's request log: the Stripe CLI's filter names, the
// --json forms, `get --curl` (the base URL inline, the key as $SVC_API_KEY, runnable as pasted:
// run through sh, it gets the status the logged request got), and no full key in any output.

const cli = cliSession();

async function failedAndSucceeded(): Promise<{ failedTrace: string }> {
  const bad = await cli.emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeTest, idempotencyKey: idem('bad'), body: { title: 'Bad', amount: 100, currency: 'XXQ' } });
  assert.equal(bad.status, 422, bad.text);
  const ok = await cli.emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeTest, idempotencyKey: idem('ok'), body: { title: 'Good', amount: 100, currency: 'USD' } });
  assert.equal(ok.status, 201, ok.text);
  return { failedTrace: String(bad.headers.get('x-trace-id')) };
}

test('logs list filters like the Stripe CLI and never prints the full key', async () => {
  const { failedTrace } = await failedAndSucceeded();
  const r = await cli.svc(['logs', 'list', '--filter-request-status', 'FAILED', '--filter-request-path', '/v1/api/payment-links', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const page = JSON.parse(r.stdout);
  assert.ok(page.requests.length >= 1);
  assert.ok(page.requests.every((e: { status: number }) => e.status >= 400), r.stdout);
  const entry = page.requests.find((e: { trace_id: string }) => e.trace_id === failedTrace);
  assert.ok(entry, `the 422 (trace ${failedTrace}) is listed`);
  assert.equal(entry.error_code, 'VALIDATION_ERROR');
  assert.equal(entry.key_name, 'acme-test');
  assert.ok(!r.stdout.includes(KEYS.acmeTest) && !r.stderr.includes(KEYS.acmeTest), 'no full key in --json output');
  const human = await cli.svc(['logs', 'list', '--filter-status-code', '422']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(`POST\\s+/v1/api/payment-links\\s+422\\s.*${failedTrace}`));
  assert.ok(!human.stdout.includes(KEYS.acmeTest));
});

test('logs get shows both bodies; --curl writes the base URL inline and puts $SVC_API_KEY where the key was', async () => {
  const { failedTrace } = await failedAndSucceeded();
  const page = JSON.parse((await cli.svc(['logs', 'list', '--json', '--filter-status-code', '422'])).stdout);
  const id = page.requests.find((e: { trace_id: string }) => e.trace_id === failedTrace).id as string;
  const shown = await cli.svc(['logs', 'get', id]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /request body:\n {2}\{\n {4}"title": "Bad"/);
  assert.match(shown.stdout, /response body:[\s\S]*"code": "VALIDATION_ERROR"/);
  const curl = await cli.svc(['logs', 'get', id, '--curl']);
  assert.equal(curl.code, 0, curl.stderr);
  const [comment, command] = curl.stdout.split('\n');
  assert.equal(comment, `# export SVC_API_KEY=…   (the key acme-test, ending ${KEYS.acmeTest.slice(-4)}: svc emulator keys)`);
  // The command the comment names exists and lists that key.
  const keys = await cli.svc(comment.split(': svc ')[1].slice(0, -1).split(' '));
  assert.equal(keys.code, 0, keys.stderr);
  assert.match(keys.stdout, /acme-test/);
  assert.equal(command, `curl -X POST '${cli.emu.baseUrl}/v1/api/payment-links' \\`);
  assert.match(curl.stdout, /-H "Authorization: Bearer \$SVC_API_KEY"/);
  assert.match(curl.stdout, /-H 'X-Idempotency-Key: bad-/);
  assert.match(curl.stdout, /-d '\{"title":"Bad"/);
  assert.ok(!curl.stdout.includes(KEYS.acmeTest), 'the key itself is never printed');
});

test('logs get --curl says when the body lost values to redaction (a PIN, a withheld broken body), and only then', async () => {
  const send = async (body: string, trace: string) => {
    const res = await fetch(`${cli.emu.baseUrl}/v1/api/payment-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'content-type': 'application/json', 'x-idempotency-key': idem('note'), 'x-trace-id': trace },
      body,
    });
    await res.arrayBuffer();
    const page = JSON.parse((await cli.svc(['logs', 'list', '--json', '--filter-request-path', '/v1/api/payment-links', '--limit', '20'])).stdout);
    const id = page.requests.find((e: { trace_id: string }) => e.trace_id === trace).id as string;
    return cli.svc(['logs', 'get', id, '--curl']);
  };
  const NOTE = /fill in the redacted values/;
  const clean = await send('{"title":"Clean","amount":100,"currency":"USD"}', 'trc-note-clean');
  assert.equal(clean.code, 0, clean.stderr);
  assert.doesNotMatch(clean.stderr, NOTE);
  const pin = await send('{"title":"Pin","amount":100,"currency":"USD","pin":"975318"}', 'trc-note-pin');
  assert.match(pin.stdout, /\[redacted\]/);
  assert.match(pin.stderr, NOTE);
  const broken = await send('{"title":"Broken","pin":"975318",', 'trc-note-broken');
  assert.match(broken.stdout, /-d '\{"title":"Broken","pin":"\[redacted\]",'/);
  assert.match(broken.stderr, NOTE);
  const escaped = await send('{"title":"Broken","p\\u0069n":"975318",', 'trc-note-escaped');
  assert.match(escaped.stdout, /-d '\[withheld: not JSON, and it may hold a secret\]'/);
  assert.match(escaped.stderr, NOTE);
  for (const r of [pin, broken, escaped]) assert.ok(!r.stdout.includes('975318') && !r.stderr.includes('975318'), 'the PIN is printed');
});

test('logs get --curl runs as pasted: through sh, with SVC_API_KEY exported, it gets the status the logged request got', async () => {
  const cases = [
    { what: 'a GET', method: 'GET', path: '/v1/api/payments?limit=2' },
    { what: 'a POST with a body', method: 'POST', path: '/v1/api/payment-links', body: { title: 'Curl', amount: 100, currency: 'USD' } },
    { what: 'a body that lost a PIN to redaction', method: 'POST', path: '/v1/api/payment-links', body: { title: 'Curl pin', amount: 100, currency: 'USD', metadata: { userPin: '7392' } } },
    { what: 'a refused body that lost a PIN to redaction', method: 'POST', path: '/v1/api/payment-links', body: { title: 'Curl bad', amount: 100, pin: '975318' } },
    { what: 'a request with no key', method: 'GET', path: '/v1/api/payments', key: null },
  ];
  for (const [i, c] of cases.entries()) {
    const trace = `trc-sh-${process.pid}-${i}`;
    const sent = await cli.emu.request(c.method, c.path, { body: c.body, key: c.key === null ? null : KEYS.acmeTest, idempotencyKey: c.body ? idem('sh') : undefined, headers: { 'x-trace-id': trace } });
    const { requests } = await cli.control(`/requests?trace_id=${trace}`);
    const curl = await cli.svc(['logs', 'get', requests[0].id, '--curl']);
    assert.equal(curl.code, 0, curl.stderr);
    assert.ok(!curl.stdout.includes(KEYS.acmeTest) && !curl.stdout.includes('7392') && !curl.stdout.includes('975318'), curl.stdout);
    // The command as printed, with curl made to print only the status it got.
    const script = `curl() { command curl -s -o /dev/null -w '%{http_code}' "$@"; }\n${curl.stdout}`;
    const ran = await promisify(execFile)('sh', ['-c', script], { env: { ...process.env, SVC_API_KEY: KEYS.acmeTest } });
    assert.equal(Number(ran.stdout), sent.status, `${c.what}: ${curl.stdout}`);
  }
});

test('logs tail --filter-request-status FAILED --json prints a failed request while it runs', async () => {
  const tail = startCli(['logs', 'tail', '--filter-request-status', 'FAILED', '--json', ...target(cli.emu.baseUrl, KEYS.acmeTest)]);
  try {
    await tail.waitFor(/Ready: printing requests/);
    const ok = await cli.emu.request('GET', '/v1/api/payments', { key: KEYS.acmeTest });
    assert.equal(ok.status, 200);
    const missing = await cli.emu.request('GET', '/v1/api/payments/pay_nosuch', { key: KEYS.acmeTest });
    assert.equal(missing.status, 404);
    const [lineText] = await tail.waitFor(/^\{.*"status":404.*\}$/m);
    const entry = JSON.parse(lineText);
    assert.equal(entry.path, '/v1/api/payments/pay_nosuch');
    assert.equal(entry.error_code, 'NOT_FOUND');
    assert.doesNotMatch(tail.stdout(), /"status":200/, 'the 200 made before the 404 is filtered out');
  } finally {
    assert.equal(await tail.interrupt(), 0);
  }
});

test('a malformed filter is exit 2 naming it, before anything is sent', async () => {
  for (const [flags, name] of [
    [['--filter-request-path', 'v1/api/payments'], '--filter-request-path'],
    [['--filter-http-method', 'FETCH'], '--filter-http-method'],
    [['--filter-request-status', 'BROKEN'], '--filter-request-status'],
    [['--filter-status-code', '99'], '--filter-status-code'],
  ] as const) {
    const r = await cli.svc(['logs', 'list', ...flags]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(name));
  }
  const api = await cli.emu.request('GET', '/_emulator/requests?status=teapot', { key: null });
  assert.equal(api.status, 422);
  assert.match(api.json.error.message, /status/);
});

test('against a host that is not an svc emulator, logs says so and sends nothing else', async () => {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"error":{"code":"NOT_FOUND","message":"no"}}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // tail too: it used to print "Ready" and retry a host that will never be an emulator.
    for (const args of [['logs', 'list'], ['logs', 'get', 'req_1'], ['logs', 'tail'], ['logs', 'tail', '--json']]) {
      paths.length = 0;
      const r = await cli.run([...args, ...target(base, KEYS.acmeLive)]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /is not an svc emulator/);
      assert.doesNotMatch(r.stderr, /Ready|retrying/);
      assert.equal(r.stdout, '');
      assert.deepEqual(paths, ['/_emulator/health'], args.join(' '));
    }
  } finally {
    server.close();
  }
});
