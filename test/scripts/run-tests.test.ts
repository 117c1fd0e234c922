import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
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

function run(dir: string, filter: string[] = [], extraEnv: Record<string, string> = {}) {
  const logFile = join(dir, 'run.log');
  writeFileSync(logFile, '');
  // Without NODE_TEST_CONTEXT: set by the node:test running this file, it would make the inner
  // runner report to ours instead of running its files.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const result = spawnSync(process.execPath, [script, ...filter], { env: { ...env, SVC_TEST_PROJECT: dir, RUN_LOG: logFile, SVC_TEST_ARGS: '', ...extraEnv }, encoding: 'utf8' });
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

test('a filter matches the path under dist/test, not the folders above it', () => {
  const dir = project({ 'cli/f0': file('cli/f0'), 'emulator/f1': file('emulator/f1') });
  // The project's own path holds "dist/test" and its temp folder's name: neither selects a file.
  for (const outside of ['dist', dir.split('/').at(-1)!]) {
    const none = run(dir, [outside]);
    assert.equal(none.status, 1, none.output);
    assert.match(none.output, /no test files found under dist\/test matching/);
  }
  const cli = run(dir, ['cli/']);
  assert.equal(cli.status, 0, cli.output);
  assert.deepEqual(cli.lines.map((l) => l.split(' ').slice(1).join(' ')), ['before cli/f0', 'test cli/f0', 'after cli/f0']);
});

/** A test file that changes process-wide state in a test, and (unless `leak`) restores it in after(). */
const stateFile = (change: string, restore: string) => `
import { after, test } from 'node:test';
${restore ? `after(() => { ${restore} });` : ''}
test('changes process state', () => { ${change} });
`;

test('a file that leaves process.env, the cwd or process listeners changed fails by name; one that restores them passes', () => {
  // Seven files over six shards: f0 (leaks) shares its process with f6 (changes nothing), which
  // must not be blamed for what f0 left.
  const dir = project({
    'cli/f0-env-added': stateFile(`process.env.SVC_LEAK_ADDED = '1';`, ''),
    'cli/f1-env-removed-changed': stateFile(`delete process.env.LEAK_REMOVE; process.env.LEAK_CHANGE = 'new';`, ''),
    'cli/f2-cwd': stateFile(`process.chdir('/');`, ''),
    'cli/f3-listener': stateFile(`process.on('SIGUSR2', () => {});`, ''),
    'cli/f4-restores': `
import { after, before, test } from 'node:test';
const cwd = process.cwd();
const onSignal = () => {};
before(() => { process.env.SVC_RESTORED = '1'; process.env.LEAK_CHANGE = 'mine'; process.chdir('/'); process.on('SIGUSR2', onSignal); });
after(() => { delete process.env.SVC_RESTORED; process.env.LEAK_CHANGE = 'old'; process.chdir(cwd); process.off('SIGUSR2', onSignal); });
test('changes process state in before()', () => {});
`,
    'cli/f5-plain': file('cli/f5'),
    'cli/f6-plain': file('cli/f6'),
  });
  const { status, output } = run(dir, [], { LEAK_REMOVE: 'x', LEAK_CHANGE: 'old' });
  assert.equal(status, 1, output);
  const verdict = (name: string) => {
    const reported = new RegExp(`^(not )?ok \\d+ - cli/${name}\\.test\\.js$`, 'm').exec(output);
    assert.ok(reported, `${name} is reported\n${output}`);
    return reported[1] === undefined;
  };
  const failure = (name: string, what: string) =>
    assert.match(output, new RegExp(`cli/${name}\\.test\\.js leaves process-wide state changed for the files after it: ${what}`), output);
  failure('f0-env-added', 'process\\.env\\.SVC_LEAK_ADDED added');
  failure('f1-env-removed-changed', 'process\\.env\\.LEAK_REMOVE removed; process\\.env\\.LEAK_CHANGE changed');
  failure('f2-cwd', `cwd changed from ${process.cwd()} to /`);
  // One more listener than the process started with: none on Node 20 and 22, one on Node 24 (its test runner's own).
  const listeners = /cli\/f3-listener\.test\.js leaves process-wide state changed for the files after it: process 'SIGUSR2' listeners (\d+) → (\d+)/.exec(output);
  assert.ok(listeners, output);
  assert.equal(Number(listeners[2]), Number(listeners[1]) + 1);
  for (const leaking of ['f0-env-added', 'f1-env-removed-changed', 'f2-cwd', 'f3-listener']) assert.equal(verdict(leaking), false, `${leaking} fails\n${output}`);
  for (const clean of ['f4-restores', 'f5-plain', 'f6-plain']) assert.equal(verdict(clean), true, `${clean} passes\n${output}`);
});

test("a suite whose after hook fails fails the run, on every Node line (Node 22's node --test exits 0 for it)", () => {
  const dir = project({
    'cli/g0-after-hook': `
import { after, describe, test } from 'node:test';
describe('a suite', () => {
  test('passes', () => {});
  after(() => { throw new Error('the after hook fails on purpose'); });
});
`,
  });
  const { status, output } = run(dir);
  assert.equal(status, 1, output);
  assert.match(output, /the after hook fails on purpose/);
  assert.match(output, /failed \((a hook failed, exit 0|exit 1)\)/);
});

test('in a shared process a hanging test times out alone: the rest of its file and the other files still run', () => {
  const hang = `
import { test } from 'node:test';
import { appendFileSync } from 'node:fs';
// Hangs with a live handle (as a request that never answers does), freed once cancelled.
test('hangs', (t) => {
  const keepAlive = setInterval(() => {}, 1000);
  t.signal.addEventListener('abort', () => clearInterval(keepAlive));
  return new Promise(() => {});
});
test('runs after the hang', () => appendFileSync(process.env.RUN_LOG, process.pid + ' test after hang\\n'));
`;
  // Seven files: emulator/f0 (hangs) shares its process with emulator/f6.
  const names = Array.from({ length: 7 }, (_, i) => `emulator/f${i}`);
  const dir = project(Object.fromEntries(names.map((n, i) => [n, i === 0 ? hang : file(n)])));
  const { status, output, lines } = run(dir, [], { SVC_TEST_TIMEOUT_MS: '1500' });
  assert.equal(status, 1, output);
  assert.match(output, /not ok 1 - hangs[\s\S]*?test timed out after 1500ms/);
  const pid = (event: string) => lines.find((l) => l.endsWith(` ${event}`))?.split(' ')[0];
  assert.ok(pid('test after hang') !== undefined, lines.join(' | '));
  assert.equal(pid('after emulator/f6'), pid('test after hang'), `f6 ran after the hang, in the same process: ${lines.join(' | ')}`);
  assert.match(output, /^ok \d+ - emulator\/f6\.test\.js$/m);
});

test('a shard that cannot exit after its last test is ended and fails, naming its files', () => {
  const names = Array.from({ length: 7 }, (_, i) => `http/f${i}`);
  const files = Object.fromEntries(names.map((n) => [n, file(n)]));
  // A server left listening: the process would otherwise wait for the whole run's timeout.
  files['http/f0'] += `\nimport { createServer } from 'node:http';\ncreateServer().listen(0, '127.0.0.1');\n`;
  const dir = project(files);
  const { status, output } = run(dir, [], { SVC_TEST_EXIT_GRACE_MS: '500' });
  assert.equal(status, 1, output);
  assert.match(output, /every test of this shard finished, but something keeps the process alive 0\.5 s later \([^)]*TCPServerWrap[^)]*\): .* one of http\/f0\.test\.js, http\/f6\.test\.js left open/);
});

