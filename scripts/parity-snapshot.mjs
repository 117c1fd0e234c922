// Re-records parity/emulator.snapshot.json (npm run parity:snapshot, after `npm run build`):
// a fresh emulator with the bundled fixtures on a free loopback port, `svc parity record`
// against it, the emulator stopped. When nothing but the time and port changed, the file is
// left as it was, so a regeneration without a behaviour change is no diff in review.
// test/parity/published-snapshot.test.ts fails while the committed file is stale.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const svc = join(root, 'bin/svc.js');
const file = join(root, 'parity/emulator.snapshot.json');
const dir = mkdtempSync(join(tmpdir(), 'svc-parity-snapshot-'));
const emulator = spawn(process.execPath, [svc, 'emulator', 'start', '--json', '--quiet', '--port', '0', '--data-dir', join(dir, 'data')], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [line] = await new Promise((ok, fail) => {
    emulator.once('exit', (code) => fail(new Error(`the emulator exited with ${code} before it was ready`)));
    createInterface({ input: emulator.stdout }).once('line', (l) => ok([l]));
  });
  const ready = JSON.parse(line);
  const out = join(dir, 'emulator.snapshot.json');
  const r = spawnSync(process.execPath, [svc, 'parity', 'record', '--base-url', ready.base_url, '--api-key', 'svc_test_acme0all0scopes0000000000001', '--emulator-fixtures', '--out', out], { stdio: 'inherit' });
  // process.exitCode, never process.exit(): the finally below must stop the emulator.
  if (r.status !== 0) process.exitCode = r.status ?? 1;
  else {
    const now = JSON.parse(readFileSync(out, 'utf8'));
    const same = (s) => JSON.stringify({ ...s, recorded_at: null, svc_version: null, host: { ...s.host, base_url: null } });
    if (existsSync(file) && same(JSON.parse(readFileSync(file, 'utf8'))) === same(now)) console.log(`${file}: unchanged`);
    else {
      writeFileSync(file, readFileSync(out, 'utf8'));
      console.log(`${file}: written (review the diff)`);
    }
  }
} finally {
  emulator.kill('SIGTERM');
  await new Promise((ok) => (emulator.exitCode !== null ? ok() : emulator.once('exit', ok)));
  rmSync(dir, { recursive: true, force: true });
}
