import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { svcBin, svcProcesses } from '../helpers/svc-process.js';
import { clock, H } from './clock-control.js';

// An exported world carries the clock's position: `svc emulator exec --export-on-exit` writes it
// with the records, and `svc emulator start --import` resumes at that time (the records' times and
// the clock stay together: a key made just before the export is just as old after the import).
// The built CLI, as a user runs it.

test('exec --export-on-exit writes the clock with the world; start --import resumes at its time', async (t) => {
  const dir = tempDir('svc-export-clock-');
  const dataDir = tempDir('svc-import-clock-');
  try {
    // The child moves the clock 5 days through the control API, then exits; the world is exported.
    const child = `fetch(process.env.SVC_BASE_URL + '/_emulator/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ by: '5d' }) }).then((r) => r.json()).then((j) => console.log(j.data.now))`;
    const run = spawnSync(process.execPath, [svcBin, 'emulator', 'exec', '--clock', 'manual', '--quiet', '--export-on-exit', dir, '--', process.execPath, '-e', child], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const advancedTo = Date.parse(run.stdout.trim());
    const world = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8'));
    assert.deepEqual(world.collections.emulator_clock, [{ id: 'clock', mode: 'manual', now_ms: advancedTo, offset_ms: 0 }]);
    assert.ok(advancedTo - Date.now() > 4 * 24 * H, 'five days ahead of the wall clock');

    const procs = svcProcesses(t.signal);
    try {
      const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual', '--import', dir]);
      assert.equal(Date.parse((await clock(svc.ready.base_url)).now), advancedTo, 'the imported world resumes at its own time');
    } finally {
      await procs.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
});
