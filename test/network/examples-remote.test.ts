import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNetnsPair, netnsUnavailable, startEmulatorOn, type NetEmulator, type NetnsPair } from '../helpers/netns.js';
import { repoRoot, untilExit, type ExampleRun } from '../examples/example-run.js';

// Tests in other languages against an emulator on another host, as a compose setup runs them:
// the emulator on network host `svc` (--host 0.0.0.0, --allow-host svc and app, a control
// token), the Python and Java example suites on host `app`, with SVC_BASE_URL=http://svc:4242,
// the token in SVC_CONTROL_TOKEN, and their webhook receiver bound on app's interface and
// registered as http://app:<port>. Every call, the control API's included, and every
// delivery crosses the veth link. Without the token the suites fail at the control API.
// Needs root (namespaces); without it the file skips and says why.

const PORT = 4242;
const TOKEN = 'tok_examples_remote_0123456789_abcdef';
const TEST_KEY = 'svc_test_acme0all0scopes0000000000001';
const unavailable = netnsUnavailable();

describe('the example suites from another network host', { skip: unavailable ? `skipped: ${unavailable}` : false }, () => {
  let pair: NetnsPair;
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'svc-net-examples-'));
    pair = createNetnsPair();
  });
  after(() => {
    pair?.destroy();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** A fresh emulator on `svc` for one suite run (each suite registers its own endpoint and OTP). */
  async function withEmulator<T>(name: string, body: () => Promise<T>): Promise<T> {
    const args = ['--host', '0.0.0.0', '--port', String(PORT), '--data-dir', join(scratch, name), '--allow-host', 'svc', '--allow-host', 'app', '--control-token', TOKEN, '--clock', 'manual', '--rate-limit', 'off', '--quiet'];
    const emu: NetEmulator = await startEmulatorOn(pair, pair.svc, args);
    try {
      return await body();
    } finally {
      await emu.stop();
    }
  }

  /** `command` on host `app`, from the repository root, with only the environment a container would have. */
  function runOnApp(command: string[], env: Record<string, string>): Promise<ExampleRun> {
    const [file, argv] = pair.argv(pair.app, command[0]!, command.slice(1));
    const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? scratch, PYTHONDONTWRITEBYTECODE: '1' };
    const child = spawn(file, argv, { cwd: repoRoot, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    return untilExit(child, command.join(' '));
  }

  const remoteEnv = (token: string | undefined) => ({
    SVC_BASE_URL: `http://svc:${PORT}`,
    SVC_API_KEY: TEST_KEY,
    ...(token && { SVC_CONTROL_TOKEN: token }),
    EXAMPLE_RECEIVER_BIND: '0.0.0.0',
    EXAMPLE_RECEIVER_NAME: 'app',
  });
  const python = ['python3', '-m', 'unittest', 'discover', '-s', 'examples/python', '-v'];
  const java = ['sh', 'examples/java/run.sh'];

  test('the Python suite passes from app with the token: webhook to http://app:<port>, OTP and clock through the control API', async () => {
    const run = await withEmulator('python', () => runOnApp(python, remoteEnv(TOKEN)));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /webhook receiver listening on http:\/\/app:\d+\//);
    assert.match(run.output, /OK/);
  });

  test('the Java suite passes from app with the token', async () => {
    const run = await withEmulator('java', () => runOnApp(java, remoteEnv(TOKEN)));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /webhook receiver listening on http:\/\/app:\d+\//);
  });

  test('without the token the suite fails at the control API (401 from the door), not elsewhere', async () => {
    const run = await withEmulator('python-no-token', () => runOnApp(python, remoteEnv(undefined)));
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /401 UNAUTHORIZED/);
    assert.match(run.output, /Svc-Control-Token/);
  });
});
