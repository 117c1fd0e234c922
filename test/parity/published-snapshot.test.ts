import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';
import { runBinary } from '../cli/run-binary.js';
import { snapshotDiff } from './snapshot-diff.js';

// parity/emulator.snapshot.json is the emulator's own recording, a reviewed file: any change of
// the emulator's behaviour that the suite sees must show up as a diff of it in review. This
// re-records it against a fresh emulator (the bundled fixtures) and fails, naming each changed
// value by scenario, step and JSON path, when the two differ. Regenerate with
// `npm run parity:snapshot` (docs/parity.md) and review the diff.

const PUBLISHED = packageFile('parity/emulator.snapshot.json');

test('parity/emulator.snapshot.json is what the emulator records today', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const emulator = await procs.start(['--port', '0', '--data-dir', join(tempDir('svc-parity-pub-'), 'data'), '--quiet']);
    const out = join(tempDir('svc-parity-pub-'), 'now.json');
    const r = await runBinary(['parity', 'record', '--base-url', emulator.ready.base_url, '--api-key', KEYS.acmeTest, '--emulator-fixtures', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const published = JSON.parse(readFileSync(PUBLISHED, 'utf8'));
    const now = JSON.parse(readFileSync(out, 'utf8'));
    const changes = snapshotDiff(published, now);
    assert.deepEqual(changes, [], `the emulator's recording changed; if that is intended, run \`npm run parity:snapshot\` and commit parity/emulator.snapshot.json:\n${changes.join('\n')}`);
  } finally {
    await procs.end();
  }
});
