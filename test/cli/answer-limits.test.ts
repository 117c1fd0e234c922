import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EMULATOR_IDENTITY } from '../../contract/control/routes.js';
import { MAX_ANSWER_BYTES } from '../../src/client/transport.js';
import { KEYS } from '../helpers/emulator.js';
import { cliHome, recordedWaits, target } from './cli.js';

// Hostile servers against the CLI's HTTP client (src/client/transport.ts): --timeout is the
// deadline of the whole exchange (connect, headers and the whole body), so a server that
// drips its answer one byte at a time cannot hold a command past it; and an answer larger
// than MAX_ANSWER_BYTES (32 MiB) is refused, by its Content-Length or by its bytes as they
// come, without reading the rest. The same holds for `webhooks check --endpoint`, which reads
// the endpoint's secret from the emulator's control API with the same client.
//
// No bound here is a wall-clock bet: each is the --timeout given plus a second plus twice what
// the same command took against a server that answers at once, measured just before, so a
// busy machine gets room in proportion. Unbounded, the dripping server ends its answer only
// after 60 timeouts, and the command would then succeed.

const cli = cliHome();
const TIMEOUT_MS = 1000;
const LINK = { id: 'pl_drip', link_code: 'PL-DRIP0001', title: 'T', description: null, amount: 100, currency: 'USD', accepted_methods: ['card'], status: 'pending', total_collected: 0, payment_count: 0, expires_at: null, redirect_url: null, metadata: null, sub_merchant_id: null, environment: 'test', created_at: '2026-11-21T00:00:00.000000Z' };

type Behaviour = 'quick' | 'drip' | 'big-declared' | 'big-streamed';

/**
 * A server that answers every request the same way: at once, by dripping (headers now, then
 * one space every 50 ms for 60 timeouts before the envelope), with a Content-Length of 200 MB,
 * or streaming 1 MiB chunks for up to 200 MB. It counts requests and the bytes it got out
 * before the client hung up. `/_emulator/health` always answers at once, as an emulator's does.
 */
async function server(behaviour: Behaviour, data: unknown) {
  const stats = { requests: 0, written: 0 };
  const body = JSON.stringify({ success: true, data });
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/_emulator/health') return void res.end(JSON.stringify({ success: true, data: { ok: true, service: EMULATOR_IDENTITY } }));
    stats.requests++;
    res.on('error', () => {});
    if (behaviour === 'quick') return void res.end(body);
    if (behaviour === 'drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      let n = 0;
      const timer = setInterval(() => (++n * 50 >= 60 * TIMEOUT_MS ? (clearInterval(timer), res.end(body)) : res.write(' ')), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const total = 200 * 1024 * 1024;
    res.writeHead(200, { 'content-type': 'application/json', ...(behaviour === 'big-declared' && { 'content-length': String(total) }) });
    let closed = false;
    res.on('close', () => (closed = true));
    const pump = () => {
      while (!closed && stats.written < total) {
        stats.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!closed) res.end();
    };
    pump();
  });
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return { base: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, stats, close: () => new Promise<void>((ok) => (s.closeAllConnections(), s.close(() => ok()))) };
}

/** Runs `args` (with the base URL appended) against a quick server and then a hostile one; the hostile run's result, and its bound. */
async function against(behaviour: Behaviour, data: unknown, args: (base: string) => string[], quickly: RegExp = /^$/) {
  const timed = async (b: Behaviour) => {
    const s = await server(b, data);
    try {
      const waits = recordedWaits();
      const started = performance.now();
      const r = await cli.run(args(s.base), { sleep: waits.sleep });
      return { r, ms: performance.now() - started, stats: s.stats };
    } finally {
      await s.close();
    }
  };
  const quick = await timed('quick');
  assert.match(quick.r.stderr, quickly, 'the command works against a server that answers at once');
  const hostile = await timed(behaviour);
  return { ...hostile, bound: TIMEOUT_MS + 1000 + 2 * quick.ms };
}

const linksGet = (base: string) => ['links', 'get', 'pl_drip', '--timeout', String(TIMEOUT_MS), ...target(base, KEYS.acmeTest)];

test('a server that drips its answer: svc links get ends at --timeout with TIMEOUT, exit 1, and does not try again', async () => {
  const { r, ms, bound, stats } = await against('drip', LINK, linksGet);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, new RegExp(`^error: TIMEOUT: the answer from http://127\\.0\\.0\\.1:\\d+ did not finish within ${TIMEOUT_MS} ms \\(--timeout bounds the whole exchange\\)`, 'm'));
  assert.ok(ms < bound, `took ${Math.round(ms)} ms; bound ${Math.round(bound)} ms`);
  // It was answering, too slowly: asking again would cost another --timeout, so it is not retried.
  assert.equal(stats.requests, 1);
  assert.doesNotMatch(r.stderr, /retrying/);
});

for (const behaviour of ['big-declared', 'big-streamed'] as const) {
  test(`an answer over 32 MiB (${behaviour === 'big-declared' ? 'Content-Length: 200 MB' : 'streamed, no length'}): ANSWER_TOO_LARGE, exit 1, the rest never read`, async () => {
    const { r, ms, bound, stats } = await against(behaviour, LINK, linksGet);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /^error: ANSWER_TOO_LARGE: GET \/v1\/api\/payment-links\/pl_drip: the answer is larger than 32 MiB.*, the most the CLI reads/m);
    assert.equal(stats.requests, 1, 'not retried');
    assert.ok(ms < bound, `took ${Math.round(ms)} ms; bound ${Math.round(bound)} ms`);
    // What the server got out before the client hung up: the cap plus what socket buffers hold, not 200 MB.
    assert.ok(stats.written <= (behaviour === 'big-declared' ? 16 : MAX_ANSWER_BYTES / 1024 / 1024 + 16) * 1024 * 1024, `${stats.written} bytes written`);
  });
}

for (const behaviour of ['drip', 'big-streamed'] as const) {
  test(`webhooks check --endpoint reads the secret with the same bounds (${behaviour})`, async () => {
    const secret = { id: 'we_hostile', secret: 'x'.repeat(43), events: ['payment.completed'], allowed_hosts: [] };
    // Against a quick emulator the check goes on to the receiver, which is not there (port 9).
    const run = (base: string) => ['webhooks', 'check', 'http://127.0.0.1:9/webhooks', '--endpoint', 'we_hostile', '--base-url', base, '--timeout', `${TIMEOUT_MS}ms`, '--json'];
    const { r, ms, bound } = await against(behaviour, secret, run, /cannot reach http:\/\/127\.0\.0\.1:9\/webhooks/);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, behaviour === 'drip' ? /"code":"TIMEOUT"/ : /"code":"ANSWER_TOO_LARGE"/);
    assert.ok(ms < bound, `took ${Math.round(ms)} ms; bound ${Math.round(bound)} ms`);
  });
}
