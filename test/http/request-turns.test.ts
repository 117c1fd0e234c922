import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NextFunction, Request, Response } from 'express';
import { connect, type Socket } from 'node:net';
import { oneHandlerPerTurn } from '../../emulator/performance/request-turns.js';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Parsed requests reach their handlers one per event-loop turn, so a timer (the webhook
// engine's, compaction's, the loop monitor's) waits behind at most one handler, never behind
// every connection's request at once (emulator/performance/request-turns.ts).

/** One check phase of the event loop: an immediate queued now runs in the next one. */
const nextTurn = () => new Promise<void>((ok) => setImmediate(ok));
const fake = { req: {} as Request, res: {} as Response };

test('handlers queued in one turn run one per turn, in arrival order', async () => {
  const gate = oneHandlerPerTurn();
  const ran: number[] = [];
  for (let i = 0; i < 3; i++) gate(fake.req, fake.res, (() => ran.push(i)) as NextFunction);
  assert.equal(ran.length, 0, 'nothing runs in the turn that queued it');
  await nextTurn();
  assert.deepEqual(ran, [0]);
  await nextTurn();
  assert.deepEqual(ran, [0, 1]);
  await nextTurn();
  assert.deepEqual(ran, [0, 1, 2]);
  // The queue drained and restarts for the next arrival.
  gate(fake.req, fake.res, (() => ran.push(3)) as NextFunction);
  await nextTurn();
  assert.deepEqual(ran, [0, 1, 2, 3]);
});

test('a handler that throws does not stop the ones queued behind it', async () => {
  const gate = oneHandlerPerTurn();
  const ran: string[] = [];
  const thrown: unknown[] = [];
  const onUncaught = (err: unknown) => thrown.push(err);
  // The throw escapes the immediate; catch it here instead of failing the test process.
  const listeners = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', onUncaught);
  try {
    gate(fake.req, fake.res, (() => {
      throw new Error('handler bug');
    }) as NextFunction);
    gate(fake.req, fake.res, (() => ran.push('second')) as NextFunction);
    await nextTurn();
    await nextTurn();
    await nextTurn();
  } finally {
    process.removeListener('uncaughtException', onUncaught);
    for (const l of listeners) process.on('uncaughtException', l);
  }
  assert.equal(thrown.length, 1);
  assert.deepEqual(ran, ['second']);
});

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

/** `n` sockets connected to the emulator. */
async function openSockets(n: number): Promise<Socket[]> {
  const port = Number(new URL(emu.baseUrl).port);
  const one = () =>
    new Promise<Socket>((ok, fail) => {
      const s = connect(port, '127.0.0.1', () => ok(s));
      s.on('error', fail);
    });
  return Promise.all(Array.from({ length: n }, one));
}

/** Reads one HTTP answer's status line from `s` (the body is small and comes with it). */
const statusOf = (s: Socket) => new Promise<number>((ok) => s.once('data', (d: Buffer) => ok(Number(d.toString('latin1').split(' ')[1]))));

test('over HTTP: requests that arrive together commit in a turn of their own each', async () => {
  const sockets = await openSockets(12);
  // Every socket answers once (a small 404) before the measured round: the server has accepted them all.
  const raw = (i: number, path: string, body = '') =>
    `${body ? 'POST' : 'GET'} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEYS.acmeTest}\r\n` +
    (body ? `Content-Type: application/json\r\nX-Idempotency-Key: turns-${i}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
    '\r\n' + body;
  await Promise.all(
    sockets.map((s, i) => {
      const answered = statusOf(s);
      s.write(raw(i, '/v1/api/payment-links/plink_none'));
      return answered;
    }),
  );
  // A turn counter: one increment per check phase while the requests are in flight.
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const turns: number[] = [];
  const stop = emu.services.store.onCommit((ops) => {
    if (ops.some((op) => op.c === 'payment_links')) turns.push(turn);
  });
  try {
    const body = JSON.stringify({ title: 'Tea', description: 'Green, 250 g', amount: 500, currency: 'USD', accepted_methods: ['card'], expires_at: '2099-01-01T00:00:00Z' });
    const statuses = sockets.map(statusOf);
    // All twelve written in one go: they reach the server in the same poll phase.
    sockets.forEach((s, i) => s.write(raw(i, '/v1/api/payment-links', body)));
    assert.deepEqual(await Promise.all(statuses), Array(12).fill(201));
  } finally {
    counting = false;
    stop();
    for (const s of sockets) s.destroy();
  }
  assert.equal(turns.length, 12);
  assert.equal(new Set(turns).size, 12, `commits shared a turn: ${turns.join(',')}`);
});
