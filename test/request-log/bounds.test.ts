import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator, tempDir } from '../helpers/emulator.js';
import { runCli } from '../cli/cli.js';

// The request log's bounds: --request-log N keeps the newest N entries (0 records nothing), and
// --retain-days cuts older ones on the emulator clock, as it does events.

async function entries(baseUrl: string): Promise<any[]> {
  const res = await fetch(`${baseUrl}/_emulator/requests?limit=100`);
  assert.equal(res.status, 200);
  return ((await res.json()) as any).data.requests;
}

test('the log keeps the newest N entries', async () => {
  const emu = await startTestEmulator({ config: { requestLog: 3 } });
  try {
    for (let i = 0; i < 7; i++) assert.equal((await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': `trc-${i}` } })).status, 200);
    assert.deepEqual(
      (await entries(emu.baseUrl)).map((e) => e.trace_id),
      ['trc-6', 'trc-5', 'trc-4'],
    );
  } finally {
    await emu.stop();
  }
});

test('a restart with a smaller --request-log keeps the newest N; with 0 it records nothing and keeps what is there', async () => {
  const dataDir = tempDir();
  let emu = await startTestEmulator({ dataDir, config: { requestLog: 10 } });
  for (let i = 0; i < 6; i++) assert.equal((await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': `trc-${i}` } })).status, 200);
  await emu.stop({ keepData: true });
  emu = await startTestEmulator({ dataDir, config: { requestLog: 4 } });
  assert.deepEqual(
    (await entries(emu.baseUrl)).map((e) => e.trace_id),
    ['trc-5', 'trc-4', 'trc-3', 'trc-2'],
  );
  await emu.stop({ keepData: true });
  emu = await startTestEmulator({ dataDir, config: { requestLog: 0 } });
  try {
    assert.equal((await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-off' } })).status, 200);
    assert.deepEqual(
      (await entries(emu.baseUrl)).map((e) => e.trace_id),
      ['trc-5', 'trc-4', 'trc-3', 'trc-2'],
    );
  } finally {
    await emu.stop();
  }
});

test('--request-log 0 records nothing', async () => {
  const emu = await startTestEmulator({ config: { requestLog: 0 } });
  try {
    assert.equal((await emu.request('GET', '/v1/api/payments')).status, 200);
    assert.deepEqual(await entries(emu.baseUrl), []);
  } finally {
    await emu.stop();
  }
});

test('entries older than --retain-days go when the clock passes them', async () => {
  const emu = await startTestEmulator({ config: { retainDays: 1 } });
  try {
    await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-old' } });
    const advance = (by: string) => fetch(`${emu.baseUrl}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ by }) });
    assert.equal((await advance('12h')).status, 200);
    await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-young' } });
    assert.equal((await entries(emu.baseUrl)).length, 2);
    assert.equal((await advance('13h')).status, 200);
    assert.deepEqual(
      (await entries(emu.baseUrl)).map((e) => e.trace_id),
      ['trc-young'],
    );
  } finally {
    await emu.stop();
  }
});

test('entries --retain-days cut do not come back after a restart with a longer --retain-days', async () => {
  const dataDir = tempDir();
  let emu = await startTestEmulator({ dataDir, config: { retainDays: 1 } });
  try {
    await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-aged' } });
    const advance = await fetch(`${emu.baseUrl}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ by: '25h' }) });
    assert.equal(advance.status, 200);
    await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-fresh' } });
    assert.deepEqual((await entries(emu.baseUrl)).map((e) => e.trace_id), ['trc-fresh']);
    await emu.stop({ keepData: true });
    emu = await startTestEmulator({ dataDir, config: { retainDays: 30 } });
    assert.deepEqual((await entries(emu.baseUrl)).map((e) => e.trace_id), ['trc-fresh']);
  } finally {
    await emu.stop();
  }
});

for (const value of ['-1', 'lots', '1.5']) {
  test(`svc emulator start --request-log ${value}: exit 2 naming the flag, nothing started`, async () => {
    const dir = tempDir();
    const r = await runCli(['emulator', 'start', '--port', '0', '--data-dir', dir, '--request-log', value]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--request-log/);
  });
}
