import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/server.js';
import { tempDir } from '../helpers/emulator.js';

// scripts/run-tests.mjs runs short test files together in shared processes. Each file must
// still see only its own hooks, run in its own order, and a failure in one must fail the run:
// checked on a made-up project of small files (SVC_TEST_PROJECT), run by the real script.

const script = packageFile('scripts/run-tests.mjs');

/** A test file that records its hook and test order into a shared log and checks its own state. */
const file = (name: string, failing = false) => `
import { before, after, test } from 'node:test';
import { appendFileSync } from 'node:fs';
const log = (m) => appendFileSync(process.env.RUN_LOG, m + '\\n');
let up = false;
before(() => { up = true; log('before ${name}'); });
after(() => { up = false; log('after ${name}'); });
test('${name} runs with its own before hook', () => {
  log('test ${name} pid ' + process.pid);
  if (!up) throw new Error('${name}: its before hook has not run');
  ${failing ? `throw new Error('${name} fails on purpose');` : ''}
});
`;

function project(files: Record<string, string>) {
  const dir = tempDir('svc-run-tests-');
  for (const [name, text] of Object.entries(files)) {
    for (const [sub, ext, body] of [['dist/test', '.test.js', text], ['test', '.test.ts', '']] as const) {
      const path = join(dir, sub, name + ext);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, body);
    }
  }
  return dir;
}

function run(dir: string) {
  const logFile = join(dir, 'run.log');
  writeFileSync(logFile, '');
  // Without NODE_TEST_CONTEXT: set by the node:test running this file, it would make the inner
  // runner report to ours instead of running its files.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const result = spawnSync(process.execPath, [script], { env: { ...env, SVC_TEST_PROJECT: dir, RUN_LOG: logFile, SVC_TEST_ARGS: '' }, encoding: 'utf8' });
  const lines = spawnSync('cat', [logFile], { encoding: 'utf8' }).stdout.trim().split('\n');
  return { status: result.status, output: result.stdout + result.stderr, lines };
}

test('shared processes keep each file\'s hooks around its own tests, and several files share one process', () => {
  // 12 short files: six shards of two.
  const names = Array.from({ length: 12 }, (_, i) => `emulator/f${String(i).padStart(2, '0')}`);
  const dir = project(Object.fromEntries(names.map((n) => [n, file(n)])));
  const { status, output, lines } = run(dir);
  assert.equal(status, 0, output);
  // Within each process, every file's after runs before the next file's before.
  const pids = new Map<string, string[]>();
  for (const n of names) {
    const i = lines.indexOf(`before ${n}`);
    assert.ok(i >= 0, `${n} ran: ${lines.join(' | ')}`);
    const testLine = lines[i + 1];
    assert.match(testLine, new RegExp(`^test ${n} pid \\d+$`));
    assert.equal(lines[i + 2], `after ${n}`, `${n}: its after hook follows its own test`);
    const pid = testLine.split(' pid ')[1];
    pids.set(pid, [...(pids.get(pid) ?? []), n]);
  }
  assert.equal(pids.size, 6, 'six shared processes');
  for (const group of pids.values()) assert.equal(group.length, 2);
});

test('one failing file in a shared process fails the run and is named', () => {
  // Seven files: the first shares the first process with the seventh.
  const names = Array.from({ length: 7 }, (_, i) => `cli/f${i}`);
  const dir = project(Object.fromEntries(names.map((n, i) => [n, file(n, i === 0)])));
  const { status, output, lines } = run(dir);
  assert.equal(status, 1, output);
  assert.match(output, /not ok \d+ - cli\/f0\.test\.js/);
  assert.match(output, /cli\/f0 fails on purpose/);
  // The file after it in the same process still ran, in the same process.
  const pid = (n: string) => lines.find((l) => l.startsWith(`test ${n} pid`))?.split(' pid ')[1];
  assert.ok(pid('cli/f6') !== undefined && pid('cli/f6') === pid('cli/f0'), lines.join(' | '));
  assert.ok(lines.includes('after cli/f6'), lines.join(' | '));
});
