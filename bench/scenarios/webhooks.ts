import { mkdirSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startChild } from '../lib/child.js';
import { fetchJson } from '../lib/load.js';
import { BENCH_KEY } from '../lib/seed.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';
import { verifySignature } from '../../contract/signature.js';
import { FIRST_ATTEMPT_DELAY_MS } from '../../emulator/webhooks/schedule.js';

// Webhook delivery throughput: the built `svc emulator start` (system clock, default 10 s
// webhook timeout) delivering to a receiver in this process (node:http on 127.0.0.1, so the
// emulator and the receiver each have a core).
//
//   webhooks.deliveries.100   100 endpoints answering 200 at once; a burst of EVENTS
//                             payment.completed events fans out to 100 deliveries each
//   webhooks.deliveries.hang  the same, but one of the 100 endpoints never answers (its
//                             attempts wait out the timeout); rate counts the 99 healthy ones
//
// The links are created before a burst; the burst pays them all (8 requests at a time), so
// the events reach the outbox faster than they can be delivered.
// Each row is two bursts, measured A B B A. Rate = deliveries received / (last received −
// (first payment sent + the schedule's 1 s wait before attempt 1)), summed over its two bursts. Every delivery's
// signature is verified against its endpoint's secret; a bad one counts as an error. p50/p99
// are latencies from the moment attempt 1 fell due (event + 1 s) to receipt inside the burst (queueing included), for context only. The
// note adds the emulator's CPU time per delivery (its /_emulator/metrics, reset before each
// burst): unlike the rate, it hardly moves when other processes compete for the machine.

const ENDPOINTS = 100;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 60);
const EMIT_CONCURRENCY = 8;
const WARMUP_EVENTS = 80; // JIT and connections warm before either measured burst

interface Sink {
  url: string;
  /** path -> secret, filled as endpoints are created */
  secrets: Map<string, string>;
  received: number;
  badSignatures: number;
  latencies: number[];
  lastAt: number;
  expect(n: number, timeoutMs: number): Promise<void>;
  reset(): void;
  /** Answers every held /hang request (after its endpoint is deleted, so its slots free up). */
  release(): void;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  let waiter: { n: number; ok: () => void } | undefined;
  const held = new Set<ServerResponse>();
  const sink: Sink = {
    url: '',
    secrets: new Map(),
    received: 0,
    badSignatures: 0,
    latencies: [],
    lastAt: 0,
    expect(n, timeoutMs) {
      if (sink.received >= n) return Promise.resolve();
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`webhooks: ${sink.received} of ${n} deliveries after ${timeoutMs} ms`)), timeoutMs);
        waiter = { n, ok: () => (clearTimeout(timer), ok()) };
      });
    },
    reset() {
      sink.received = 0;
      sink.badSignatures = 0;
      sink.latencies = [];
    },
    release() {
      for (const res of held) res.writeHead(200).end();
      held.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/hang')) {
      held.add(res); // never answers by itself; the emulator's timeout (or release()) ends it
      res.on('close', () => held.delete(res));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const body = Buffer.concat(chunks);
      const secret = sink.secrets.get(req.url ?? '');
      const check = secret ? verifySignature({ secret, header: req.headers['svc-signature'] as string, body }) : { ok: false };
      if (!check.ok) sink.badSignatures++;
      const now = Date.now();
      // From the moment the first attempt was due (the schedule's 1 s after the event), not the event.
      sink.latencies.push(now - Date.parse(JSON.parse(body.toString('utf8')).createdAt) - FIRST_ATTEMPT_DELAY_MS);
      sink.received++;
      sink.lastAt = performance.now();
      if (waiter && sink.received >= waiter.n) {
        const w = waiter;
        waiter = undefined;
        w.ok();
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}

const auth = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };

