import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { runInProcess, testIO } from './run-in-process.js';

// Colour is decided for each invocation's IO, never once for the process: a terminal without
// NO_COLOR gets the coloured TEST badge, a pipe or NO_COLOR gets the plain [TEST] marker — in
// one process, in either order. (No network: `config show` only resolves the target.)

const args = ['config', 'show', '--api-key', KEYS.acmeTest, '--base-url', 'http://127.0.0.1:9'];
const ESC = '\x1b[';

/** `config show` with stdout a terminal or not, NO_COLOR set or not. */
async function show(terminal: boolean, noColor: boolean) {
  const io = testIO({ env: { NO_COLOR: noColor ? '1' : undefined } });
  io.stdout.isTTY = terminal;
  const r = await runInProcess(args, {}, io);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

test('a pipe is plain, a terminal is coloured, NO_COLOR wins over a terminal; each run decides for its own IO', async () => {
  const piped = await show(false, false);
  assert.ok(!piped.includes(ESC), piped);
  assert.match(piped, /^\[TEST\] Target/);

  const terminal = await show(true, false);
  assert.ok(terminal.startsWith(`${ESC}`), terminal);
  assert.match(terminal, / TEST /);
  assert.doesNotMatch(terminal, /\[TEST\]/);

  assert.ok(!(await show(true, true)).includes(ESC), 'NO_COLOR on a terminal');
  assert.ok(!(await show(false, false)).includes(ESC), 'a pipe after a coloured run is still plain');
});