test('which files run alone comes from test/durations.json: a long file gets a process of its own', () => {
  const names = Array.from({ length: 8 }, (_, i) => `cli/f${i}`);
  const dir = project({ ...Object.fromEntries(names.map((n) => [n, file(n)])), 'browser/long': file('browser/long') });
  writeFileSync(join(dir, 'test/durations.json'), JSON.stringify({ 'browser/long.test.js': 40_000, 'cli/f0.test.js': 500 }));
  const { status, output, lines } = run(dir);
  assert.equal(status, 0, output);
  const pidOf = (n: string) => lines.find((l) => l.endsWith(` test ${n}`))?.split(' ')[0];
  const long = pidOf('browser/long');
  assert.ok(long !== undefined, lines.join(' | '));
  assert.deepEqual(lines.filter((l) => l.startsWith(`${long} `)).map((l) => l.split(' ').slice(1).join(' ')), ['before browser/long', 'test browser/long', 'after browser/long']);
  // Its limit scales with its recorded work: 8 x 40 s.
  assert.match(output, /# ── browser\/long\.test\.js: ok/);
  // The short files still share processes: eight files over six shards.
  assert.equal(new Set(names.map(pidOf)).size, 6, lines.join(' | '));
});

/** Whether a process runs (a zombie waiting for a parent that may never reap it counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A test file that starts a child in its process group and a detached one, logs both pids, and hangs. */
const hangWithChildren = `
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
test('starts two children and hangs', () => {
  const idle = ['-e', 'setInterval(() => {}, 1000)'];
  const inGroup = spawn(process.execPath, idle, { stdio: 'ignore' });
  const detached = spawn(process.execPath, idle, { stdio: 'ignore', detached: true });
  appendFileSync(process.env.RUN_LOG, process.pid + ' children ' + inGroup.pid + ' ' + detached.pid + '\\n');
  return new Promise(() => {});
});
`;

test('a process past its limit is killed with everything it started, its detached children too, and counted as a failed file by name', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  // The hanging file starts a child in its own process group and a detached one (as the tests'
  // emulators and example suites are), logs both pids, and hangs. Its recorded work is 1 ms, so
  // its limit is the floor this test sets; the per-test limit inside is far above it. Six short
  // files (1 ms each) beside it: cli/f0 shares its process and passes before it.
  const names = Array.from({ length: 6 }, (_, i) => `cli/f${i}`);
  const dir = project({ 'cli/hang': hangWithChildren, ...Object.fromEntries(names.map((n) => [n, file(n)])) });
  writeFileSync(join(dir, 'test/durations.json'), JSON.stringify(Object.fromEntries(['cli/hang', ...names].map((n) => [`${n}.test.js`, 1]))));
  const { status, output, lines } = run(dir, [], { SVC_TEST_MIN_LIMIT_MS: '15000' });
  assert.equal(status, 1, output);
  assert.match(output, /KILLED after 15 s, its limit/);
  assert.match(output, /^ok \d+ - cli\/f0\.test\.js$/m, 'the file before it in its process passed');
  // The killed process printed no totals: the summary still counts its file, and names it alone.
  assert.match(output, /; 6 processes; 1 of 7 files failed\n# FAILED cli\/hang\.test\.js: KILLED after 15 s, its limit .* \[shard 1 \(2 files\)\]\n/);
  const children = lines.find((l) => l.includes(' children '));
  assert.ok(children, `the file logged its children before its limit: ${output}`);
  const pids = children.split(' ').slice(2).map(Number);
  assert.deepEqual(pids.filter(alive), [], 'no child of the killed process is left running');
});

test('a runner stopped by a signal (Ctrl-C, a cancelled CI job) ends its test processes and what they started', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const dir = project({ 'cli/hang': hangWithChildren });
  const logFile = join(dir, 'run.log');
  writeFileSync(logFile, '');
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const runner = spawn(process.execPath, [script], { env: { ...env, SVC_TEST_PROJECT: dir, RUN_LOG: logFile, SVC_TEST_ARGS: '' }, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => runner.on('exit', (code) => resolve(code)));
  // The signal is sent once the hanging file has logged its children (a poll with only a give-up time).
  let children: number[] = [];
  for (const giveUp = Date.now() + 60_000; children.length === 0 && Date.now() < giveUp; await new Promise((r) => setTimeout(r, 100))) {
    children = readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes(' children '))?.split(' ').slice(2).map(Number) ?? [];
  }
  assert.equal(children.length, 2, 'the file logged its two children');
  runner.kill('SIGTERM');
  assert.equal(await exited, 130);
  assert.deepEqual(children.filter(alive), [], 'no child of the stopped run is left running');
});

