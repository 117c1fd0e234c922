import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from '../../src/client/http.js';
import { KEYS } from '../helpers/emulator.js';
import { cliHome, recordedWaits, target } from './cli.js';

// The client's retry policy against a fault-injecting server: which answers are retried, that
// every attempt carries the same idempotency key and trace id, that Retry-After is honoured,
// and that the CLI gives up after 5 attempts. The commands run in-process with a sleep that
// records the waits between attempts: the spec's schedule is asserted exactly, and no test
// waits through it. The last test proves that without that sleep the client waits on real
// timers (mocked there, so it does not wait either).

interface Seen {
  method: string;
  url: string;
  idem: string | undefined;
  trace: string | undefined;
  body: string;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

async function faultServer(script: Answer[], fallback: Answer) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, idem: req.headers['x-idempotency-key'] as string, trace: req.headers['x-trace-id'] as string, body });
      const answer = script[seen.length - 1] ?? fallback;
      if (answer === 'hang') return; // never answers: the client's timeout must fire
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-trace-id': `trc_server_${seen.length}`, ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))) };
}

const fail = (status: number, code: string, headers?: Record<string, string>): Answer => ({ status, body: { success: false, error: { code, message: `injected ${code}` } }, headers });
const link = { id: 'pl_retry', link_code: 'PL-RETRY001', title: 'T', description: null, amount: 100, currency: 'USD', accepted_methods: ['card'], status: 'pending', total_collected: 0, payment_count: 0, expires_at: null, redirect_url: null, metadata: null, sub_merchant_id: null, environment: 'test', created_at: '2026-11-21T00:00:00.000000Z' };
const ok201: Answer = { status: 201, body: { success: true, data: link } };

const cli = cliHome();
/** The last line of stderr, parsed: `--json` errors are one JSON object. */
const lastJson = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!);

/** `links create --json` against `base`; `waits` records the client's waits between attempts. */
const create = (base: string, waits: ReturnType<typeof recordedWaits>, extra: string[] = []) =>
  cli.run(['links', 'create', '--title', 'T', '--amount', '100', '--json', ...target(base, KEYS.acmeTest), ...extra], { sleep: waits.sleep });
/** The waits the retry lines on stderr announce, in seconds as printed. */
const announced = (stderr: string) => [...stderr.matchAll(/retrying in (\S+) s/g)].map((m) => m[1]);

test('429 (Retry-After: 1) then 503 then 201: three attempts, one idempotency key and trace id, the Retry-After wait kept', async () => {
  const s = await faultServer([fail(429, 'RATE_LIMITED', { 'retry-after': '1' }), fail(503, 'SERVICE_UNAVAILABLE'), ok201], ok201);
  try {
    const waits = recordedWaits();
    const r = await create(s.base, waits);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json(), link);
    assert.equal(s.seen.length, 3);
    const keys = new Set(s.seen.map((x) => x.idem));
    assert.equal(keys.size, 1);
    assert.match([...keys][0]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a generated UUID');
    assert.equal(new Set(s.seen.map((x) => x.trace)).size, 1, 'one trace id across attempts');
    assert.equal(new Set(s.seen.map((x) => x.body)).size, 1, 'the same body every time');
    // Retry-After: 1 replaces the 500 ms backoff; the second retry waits 1 s: the backoff
    // doubles per retry (500 ms, 1 s, 2 s, 4 s). What is said is what is waited.
    assert.deepEqual(waits.waits, [1000, 1000]);
    assert.match(r.stderr, /retrying in 1\.0 s \(attempt 2 of 5\): 429 RATE_LIMITED/);
    assert.match(r.stderr, /retrying in 1\.0 s \(attempt 3 of 5\): 503 SERVICE_UNAVAILABLE/);
  } finally {
    await s.close();
  }
});

