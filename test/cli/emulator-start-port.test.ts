import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { startSvc } from '../helpers/svc-process.js';
import { runCli } from './cli.js';

// `svc emulator start` on a port someone else holds: a sentence naming the port and the way
// out (--port 0), exit 1, and nothing left behind — the store lock is released, so the next
// start on the same data dir works.

test('emulator start on a taken port: names the port, suggests --port 0, leaves no store.lock', async () => {
  const holder = createServer();
  await new Promise<void>((ok) => holder.listen(0, '127.0.0.1', ok));
  const port = (holder.address() as { port: number }).port;
  const dataDir = tempDir('svc-cli-port-');
  try {
    // Binary: start owns its process (signal handlers, process.exit); a failed start must end it cleanly.
    const r = await runCli(['emulator', 'start', '--port', String(port), '--data-dir', dataDir, '--quiet'], { binary: true });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`error: port ${port} is already in use on 127\\.0\\.0\\.1 .*--port 0 for any free port`));
    assert.doesNotMatch(r.stderr, /listen EADDRINUSE|\n\s+at /, 'no raw error or stack');
    assert.equal(existsSync(join(dataDir, 'store.lock')), false, `left: ${readdirSync(dataDir).join(', ')}`);
    assert.equal(existsSync(join(dataDir, 'emulator.json')), false, 'no discovery file for an emulator that never ran');
  } finally {
    await new Promise<void>((ok) => holder.close(() => ok()));
  }
  // The same data dir starts at once on another port: nothing claims it is in use.
  const next = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet']);
  try {
    assert.match(next.ready.base_url, /^http:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    next.child.kill('SIGINT');
    await next.done;
  }
});
