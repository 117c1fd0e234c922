import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
const log = (m) => appendFileSync(process.env.RUN_LOG, process.pid + ' ' + m + '\\n');
let up = false;
before(() => { up = true; log('before ${name}'); });
after(() => { up = false; log('after ${name}'); });
test('${name} runs with its own before hook', () => {
  log('test ${name}');
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
  const lines = readFileSync(logFile, 'utf8').trim().split('\n');
  return { status: result.status, output: result.stdout + result.stderr, lines };
}

test('shared processes keep each file\'s hooks around its own tests, and several files share one process', () => {
  // 12 short files: six shards of two.
  const names = Array.from({ length: 12 }, (_, i) => `emulator/f${String(i).padStart(2, '0')}`);
  const dir = project(Object.fromEntries(names.map((n) => [n, file(n)])));
  const { status, output, lines } = run(dir);
  assert.equal(status, 0, output);
  // Two processes run at once and share the log: read it per process. In each, every file's
  // before, test and after come together, before the next file's.
  const byPid = new Map<string, string[]>();
  for (const line of lines) {
    const [pid, ...rest] = line.split(' ');
    byPid.set(pid, [...(byPid.get(pid) ?? []), rest.join(' ')]);
  }
  assert.equal(byPid.size, 6, `six shared processes: ${lines.join(' | ')}`);
  const seen: string[] = [];
  for (const events of byPid.values()) {
    assert.equal(events.length, 6, `two files in each process: ${events.join(' | ')}`);
    for (let i = 0; i < events.length; i += 3) {
      const name = events[i].replace(/^before /, '');
      assert.deepEqual(events.slice(i, i + 3), [`before ${name}`, `test ${name}`, `after ${name}`]);
      seen.push(name);
    }
  }
  assert.deepEqual(seen.sort(), names);
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
  const pid = (n: string) => lines.find((l) => l.endsWith(` test ${n}`))?.split(' ')[0];
  assert.ok(pid('cli/f6') !== undefined && pid('cli/f6') === pid('cli/f0'), lines.join(' | '));
  assert.ok(lines.includes(`${pid('cli/f6')} after cli/f6`), lines.join(' | '));
});
