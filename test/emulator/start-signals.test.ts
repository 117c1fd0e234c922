import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { idem, request, tempDir } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';

// Shutdown of `svc emulator start`: SIGINT and SIGTERM finish in-flight requests, flush the
// store and exit 0.

test('SIGINT exits 0 after flushing: the data is in the snapshot, the journal is empty', async (t) => {
  const dataDir = tempDir('svc-sigint-');
  const procs = svcProcesses(t.signal);
  try {
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    const key = svc.ready.keys[0].key;
    const created = await request(svc.ready.base_url, 'POST', '/v1/api/webhook-endpoints', { key, body: { url: 'https://localhost:9/h', events: ['payment.failed'] } });
    assert.equal(created.status, 201);
    svc.child.kill('SIGINT');
    assert.equal(await svc.done, 0);
    const segments = readdirSync(dataDir).filter((f) => /^journal-\d+\.ndjson$/.test(f));
    assert.equal(segments.length, 1, 'compaction at stop left one journal segment');
    assert.equal(readFileSync(join(dataDir, segments[0]), 'utf8'), '');
    assert.ok(readFileSync(join(dataDir, 'snapshot.ndjson'), 'utf8').includes(created.json.data.endpoint.id));
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('SIGTERM lets an in-flight request finish before exiting 0', async (t) => {
  const dataDir = tempDir('svc-inflight-');
  const procs = svcProcesses(t.signal);
  try {
    // The request is held by a latency fault on a manual clock, so it is surely still in flight
    // when the signal lands, however slow the machine: no wall-clock bet on how long it takes.
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual']);
    const key = svc.ready.keys[0].key;
    const fault = await request(svc.ready.base_url, 'POST', '/_emulator/faults', { key: null, body: { route: 'POST /v1/api/payment-links', kind: 'latency', latency: '1h', times: 1 } });
    assert.equal(fault.status, 201, fault.text);
    const pending = request(svc.ready.base_url, 'POST', '/v1/api/payment-links', { key, body: { title: 'In flight', amount: 5 }, idempotencyKey: idem() });
    // The fault's log entry is written when the request is taken and held: the signal that it is in flight.
    while ((await request(svc.ready.base_url, 'GET', '/_emulator/faults/log', { key: null })).json.data.entries.length === 0) await new Promise((r) => setImmediate(r));
    svc.child.kill('SIGTERM');
    const res = await pending;
    assert.equal(res.status, 201, res.text);
    assert.equal(await svc.done, 0);

    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    try {
      const read = await request(again.ready.base_url, 'GET', `/v1/api/payment-links/${res.json.data.id}`, { key });
      assert.equal(read.status, 200);
    } finally {
      again.child.kill('SIGTERM');
      await again.done;
    }
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