test('--idempotency-key is the key of every attempt; 500, 502 and 409 IDEMPOTENCY_IN_FLIGHT are retried', async () => {
  const zero = { 'retry-after': '0' };
  const s = await faultServer([fail(500, 'INTERNAL_ERROR', zero), fail(502, 'BAD_GATEWAY', zero), fail(409, 'IDEMPOTENCY_IN_FLIGHT', zero), ok201], ok201);
  try {
    const waits = recordedWaits();
    const r = await create(s.base, waits, ['--idempotency-key', 'order-1042-attempt']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(waits.waits, [0, 0, 0], 'Retry-After: 0 means at once, not the backoff');
    assert.deepEqual(
      s.seen.map((x) => x.idem),
      ['order-1042-attempt', 'order-1042-attempt', 'order-1042-attempt', 'order-1042-attempt'],
    );
  } finally {
    await s.close();
  }
});

test('a persistent 503 is tried 5 times in all, waiting 0.5, 1, 2 and 4 s between, then exit 1 with the code, message and trace id', async () => {
  const s = await faultServer([], fail(503, 'SERVICE_UNAVAILABLE'));
  try {
    const waits = recordedWaits();
    const r = await create(s.base, waits);
    assert.equal(r.code, 1);
    assert.equal(s.seen.length, 5);
    assert.deepEqual(waits.waits, [500, 1000, 2000, 4000], 'the spec\'s backoff: 500 ms doubling');
    assert.deepEqual(announced(r.stderr), ['0.5', '1.0', '2.0', '4.0']);
    assert.equal(r.stdout, '');
    // --json: the error is the last stderr line, one JSON object, with the last attempt's trace id.
    assert.deepEqual(lastJson(r.stderr), { error: { code: 'SERVICE_UNAVAILABLE', message: 'injected SERVICE_UNAVAILABLE (gave up after 5 attempts with the same idempotency key, as the spec advises)', trace_id: 'trc_server_5' } });
  } finally {
    await s.close();
  }
});

for (const [status, code] of [
  [401, 'UNAUTHORIZED'],
  [403, 'FORBIDDEN'],
  [404, 'NOT_FOUND'],
  [422, 'VALIDATION_ERROR'],
  [409, 'IDEMPOTENCY_CONFLICT'],
] as const) {
  test(`${status} ${code} is never retried`, async () => {
    const s = await faultServer([], fail(status, code, { 'retry-after': '0' }));
    try {
      const waits = recordedWaits();
      const r = await create(s.base, waits);
      assert.equal(r.code, 1);
      assert.equal(s.seen.length, 1);
      assert.deepEqual(waits.waits, []);
      assert.equal(lastJson(r.stderr).error.code, code);
      assert.equal(r.stderr.trim().split('\n').length, 1, 'no retry line');
    } finally {
      await s.close();
    }
  });
}

test('a GET that times out is retried (with the same trace id) and succeeds', async () => {
  const s = await faultServer(['hang', { status: 200, body: { success: true, data: link } }], ok201);
  try {
    // The timeout is real (the server never answers the first attempt); the wait after it is recorded.
    const waits = recordedWaits();
    const r = await cli.run(['links', 'get', 'pl_retry', '--json', '--timeout', '1000', ...target(s.base, KEYS.acmeTest)], { sleep: waits.sleep });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(waits.waits, [500]);
    assert.deepEqual(r.json(), link);
    assert.equal(s.seen.length, 2);
    assert.equal(s.seen[0].idem, undefined, 'GET carries no idempotency key');
    assert.equal(s.seen[0].trace, s.seen[1].trace);
    assert.match(r.stderr, /retrying in 0\.5 s \(attempt 2 of 5\): no answer from http:\/\/127\.0\.0\.1:\d+ within 1000 ms/);
    assert.doesNotMatch(r.stderr, /UND_ERR/);
  } finally {
    await s.close();
  }
});

test('nothing listening: exit 1 with NETWORK_ERROR at once (connection refused is not retried)', async () => {
  const s = await faultServer([], ok201);
  const base = s.base;
  await s.close();
  const waits = recordedWaits();
  const r = await cli.run(['payments', 'list', ...target(base, KEYS.acmeTest)], { sleep: waits.sleep });
  assert.equal(r.code, 1);
  assert.deepEqual(waits.waits, []);
  assert.match(r.stderr, /error: NETWORK_ERROR: nothing is listening at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)\. Is the emulator running/);
  assert.equal(r.stderr.match(/connection refused/g)?.length, 1, 'said once');
  assert.doesNotMatch(r.stderr, /retrying/);
});

test('an answer that is not the envelope is a BAD_RESPONSE / HTTP_ error, exit 1', async () => {
  const s = await faultServer([{ status: 200, body: { hello: 'world' } }], { status: 502, body: 'gateway' });
  try {
    const r = await cli.run(['payments', 'list', ...target(s.base, KEYS.acmeTest)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: BAD_RESPONSE \(HTTP 200\)/);
  } finally {
    await s.close();
  }
});

test('without an injected sleep the client waits on real timers: the next attempt goes out only when the backoff has passed', async (t) => {
  const s = await faultServer([fail(503, 'SERVICE_UNAVAILABLE')], { status: 200, body: { success: true, data: link } });
  try {
    // Only setTimeout is mocked: the servers and sockets keep running; the client's wait is ticked by hand.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let retried!: () => void;
    const retrying = new Promise<void>((ok) => (retried = ok));
    const client = new HttpClient({ baseUrl: s.base, onRetry: () => retried() });
    const answer = client.call({ method: 'GET', path: '/v1/api/payment-links/pl_retry' });
    await retrying;
    const turn = () => new Promise((ok) => setImmediate(ok));
    t.mock.timers.tick(499);
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(s.seen.length, 1, 'nothing sent before 500 ms');
    t.mock.timers.tick(1);
    const result = await answer;
    assert.equal(result.attempts, 2);
    assert.equal(s.seen.length, 2);
  } finally {
    t.mock.timers.reset();
    await s.close();
  }
});
