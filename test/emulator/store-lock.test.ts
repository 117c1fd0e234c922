import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { idem, request, silentLogger, tempDir } from '../helpers/emulator.js';
import { startEmulator } from '../../emulator/server.js';
import { svcBin, svcProcesses } from '../helpers/svc-process.js';

// One process per data dir. A second emulator started on the same dir (a second `npm start`,
// say) must be refused before it touches the store: it used to compact the store under the
// first one, which then left a journal that no longer loaded.

test('a second emulator on the same data dir is refused; the first keeps its data, even after kill -9', async (t) => {
  const dataDir = tempDir('svc-lock-');
  const procs = svcProcesses(t.signal);
  try {
    const first = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    const key = first.ready.keys[0].key;
    const before = await request(first.ready.base_url, 'POST', '/v1/api/payment-links', { key, body: { title: 'Before' }, idempotencyKey: idem() });
    assert.equal(before.status, 201);
    assert.equal(readFileSync(join(dataDir, 'store.lock'), 'utf8').trim(), String(first.child.pid));

    // Async: `first` is another process, but keep this one's event loop free anyway.
    // A second emulator that did start would never exit: the timeout ends it (and fails below).
    const second = await promisify(execFile)(process.execPath, [svcBin, 'emulator', 'start', '--port', '0', '--json', '--data-dir', dataDir], {
      encoding: 'utf8',
      timeout: 20_000,
      killSignal: 'SIGKILL',
    }).then(
      () => assert.fail('the second emulator started'),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.equal(second.code, 1);
    assert.equal(second.stdout, '');
    assert.match(second.stderr, new RegExp(`in use by process ${first.child.pid}`));

    const after = await request(first.ready.base_url, 'POST', '/v1/api/payment-links', { key, body: { title: 'After' }, idempotencyKey: idem() });
    assert.equal(after.status, 201);
    first.child.kill('SIGKILL');
    await first.done;

    // The lock of a dead process is stale: the restart takes it over and loads everything.
    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    try {
      for (const link of [before, after]) {
        assert.equal((await request(again.ready.base_url, 'GET', `/v1/api/payment-links/${link.json.data.id}`, { key })).status, 200);
      }
    } finally {
      again.child.kill('SIGTERM');
      assert.equal(await again.done, 0);
    }
    assert.ok(!existsSync(join(dataDir, 'store.lock')), 'a clean exit releases the lock');
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a start that fails while seeding (a fixtures file that cannot be read) lets go of the data dir', async () => {
  const dataDir = tempDir('svc-lock-seed-');
  const bad = join(dataDir, '..', `${dataDir.split('/').pop()}-fixtures.json`);
  writeFileSync(bad, '{ not json');
  try {
    await assert.rejects(startEmulator({ port: 0, dataDir, fixtures: bad, logger: silentLogger }));
    assert.equal(existsSync(join(dataDir, 'store.lock')), false, 'the failed start left store.lock behind');
    const again = await startEmulator({ port: 0, dataDir, logger: silentLogger });
    try {
      assert.equal((await request(again.baseUrl, 'GET', '/_emulator/health', { key: null })).status, 200);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(bad, { force: true });
  }
});
