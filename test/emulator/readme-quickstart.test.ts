import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/server.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// The README's quick start, run as written: its shell block is read from README.md, each
// command is run by bash with curl against a real emulator, and the placeholder ids
// (`pl_…`, `pay_…`) are replaced by the ids the previous commands printed.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator({ clock: 'system' });
});
after(() => emu.stop());

function quickStartCommands(): string[] {
  const readme = readFileSync(packageFile('README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the quick start has a ```sh block');
  return block
    .replace(/\\\n\s*/g, '') // join continued lines
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.replace(/\s+#.*$/, '')); // trailing comments
}

test('the README quick start works as written', async () => {
  const commands = quickStartCommands();
  const assignments = commands.filter((c) => /^[A-Z]+=/.test(c));
  const curls = commands.filter((c) => c.startsWith('curl '));
  assert.deepEqual(assignments.map((a) => a.split('=')[0]), ['KEY', 'BASE']);
  assert.equal(curls.length, 3);
  // The README's address is the default one; point it at this test's emulator.
  assert.equal(assignments[1], 'BASE=http://127.0.0.1:4242');
  const env = `${assignments[0]}; BASE=${emu.baseUrl}`;
  // Async: the emulator answers from this very process.
  const run = async (cmd: string) => JSON.parse((await promisify(execFile)('bash', ['-c', `${env}; ${cmd}`], { encoding: 'utf8' })).stdout);

  const link = await run(curls[0]);
  assert.equal(link.success, true, JSON.stringify(link));
  assert.match(link.data.id, /^pl_/);
  assert.match(link.data.link_code, /^PL-/);
  assert.equal(link.data.status, 'pending');

  assert.ok(curls[1].includes('pl_…'), 'simulate uses the pl_… placeholder');
  const payment = await run(curls[1].replace('pl_…', link.data.id));
  assert.equal(payment.success, true, JSON.stringify(payment));
  assert.match(payment.data.id, /^pay_/);
  assert.equal(payment.data.status, 'completed');

  assert.ok(curls[2].includes('pay_…'), 'the read uses the pay_… placeholder');
  const read = await run(curls[2].replace('pay_…', payment.data.id));
  assert.deepEqual(read, payment);
});