async function createEndpoints(base: string, sink: Sink, event: string, paths: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const path of paths) {
    const res = (await fetchJson(`${base}/v1/api/webhook-endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ url: sink.url + path, events: [event] }) })) as {
      data: { endpoint: { id: string }; secret: string };
    };
    sink.secrets.set(path, res.data.secret);
    ids.push(res.data.endpoint.id);
  }
  return ids;
}

/** Deletes a hanging endpoint (its queued deliveries are cancelled) and answers what it holds. */
async function retire(base: string, sink: Sink, endpointId: string): Promise<void> {
  await fetchJson(`${base}/v1/api/webhook-endpoints/${endpointId}`, { method: 'DELETE', headers: auth });
  sink.release();
}

/** Payment links to pay during a burst, made beforehand so the burst is only the payments. */
async function createLinks(base: string, n: number): Promise<string[]> {
  const run = randomBytes(4).toString('hex');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const link = (await fetchJson(`${base}/v1/api/payment-links`, {
      method: 'POST',
      headers: { ...auth, 'x-idempotency-key': `wh-${run}-${i}` },
      body: JSON.stringify({ title: 'Webhook bench', amount: 500, currency: 'USD' }),
    })) as { data: { id: string } };
    ids.push(link.data.id);
  }
  return ids;
}

/**
 * Pays every link (simulate, EMIT_CONCURRENCY at a time), so events arrive faster than they
 * can be delivered and the rate measures delivery, not how fast this process sends requests.
 */
async function emit(base: string, links: string[], outcome: 'completed' | 'failed'): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < links.length) {
      const id = links[next++];
      await fetchJson(`${base}/v1/api/payment-links/${id}/simulate`, { method: 'POST', headers: auth, body: JSON.stringify({ outcome, method: 'card' }) });
    }
  };
  await Promise.all(Array.from({ length: EMIT_CONCURRENCY }, worker));
}

interface Cpu {
  data: { cpu_user_ms: number; cpu_system_ms: number };
}

async function burst(ctx: BenchContext, base: string, sink: Sink, outcome: 'completed' | 'failed', events: number, healthyPerEvent: number) {
  const links = await createLinks(base, events);
  sink.reset();
  await fetchJson(`${base}/_emulator/metrics/reset`, { method: 'POST' });
  const started = performance.now();
  await emit(base, links, outcome);
  const expected = events * healthyPerEvent;
  await sink.expect(expected, 120_000);
  // The first attempt of every delivery is due FIRST_ATTEMPT_DELAY_MS after its event (the
  // spec's first delay): the engine cannot start before then, so the window starts there.
  const seconds = (sink.lastAt - started - FIRST_ATTEMPT_DELAY_MS) / 1000;
  const { data: cpu } = (await fetchJson(`${base}/_emulator/metrics`)) as Cpu;
  ctx.log(`webhooks: ${expected} deliveries (${outcome}) in ${seconds.toFixed(2)} s`);
  return { seconds, deliveries: expected, cpuMs: cpu.cpu_user_ms + cpu.cpu_system_ms, errors: sink.badSignatures, latencies: [...sink.latencies] };
}

type Burst = Awaited<ReturnType<typeof burst>>;

/** One figure from two bursts of the same kind. */
function combine(a: Burst, b: Burst) {
  const deliveries = a.deliveries + b.deliveries;
  const sorted = [...a.latencies, ...b.latencies].sort((x, y) => x - y);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return {
    rate: deliveries / (a.seconds + b.seconds),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    maxMs: sorted[sorted.length - 1],
    errors: a.errors + b.errors,
    deliveries,
    cpuMsPerDelivery: (a.cpuMs + b.cpuMs) / deliveries,
  };
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const dataDir = join(ctx.tmpDir, 'webhooks');
  mkdirSync(dataDir, { recursive: true });
  const sink = await startSink();
  const args = ['bin/svc.js', 'emulator', 'start', '--port', '0', '--json', '--quiet', '--rate-limit', 'off', '--data-dir', dataDir];
  const emulator = await startChild<{ base_url: string }>(process.execPath, args, ctx.root);
  const base = emulator.info.base_url;
  try {
    ctx.log(`webhooks: creating ${2 * ENDPOINTS} endpoints`);
    const healthy = Array.from({ length: ENDPOINTS }, (_, i) => `/ok/${i}`);
    await createEndpoints(base, sink, 'payment.completed', healthy);
    // The second set: 99 healthy endpoints and one that hangs, subscribed to the other event.
    await createEndpoints(base, sink, 'payment.failed', Array.from({ length: ENDPOINTS - 1 }, (_, i) => `/ok2/${i}`));
    const [hang1] = await createEndpoints(base, sink, 'payment.failed', ['/hang/1']);

    await burst(ctx, base, sink, 'completed', WARMUP_EVENTS, ENDPOINTS); // JIT, connections
    // A B B A, so a drift over the run (JIT, GC, other load) weighs on both figures alike.
    // Between them the hanging endpoint is deleted and its held requests answered, so the
    // all-healthy bursts never share the engine with a hanging endpoint.
    const a1 = await burst(ctx, base, sink, 'completed', EVENTS, ENDPOINTS);
    const b1 = await burst(ctx, base, sink, 'failed', EVENTS, ENDPOINTS - 1);
    await retire(base, sink, hang1);
    const [hang2] = await createEndpoints(base, sink, 'payment.failed', ['/hang/2']);
    const b2 = await burst(ctx, base, sink, 'failed', EVENTS, ENDPOINTS - 1);
    await retire(base, sink, hang2);
    const a2 = await burst(ctx, base, sink, 'completed', EVENTS, ENDPOINTS);
    const all = combine(a1, a2);
    const hang = combine(b1, b2);
    const note = (r: { deliveries: number; cpuMsPerDelivery: number }) =>
      `2 bursts of ${EVENTS} events → ${r.deliveries} deliveries, signatures verified; emulator CPU ${r.cpuMsPerDelivery.toFixed(2)} ms/delivery; p50/p99: attempt due (event + 1 s) → receipt`;
    return [
      { id: 'webhooks.deliveries.100', label: 'webhook deliveries/s, 100 endpoints', rate: all.rate, p50Ms: all.p50Ms, p99Ms: all.p99Ms, maxMs: all.maxMs, errors: all.errors, note: note(all) },
      {
        id: 'webhooks.deliveries.hang',
        label: 'webhook deliveries/s, 1 of 100 endpoints hangs',
        rate: hang.rate,
        p50Ms: hang.p50Ms,
        p99Ms: hang.p99Ms,
        maxMs: hang.maxMs,
        errors: hang.errors,
        note: `rate of the 99 healthy endpoints; the hanging one times out after 10 s; ${note(hang)}`,
      },
    ];
  } finally {
    await emulator.stop();
    await sink.close();
  }
}

const valid = (r: Row | undefined): r is Row & { rate: number } => r !== undefined && (r.errors ?? 0) === 0 && r.rate !== undefined;

const targets: Target[] = [
  {
    row: 'webhooks.deliveries.100',
    text: 'deliveries/s ≥ 2,000',
    check(rows) {
      const r = rows.get('webhooks.deliveries.100');
      if (!valid(r)) return undefined;
      return { actual: `${Math.round(r.rate)}/s`, pass: r.rate >= 2000 };
    },
  },
  {
    row: 'webhooks.deliveries.hang',
    text: 'loss < 10% vs all healthy',
    check(rows) {
      const a = rows.get('webhooks.deliveries.100');
      const b = rows.get('webhooks.deliveries.hang');
      if (!valid(a) || !valid(b)) return undefined;
      const loss = 1 - b.rate / a.rate;
      return { actual: `${(loss * 100).toFixed(1)}% lost`, pass: loss < 0.1 };
    },
  },
];

export const webhooks: Scenario = { name: 'webhooks', run, targets };
