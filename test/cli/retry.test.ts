import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEYS } from '../helpers/emulator.js';
import { cliHome, target } from './cli.js';

// The client's retry policy against a fault-injecting server: which answers are retried, that
// every attempt carries the same idempotency key and trace id, that Retry-After is honoured,
// and that the CLI gives up after 5 attempts.

interface Seen {
  method: string;
  url: string;
  idem: string | undefined;
  trace: string | undefined;
  at: number;
  body: string;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

async function faultServer(script: Answer[], fallback: Answer) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, idem: req.headers['x-idempotency-key'] as string, trace: req.headers['x-trace-id'] as string, at: performance.now(), body });
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

const create = (base: string, extra: string[] = []) => cli.run(['links', 'create', '--title', 'T', '--amount', '100', '--json', ...target(base, KEYS.acmeTest), ...extra]);

test('429 (Retry-After: 1) then 503 then 201: three attempts, one idempotency key and trace id, the Retry-After wait kept', async () => {
  const s = await faultServer([fail(429, 'RATE_LIMITED', { 'retry-after': '1' }), fail(503, 'SERVICE_UNAVAILABLE'), ok201], ok201);
  try {
    const r = await create(s.base);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json(), link);
    assert.equal(s.seen.length, 3);
    const keys = new Set(s.seen.map((x) => x.idem));
    assert.equal(keys.size, 1);
    assert.match([...keys][0]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a generated UUID');
    assert.equal(new Set(s.seen.map((x) => x.trace)).size, 1, 'one trace id across attempts');
    assert.equal(new Set(s.seen.map((x) => x.body)).size, 1, 'the same body every time');
    // Retry-After: 1 replaces the 500 ms backoff: the second attempt came at least ~1 s later.
    assert.ok(s.seen[1].at - s.seen[0].at >= 950, `waited ${s.seen[1].at - s.seen[0].at} ms after Retry-After: 1`);
    assert.match(r.stderr, /retrying in 1\.0 s \(attempt 2 of 5\): 429 RATE_LIMITED/);
    // The second retry waits 1 s: the backoff doubles per retry (500 ms, 1 s, 2 s, 4 s).
    assert.match(r.stderr, /retrying in 1\.0 s \(attempt 3 of 5\): 503 SERVICE_UNAVAILABLE/);
  } finally {
    await s.close();
  }
});

test('--idempotency-key is the key of every attempt; 500, 502 and 409 IDEMPOTENCY_IN_FLIGHT are retried', async () => {
  const zero = { 'retry-after': '0' };
  const s = await faultServer([fail(500, 'INTERNAL_ERROR', zero), fail(502, 'BAD_GATEWAY', zero), fail(409, 'IDEMPOTENCY_IN_FLIGHT', zero), ok201], ok201);
  try {
    const r = await create(s.base, ['--idempotency-key', 'order-1042-attempt']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      s.seen.map((x) => x.idem),
      ['order-1042-attempt', 'order-1042-attempt', 'order-1042-attempt', 'order-1042-attempt'],
    );
  } finally {
    await s.close();
  }
});

test('a persistent 503 is tried 5 times in all, then exit 1 with the code, message and trace id', async () => {
  const s = await faultServer([], fail(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }));
  try {
    const r = await create(s.base);
    assert.equal(r.code, 1);
    assert.equal(s.seen.length, 5);
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
      const r = await create(s.base);
      assert.equal(r.code, 1);
      assert.equal(s.seen.length, 1);
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
    const r = await cli.run(['links', 'get', 'pl_retry', '--json', '--timeout', '2000', ...target(s.base, KEYS.acmeTest)]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json(), link);
    assert.equal(s.seen.length, 2);
    assert.equal(s.seen[0].idem, undefined, 'GET carries no idempotency key');
    assert.equal(s.seen[0].trace, s.seen[1].trace);
    assert.match(r.stderr, /retrying in 0\.5 s \(attempt 2 of 5\): no answer from http:\/\/127\.0\.0\.1:\d+ within 2000 ms/);
    assert.doesNotMatch(r.stderr, /UND_ERR/);
  } finally {
    await s.close();
  }
});

test('nothing listening: exit 1 with NETWORK_ERROR at once (connection refused is not retried)', async () => {
  const s = await faultServer([], ok201);
  const base = s.base;
  await s.close();
  const r = await cli.run(['payments', 'list', ...target(base, KEYS.acmeTest)]);
  assert.equal(r.code, 1);
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
