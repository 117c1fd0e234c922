import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { runBinary, startCli } from './run-binary.js';

// The pattern CI scripts and docs/parity.md use: `svc emulator start … &` then at once
// `svc emulator status --wait`, which must wait for the emulator's discovery file as well as
// for its answer (issue 39). Real processes, no pause between the two, twenty times over: a
// start that is not yet listening, or has not yet written .svc/emulator.json, is waited for.
// The emulator must also be stoppable the moment it answers (its signal handlers are in
// before it listens). Twenty starts take a while on a busy machine: this file runs alone.

const RUNS = 20;

test(`a background start, then status --wait at once, ${RUNS} times without a pause between them: every wait succeeds`, { timeout: RUNS * 15_000 }, async () => {
  const cwd = tempDir('svc-wait-bg-');
  const env = { HOME: cwd, XDG_CONFIG_HOME: join(cwd, 'config') };
  for (let i = 0; i < RUNS; i++) {
    // As in a shell: `svc emulator start --port 0 --json > e.json & svc emulator status --wait --timeout 60s`.
    const start = startCli(['emulator', 'start', '--port', '0', '--json'], { cwd, env });
    try {
      const wait = await runBinary(['emulator', 'status', '--wait', '--timeout', '60s'], { cwd, env, timeoutMs: 90_000 });
      assert.equal(wait.code, 0, `run ${i + 1}: ${wait.stderr}\nstart: ${start.stderr()}`);
      assert.match(wait.stdout, /status\s+ok/);
    } finally {
      assert.equal(await start.interrupt(), 0, `run ${i + 1}: the emulator stops cleanly`);
    }
  }
});
