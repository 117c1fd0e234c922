import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { closed, svcBin } from '../helpers/svc-process.js';
import { cliHome, target } from './cli.js';

// `svc … | head`: the reader goes away before svc writes. The read end of stdout is closed
// before the child even starts writing, so every write meets EPIPE; svc must end quietly — no
// stack trace, no "write EPIPE" on stderr — and promptly (a hang fails the run's timeout).

const cli = cliHome();
let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

/** `signal`: the test's; a test that times out or is cancelled ends the child with it. */
async function runIntoClosedPipe(args: string[], signal: AbortSignal): Promise<{ code: unknown; stderr: string }> {
  const child = spawn(process.execPath, [svcBin, ...args], {
    signal,
    killSignal: 'SIGKILL',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: cli.home, XDG_CONFIG_HOME: cli.configHome, NO_COLOR: '1', SVC_BASE_URL: undefined, SVC_API_KEY: undefined },
  });
  child.once('error', () => {}); // the abort's AbortError: the kill is what matters
  child.stdout!.destroy(); // the reader is gone: `| head -0`
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  return { code: await closed(child), stderr };
}

for (const args of [
  ['--help'],
  ['payroll', 'approve', '--help'],
  ['payments', 'list'],
  ['payments', 'list', '--json'],
  ['emulator', 'keys'],
]) {
  test(`svc ${args.join(' ')} into a closed pipe ends quietly`, async (t) => {
    const needsHost = !args.includes('--help');
    const r = await runIntoClosedPipe(needsHost ? [...args, ...target(emu.baseUrl, KEYS.acmeTest)] : args, t.signal);
    assert.doesNotMatch(r.stderr, /EPIPE|Error|at .*\.js:\d+/, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });
}
