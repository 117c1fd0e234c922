import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { advance, H, M, S } from './clock-control.js';

// Idempotency retention at its boundary, with the retention sweep running (it is the
// scheduler's timed work, due when the oldest record turns 24 h: the advance runs it at that
// time, and POST /_emulator/store/prune runs it on demand). A key 23 h 59 m old still replays and
// its record is still in the store; at 24 h 0 m 1 s the record is gone and the key makes a new
// resource. Pruning at 23 h (or any time before 24 h) fails the first half.

const T0 = Date.parse('2026-07-04T09:00:00.000Z');

const idempotencyRecords = async (emu: TestEmulator) =>
  ((await emu.request('GET', '/_emulator/snapshot', { key: null })).json.data.collections.idempotency ?? []) as Array<{ key: string; created_at_ms: number }>;

test('a key 23 h 59 m old still replays, its record kept by the sweep; at 24 h 0 m 1 s it is gone and the key creates anew', async () => {
  const emu = await startTestEmulator({ clockStart: T0 });
  try {
    const key = 'retention-boundary-1';
    const body = { title: 'kept a day', amount: 2400 };
    const first = await emu.request('POST', '/v1/api/payment-links', { body, idempotencyKey: key });
    assert.equal(first.status, 201, first.text);
    const [record] = (await idempotencyRecords(emu)).filter((r) => r.key === key);
    assert.equal(record.created_at_ms, T0);

    await advance(emu.baseUrl, { ms: 23 * H + 59 * M });
    const pruned = await emu.request('POST', '/_emulator/store/prune', { key: null });
    assert.equal(pruned.json.data.pruned.idempotency, 0, 'nothing is 24 h old yet');
    assert.ok((await idempotencyRecords(emu)).some((r) => r.key === key), 'the record is kept until 24 h');
    const replay = await emu.request('POST', '/v1/api/payment-links', { body, idempotencyKey: key });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text);

    await advance(emu.baseUrl, { ms: M + S }); // 24 h 0 m 1 s
    assert.ok(!(await idempotencyRecords(emu)).some((r) => r.key === key), 'the sweep dropped the record at 24 h');
    const anew = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'a new day', amount: 1 }, idempotencyKey: key });
    assert.equal(anew.status, 201, anew.text);
    assert.equal(anew.headers.get('idempotent-replayed'), null);
    assert.notEqual(anew.json.data.id, first.json.data.id);
  } finally {
    await emu.stop();
  }
});

test('the sweep runs at each record\'s own 24 h: of two keys an hour apart, only the older is gone between them', async () => {
  const emu = await startTestEmulator({ clockStart: T0 });
  try {
    assert.equal((await emu.request('POST', '/v1/api/payment-links', { body: { title: 'a', amount: 1 }, idempotencyKey: 'older' })).status, 201);
    await advance(emu.baseUrl, { ms: H });
    assert.equal((await emu.request('POST', '/v1/api/payment-links', { body: { title: 'b', amount: 1 }, idempotencyKey: 'younger' })).status, 201);
    await advance(emu.baseUrl, { ms: 23 * H + 30 * M }); // one advance across the older key's 24 h
    assert.deepEqual((await idempotencyRecords(emu)).map((r) => r.key).filter((k) => k === 'older' || k === 'younger'), ['younger']);
    await advance(emu.baseUrl, { ms: 30 * M });
    assert.deepEqual((await idempotencyRecords(emu)).map((r) => r.key).filter((k) => k === 'older' || k === 'younger'), []);
  } finally {
    await emu.stop();
  }
});
