import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestEmulator } from '../helpers/emulator.js';
import { idem } from '../helpers/emulator.js';
import { deliveriesIdle } from '../../emulator/webhooks/module.js';
import type { Payment } from '../../contract/resources/payments.js';

// A real webhook receiver for tests: a node:http server on 127.0.0.1:0 that records every
// request (raw body bytes and headers) and answers as the test says: a status, or never.

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Behaviour = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests still waiting for an answer (a hanging receiver). */
  open: number;
  /** How the next requests are answered (default 200 "ok"). */
  behave(b: Behaviour | ((r: Received) => Behaviour)): void;
  /** Resolves once `n` requests have arrived in total. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let behaviour: Behaviour | ((r: Received) => Behaviour) = { status: 200, body: 'ok' };
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters: Array<{ n: number; ok: () => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const b = typeof behaviour === 'function' ? behaviour(r) : behaviour;
      if (b === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
      } else {
        res.writeHead(b.status, { 'content-type': 'text/plain', ...b.headers }).end(b.body ?? '');
      }
      for (const w of [...waiters]) if (received.length >= w.n) w.ok();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get open() {
      return hanging.size;
    },
    behave(b) {
      behaviour = b;
    },
    waitFor(n, timeoutMs = 20_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`receiver: ${received.length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, ok: () => (clearTimeout(timer), ok(received)) });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/**
 * A whole live payment for an event appended to the outbox directly (simulate is test-only):
 * emitEvent takes the payload its schema publishes (contract/events.ts), not a fragment.
 */
export const livePayment = (id: string): Payment => ({
  id,
  amount: 1200,
  currency: 'USD',
  status: 'completed',
  payment_method: 'card',
  environment: 'live',
  mandate_id: null,
  payment_link_id: null,
  idempotency_key: `live-${id}`,
  created_at: '2026-11-21T12:00:00.000000Z',
});

/** Registers an endpoint through the API; returns its id and full secret. */
export async function createEndpoint(emu: TestEmulator, url: string, events: string[], key?: string): Promise<{ id: string; secret: string }> {
  const res = await emu.request('POST', '/v1/api/webhook-endpoints', { key, body: { url, events } });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${res.text}`);
  return { id: res.json.data.endpoint.id, secret: res.json.data.secret };
}

/** A test payment through the public API: a link, then simulate. Emits payment.<outcome>. */
export async function simulatePayment(emu: TestEmulator, outcome: 'completed' | 'failed' = 'completed', key?: string): Promise<string> {
  const link = await emu.request('POST', '/v1/api/payment-links', { key, idempotencyKey: idem('link'), body: { title: 'Hook test', amount: 1500, currency: 'USD' } });
  if (link.status !== 201) throw new Error(`create link: ${link.status} ${link.text}`);
  const pay = await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { key, body: { outcome, method: 'card' } });
  if (pay.status !== 201) throw new Error(`simulate: ${pay.status} ${pay.text}`);
  return pay.json.data.id as string;
}

/** GET a control route's data (keyless). */
export async function control(emu: TestEmulator, method: string, path: string, body?: unknown) {
  const res = await emu.request(method, `/_emulator${path}`, { key: null, body });
  return { status: res.status, data: res.json?.data, error: res.json?.error };
}

/** Polls `check` (over HTTP) until it returns a value; no wall-clock assertion, only a give-up. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits until delivery `id` has `n` attempts recorded; returns it. */
export function attemptsRecorded(emu: TestEmulator, id: string, n: number) {
  return eventually(async () => {
    const d = (await control(emu, 'GET', `/deliveries/${id}`)).data;
    return d && d.attempts.length >= n ? d : undefined;
  }, `${n} attempts on ${id}`);
}

/** Advances the emulator clock through the control API. */
export async function advance(emu: TestEmulator, ms: number): Promise<void> {
  const res = await control(emu, 'POST', '/clock/advance', { ms });
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.error)}`);
}

/** Moves the clock to the next due webhook attempt (POST /_emulator/clock/advance-to-next-delivery). */
export async function toNextDelivery(emu: TestEmulator): Promise<{ advanced_ms: number; due_at: string | null; deliveries: string[] }> {
  const res = await control(emu, 'POST', '/clock/advance-to-next-delivery', {});
  if (res.status !== 200) throw new Error(`advance-to-next-delivery: ${res.status} ${JSON.stringify(res.error)}`);
  return res.data;
}

/** Asserts delivery `id` is not due yet on the emulator clock (so no attempt can have started). */
export async function assertNotDue(emu: TestEmulator, id: string, what: string): Promise<void> {
  const d = (await control(emu, 'GET', `/deliveries/${id}`)).data;
  if (!(Date.parse(d.next_attempt_at) > (await clockNow(emu)))) throw new Error(`${what}: due at ${d.next_attempt_at}`);
}

/**
 * Waits until every due delivery attempt has been sent and recorded — the delivery engine's own
 * idle signal — so the receivers have seen everything they will get at this clock time.
 */
export async function deliveriesSettled(emu: TestEmulator): Promise<true> {
  await deliveriesIdle(emu.services);
  return true;
}

/** The emulator clock's time, in ms. */
export async function clockNow(emu: TestEmulator): Promise<number> {
  return Date.parse((await control(emu, 'GET', '/clock')).data.now);
}
