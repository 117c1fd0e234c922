import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { advance, clock, H, iso, S } from './clock-control.js';

// A snapshot (and an export: the same document) carries the clock's position. Restoring puts
// the world's records back but never moves the clock back: an older snapshot leaves the clock
// where it is (the restored world's work that fell due meanwhile then runs at once), a snapshot
// taken later than now moves the clock forward to it (an exported world resumes at its time).

const T0 = Date.parse('2026-07-05T09:00:00.000Z');

const snapshot = async (emu: TestEmulator) => (await emu.request('GET', '/_emulator/snapshot', { key: null })).json.data;
async function restore(emu: TestEmulator, world: unknown): Promise<void> {
  const res = await emu.request('POST', '/_emulator/snapshot/restore', { key: null, body: world });
  assert.equal(res.status, 200, res.text);
}

test('restoring an earlier snapshot keeps the clock; its payout that fell due meanwhile answers at once', async () => {
  const emu = await startTestEmulator({ clockStart: T0, config: { payoutResolveMs: 60 * S } });
  try {
    const payout = await emu.request('POST', '/v1/api/payouts', { idempotencyKey: idem('po'), body: { payee_id: 'payee_ada', amount_cents: 700, currency: 'USD' } });
    assert.equal(payout.status, 201, payout.text);
    const earlier = await snapshot(emu);
    assert.deepEqual(earlier.collections.emulator_clock, [{ id: 'clock', mode: 'manual', now_ms: T0, offset_ms: 0 }]);

    await advance(emu.baseUrl, { by: '3h' });
    await restore(emu, earlier);
    assert.equal((await clock(emu.baseUrl)).now, iso(T0 + 3 * H), 'not rewound to the snapshot');
    // Anything due runs before an advance (even of 0) answers.
    await advance(emu.baseUrl, { ms: 0 });
    const read = (await emu.request('GET', `/v1/api/payouts/${payout.json.data.id}`)).json.data;
    assert.equal(read.status, 'completed', 'restored processing, due 3 h ago: answered');
    assert.ok(Date.parse(read.resolved_at.slice(0, 23) + 'Z') >= T0 + 3 * H, 'answered now, not back at its due time');
    assert.deepEqual((await snapshot(emu)).collections.emulator_clock[0].now_ms, T0 + 3 * H);
  } finally {
    await emu.stop();
  }
});

test('restoring a snapshot taken later moves the clock forward to it: a key 23 h old there is still 23 h old here', async () => {
  const ahead = await startTestEmulator({ clockStart: T0 });
  const behind = await startTestEmulator({ clockStart: T0 - 30 * 24 * H });
  try {
    await advance(ahead.baseUrl, { by: '5d' });
    const body = { title: 'exported', amount: 900 };
    assert.equal((await ahead.request('POST', '/v1/api/payment-links', { body, idempotencyKey: 'travels' })).status, 201);
    await advance(ahead.baseUrl, { by: '23h' });
    const world = await snapshot(ahead);

    await restore(behind, world);
    assert.equal((await clock(behind.baseUrl)).now, iso(T0 + 5 * 24 * H + 23 * H), 'forward to the snapshot\'s time');
    const conflict = await behind.request('POST', '/v1/api/payment-links', { body: { title: 'other' }, idempotencyKey: 'travels' });
    assert.equal(conflict.json.error?.code, 'IDEMPOTENCY_CONFLICT', 'the key is 23 h old in the restored world');
    await advance(behind.baseUrl, { by: '1h' });
    assert.equal((await behind.request('POST', '/v1/api/payment-links', { body: { title: 'other' }, idempotencyKey: 'travels' })).status, 201);
  } finally {
    await ahead.stop();
    await behind.stop();
  }
});

test('a reset keeps the clock where it is', async () => {
  const emu = await startTestEmulator({ clockStart: T0 });
  try {
    await advance(emu.baseUrl, { by: '2d' });
    assert.equal((await emu.request('POST', '/_emulator/reset', { key: null })).status, 200);
    assert.equal((await clock(emu.baseUrl)).now, iso(T0 + 2 * 24 * H));
    assert.equal((await snapshot(emu)).collections.emulator_clock[0].now_ms, T0 + 2 * 24 * H);
  } finally {
    await emu.stop();
  }
});
