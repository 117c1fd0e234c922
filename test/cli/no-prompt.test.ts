import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession } from './cli.js';

// Without a terminal nothing prompts (stdin closed, a timeout guard in runCli): a missing
// value is a usage error naming the flag. Bad keys and base URLs are usage errors too. The
// first case runs the built binary with its real stdin closed; the rest run in-process, with
// an IO whose stdin is not a terminal.

const cli = cliSession();
const closedPort = 'http://127.0.0.1:9';

test('no prompt without a terminal: --no-input, CI=true and a closed stdin all give a usage error naming the flag', async () => {
  const base = ['--base-url', cli.emu.baseUrl, '--api-key', KEYS.acmeTest];
  for (const [args, env, binary] of [
    // Binary: the process's own stdin, closed (not a terminal), must not prompt or wait.
    [['sub-merchants', 'create', '--name', 'X', '--phone', '+231770000203', ...base], {}, true],
    [['sub-merchants', 'create', '--name', 'X', '--phone', '+231770000203', '--no-input', ...base], {}, false],
    [['payroll', 'approve', 'prun_x', ...base], { CI: 'true' }, false],
    [['emulator', 'payees', 'approve', 'payee_x', '--base-url', cli.emu.baseUrl], {}, false],
  ] as [string[], Record<string, string>, boolean][]) {
    const r = await cli.run(args, { env, timeoutMs: 15_000, binary });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /missing --(otp|pin)/);
  }
});

test('a key that is neither test nor live is a usage error; a bad base URL too', async () => {
  const r = await cli.run(['payments', 'list', '--api-key', 'sk_live_123', '--base-url', cli.emu.baseUrl]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /does not start with svc_test_ or svc_live_/);
  const u = await cli.run(['payments', 'list', '--api-key', KEYS.acmeTest, '--base-url', 'ftp://x']);
  assert.equal(u.code, 2);
  const unreachable = await cli.run(['payments', 'list', '--api-key', KEYS.acmeTest, '--base-url', closedPort]);
  assert.equal(unreachable.code, 1);
});
