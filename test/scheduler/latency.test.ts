import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, startTestEmulator } from '../helpers/emulator.js';
import { advance, clock, msOf, S, until } from './clock-control.js';

// `--latency` waits on the emulator clock, like latency faults: with a manual clock a request
// is held until the clock is advanced that far, and its handler then runs at that time. The
// signal that the request is held (not merely slow) is its wait on the clock: GET
// /_emulator/clock counts it in pending_timers, and nothing was created yet.

const T0 = Date.parse('2026-07-02T09:00:00.000Z');

test('--latency on a manual clock holds a request until the clock moves past it; the handler runs at that time', async () => {
  const emu = await startTestEmulator({ clockStart: T0, config: { latencyMs: 5 * S } });
  try {
    const before = (await clock(emu.baseUrl)).pending_timers;
    const title = `held-${idem()}`;
    const pending = emu.request('POST', '/v1/api/payment-links', { body: { title, amount: 100 }, idempotencyKey: idem('held') });
    await until(async () => (await clock(emu.baseUrl)).pending_timers > before, 'the request to wait on the clock');
    const titled = async () => ((await emu.request('GET', '/_emulator/snapshot', { key: null })).json.data.collections.payment_links ?? []).some((l: { title: string }) => l.title === title);
    const stillHeld = async () => (await clock(emu.baseUrl)).pending_timers === before + 1 && !(await titled());

    assert.ok(await stillHeld(), 'held before the handler');
    await advance(emu.baseUrl, { ms: 5 * S - 1 });
    assert.ok(await stillHeld(), 'still held 1 ms before its time');
    await advance(emu.baseUrl, { ms: 1 });
    const res = await pending;
    assert.equal(res.status, 201, res.text);
    assert.equal(msOf(res.json.data.created_at), T0 + 5 * S, 'the handler ran at the end of the wait, on the clock');
  } finally {
    await emu.stop();
  }
});

test('a request held on the clock is let go when the emulator stops (it does not hold the stop)', async () => {
  const emu = await startTestEmulator({ clockStart: T0, config: { latencyMs: 60 * S } });
  const before = (await clock(emu.baseUrl)).pending_timers;
  const pending = emu.request('POST', '/v1/api/payment-links', { body: { title: 'never advanced', amount: 100 }, idempotencyKey: idem('stop') });
  await until(async () => (await clock(emu.baseUrl)).pending_timers > before, 'the request to wait on the clock');
  await emu.stop();
  // Let go, it ran its handler or lost its connection: either way the stop finished.
  await pending.catch(() => undefined);
});