/** Polls until none of `pids` runs (a SIGKILL lands when its target next runs), giving up after 10 s. */
async function gone(pids: number[]): Promise<number[]> {
  for (const giveUp = Date.now() + 10_000; pids.some(alive) && Date.now() < giveUp; ) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(alive);
}

for (const signal of ['SIGHUP', 'SIGINT'] as const) {
  test(`npm run test:busy stopped by ${signal} ends its CPU hogs and the run`, { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
    const dir = project({ 'cli/hang': hangWithChildren });
    const logFile = join(dir, 'run.log');
    writeFileSync(logFile, '');
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    // Detached: whatever the test leaves (hogs of a broken test-busy) is killed with its group below.
    const busy = spawn(process.execPath, [packageFile('scripts/test-busy.mjs')], {
      env: { ...env, SVC_TEST_PROJECT: dir, RUN_LOG: logFile, SVC_TEST_ARGS: '', SVC_TEST_HOGS: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    busy.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => busy.on('exit', (code) => resolve(code)));
    let hogs: number[] = [];
    let children: number[] = [];
    try {
      // Signalled once the hog runs and the hanging file has logged its children (a poll with only a give-up time).
      for (const giveUp = Date.now() + 60_000; children.length === 0 && Date.now() < giveUp; await new Promise((r) => setTimeout(r, 100))) {
        children = readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes(' children '))?.split(' ').slice(2).map(Number) ?? [];
      }
      hogs = /\(pids ([\d, ]+)\)/.exec(stderr)?.[1]!.split(', ').map(Number) ?? [];
      assert.equal(hogs.length, 1, stderr);
      assert.equal(children.length, 2, 'the file logged its two children');
      busy.kill(signal);
      assert.equal(await exited, 130);
      assert.deepEqual(await gone(hogs), [], `no CPU hog is left spinning after ${signal}`);
      assert.deepEqual(await gone(children), [], `nothing the run started is left after ${signal}`);
    } finally {
      for (const pid of [...hogs, ...children]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      try {
        process.kill(-busy.pid!, 'SIGKILL');
      } catch {
        // The group is already empty.
      }
    }
  });
}
