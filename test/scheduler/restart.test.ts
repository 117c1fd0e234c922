import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request, tempDir } from '../helpers/emulator.js';
import { svcProcesses, type SvcProcess, type SvcProcesses } from '../helpers/svc-process.js';
import { advance, clock, H, M } from './clock-control.js';

// The clock is never moved back by a restart: its position is a store record, journaled with
// each move (scheduler/clock-record.ts). Real `svc emulator start` processes on one data dir,
// stopped by kill -9 and by SIGTERM.

const start = (procs: SvcProcesses, dataDir: string, mode: 'manual' | 'system') => procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off', '--clock', mode]);

async function kill(svc: SvcProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  svc.child.kill(signal);
  assert.equal(await svc.done, signal === 'SIGKILL' ? 'SIGKILL' : 0);
}

const link = (base: string, key: string, title: string) => request(base, 'POST', '/v1/api/payment-links', { body: { title, amount: 500 }, idempotencyKey: key });

test('--clock manual resumes from its stored time after kill -9 and after a clean stop; a key 23 h old is not 25 h old after the restart', async (t) => {
  const dataDir = tempDir('svc-clock-restart-');
  const procs = svcProcesses(t.signal); // every process it starts ends, whatever happens
  let svc: SvcProcess;
  try {
    svc = await start(procs, dataDir, 'manual');
    const t0 = Date.parse((await clock(svc.ready.base_url)).now);
    assert.equal((await link(svc.ready.base_url, 'day-old-key', 'first')).status, 201);
    assert.equal((await advance(svc.ready.base_url, { by: '23h' })).now, new Date(t0 + 23 * H).toISOString().replace('Z', '000Z'));
    await kill(svc, 'SIGKILL');

    svc = await start(procs, dataDir, 'manual');
    const resumed = await clock(svc.ready.base_url);
    assert.equal(Date.parse(resumed.now), t0 + 23 * H, 'kill -9 kept the time');
    const conflict = await link(svc.ready.base_url, 'day-old-key', 'another body');
    assert.equal(conflict.status, 409, 'the key is 23 h old: still alive');
    assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
    await advance(svc.ready.base_url, { by: '1h' });
    assert.equal((await link(svc.ready.base_url, 'day-old-key', 'another body')).status, 201, 'at 24 h the key is free');
    await kill(svc, 'SIGTERM');

    svc = await start(procs, dataDir, 'manual');
    assert.equal(Date.parse((await clock(svc.ready.base_url)).now), t0 + 24 * H, 'a clean stop kept the time');
    await kill(svc, 'SIGTERM');
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a system clock keeps its stored offset over kill -9: it stays ahead of the wall clock by what was advanced', async (t) => {
  const dataDir = tempDir('svc-clock-offset-');
  const procs = svcProcesses(t.signal);
  let svc: SvcProcess;
  try {
    svc = await start(procs, dataDir, 'system');
    await advance(svc.ready.base_url, { by: '2h' });
    await kill(svc, 'SIGKILL');

    svc = await start(procs, dataDir, 'system');
    const wallBefore = Date.now();
    const now = Date.parse((await clock(svc.ready.base_url)).now);
    // The clock runs on while this is read, so only a lower bound holds: at least 2 h ahead of
    // the wall clock read before it (less a minute for a slow machine, far from the 2 h at stake).
    assert.ok(now - wallBefore >= 2 * H - M, `the clock is ${now - wallBefore} ms ahead of the wall clock`);
    const snapshot = await request(svc.ready.base_url, 'GET', '/_emulator/snapshot', { key: null });
    const [position] = snapshot.json.data.collections.emulator_clock;
    assert.equal(position.mode, 'system');
    assert.ok(position.offset_ms >= 2 * H - M, 'the offset is stored with the world');
    await kill(svc, 'SIGTERM');
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
