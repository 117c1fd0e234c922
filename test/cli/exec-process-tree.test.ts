import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { closed, onLines, svcBin } from '../helpers/svc-process.js';

// `svc emulator exec -- npm test` owns the whole tree npm starts: npm → sh → the test runner →
// its workers. Whether the command succeeds, fails, or exec gets SIGINT or SIGTERM, nothing of
// the tree runs once exec has exited, and the emulator answered until the last member was gone.
// The built binary in a real process: exec's signals and process group are what is tested.

const linux = process.platform === 'linux';

// The fake project: `npm test` runs runner.js, which starts two workers (node grandchildren of
// npm). Each worker appends its pid to pids.txt and stays alive; the runner writes its own pid
// and its ancestors in the group (sh, npm), then prints "tree ready" and does what MODE says.
const RUNNER = `
const { spawn } = require('node:child_process');
const { appendFileSync, readFileSync } = require('node:fs');
const pids = process.env.PIDS_FILE;
const pgrp = (pid) => { const s = readFileSync('/proc/' + pid + '/stat', 'utf8'); return s.slice(s.lastIndexOf(')') + 2).split(' ').slice(1, 3).map(Number); };
// sh and npm: the ancestors in this process group, up to svc (outside the group, unless exec
// failed to give the command a group of its own: then svc is where the walk stops).
const [, group] = pgrp(process.pid);
const isSvc = (pid) => readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('svc.js');
for (let pid = process.ppid; pid > 1 && !isSvc(pid); ) { const [ppid, g] = pgrp(pid); if (g !== group) break; appendFileSync(pids, pid + ' ancestor\\n'); pid = ppid; }
appendFileSync(pids, process.pid + ' runner\\n');
let up = 0;
const stubborn = process.env.MODE === 'success' || process.env.MODE === 'SIGTERM twice';
// SIGTERM twice: the runner and a worker ignore the first SIGTERM; the second one is exec's SIGKILL.
if (process.env.MODE === 'SIGTERM twice') process.on('SIGTERM', () => console.log('runner ignores SIGTERM'));
const workers = ['worker', stubborn ? 'stubborn' : 'worker'].map((kind) => {
  const w = spawn(process.execPath, [__filename.replace('runner.js', 'worker.js'), kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  w.stdout.once('data', () => {
    w.stdout.destroy();
    w.unref();
    if (++up < 2) return;
    console.log('tree ready ' + process.env.SVC_DATA_DIR);
    if (process.env.MODE === 'success') process.exit(0);
    if (process.env.MODE === 'failure') process.exit(3);
    setInterval(() => {}, 1 << 30); // signalled: waits for exec's signal
  });
  return w;
});
`;

// A worker stays alive until signalled. On SIGTERM it first asks the emulator for its health
// (recording the status), to show the emulator still runs while the group exits, and then takes
// LINGER_MS more to exit (a slow shutdown, as on a busy machine); a "stubborn" worker ignores
// SIGTERM (a leftover that only SIGKILL ends).
const WORKER = `
const { appendFileSync } = require('node:fs');
appendFileSync(process.env.PIDS_FILE, process.pid + ' ' + process.argv[2] + '\\n');
setInterval(() => {}, 1 << 30);
process.on('SIGTERM', () => {
  if (process.argv[2] === 'stubborn') return;
  fetch(process.env.SVC_BASE_URL + '/_emulator/health').then(
    (r) => appendFileSync(process.env.HEALTH_FILE, process.pid + ' ' + r.status + '\\n'),
    (e) => appendFileSync(process.env.HEALTH_FILE, process.pid + ' ' + e.message + '\\n'),
  ).finally(() => setTimeout(() => process.exit(0), Number(process.env.LINGER_MS ?? 0)));
});
process.stdout.write('up\\n');
`;

function project() {
  const dir = tempDir('svc-exec-tree-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tree', version: '1.0.0', private: true, scripts: { test: 'node runner.js' } }));
  writeFileSync(join(dir, 'runner.js'), RUNNER);
  writeFileSync(join(dir, 'worker.js'), WORKER);
  return dir;
}

/** Running: signalable and not a zombie (this machine's PID 1 does not reap orphans, so exited orphans stay zombies). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ESRCH');
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false; // gone between the two reads
  }
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** `promise`, or a rejection once the test is cancelled or times out (so its finally still cleans up). */
const orAbort = <T>(promise: Promise<T>, signal: AbortSignal) =>
  Promise.race([promise, new Promise<never>((_, fail) => signal.addEventListener('abort', () => fail(new Error('test cancelled')), { once: true }))]);

type Mode = 'success' | 'failure' | 'SIGINT' | 'SIGTERM' | 'SIGTERM twice';
const hasStubborn = (mode: Mode) => mode === 'success' || mode === 'SIGTERM twice';

async function execTree(mode: Mode, abort: AbortSignal, extraEnv: Record<string, string> = {}) {
  const dir = project();
  dirs.push(dir);
  const pidsFile = join(dir, 'pids.txt');
  const healthFile = join(dir, 'health.txt');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^SVC_|^npm_/.test(k)) env[k] = v;
  Object.assign(env, { MODE: mode, PIDS_FILE: pidsFile, HEALTH_FILE: healthFile, npm_config_update_notifier: 'false', NO_COLOR: '1' }, extraEnv);
  const exec = spawn(process.execPath, [svcBin, 'emulator', 'exec', '--quiet', '--', 'npm', 'test'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  exec.stdout!.on('data', (c) => (stdout += c));
  exec.stderr!.on('data', (c) => (stderr += c));
  // 'exit', not 'close': a leftover that inherited exec's stderr would hold the pipe open forever.
  const exited = new Promise<number | string | null>((ok) => exec.once('exit', (code, signal) => ok(signal ?? code)));
  const done = closed(exec);
  let dataDir: string | undefined;
  const tree = () => (existsSync(pidsFile) ? readFileSync(pidsFile, 'utf8').trim().split('\n').map((l) => l.split(' ')) : []);
  try {
    const seen: string[] = [];
    const waiters: Array<() => void> = [];
    onLines(exec, (line) => (seen.push(line), waiters.forEach((w) => w())));
    /** The rest of the first line of the command's output that starts with `prefix`. */
    const line = (prefix: string) =>
      orAbort(
        new Promise<string>((ok, fail) => {
          const check = () => {
            const found = seen.find((l) => l.startsWith(prefix));
            if (found !== undefined) ok(found.slice(prefix.length));
          };
          waiters.push(check);
          check();
          exec.once('exit', (code) => fail(new Error(`exec exited (${code}) before "${prefix}"\nstdout: ${stdout}\nstderr: ${stderr}`)));
        }),
        abort,
      );
    // The runner prints this once both workers wrote their pids: the whole tree is up.
    dataDir = await line('tree ready ');
    if (mode === 'SIGINT' || mode === 'SIGTERM') exec.kill(mode);
    if (mode === 'SIGTERM twice') {
      exec.kill('SIGTERM');
      await line('runner ignores SIGTERM'); // the first one reached the runner, which ignored it
      exec.kill('SIGTERM');
    }
    const code = await orAbort(exited, abort);
    const members = tree();
    // npm, sh (unless it execs the runner), the runner and two workers.
    const kinds = members.map(([, kind]) => kind).filter((k) => k !== 'ancestor');
    assert.deepEqual(kinds.sort(), ['runner', 'worker', hasStubborn(mode) ? 'stubborn' : 'worker'].sort(), JSON.stringify(members));
    assert.ok(members.some(([, kind]) => kind === 'ancestor'), `npm is in the tree: ${JSON.stringify(members)}`);
    const left = members.filter(([pid]) => running(Number(pid)));
    assert.deepEqual(left, [], `nothing of the tree runs after exec exited (${mode})\nstderr: ${stderr}`);
    assert.equal(existsSync(dataDir), false, `exec's temporary data dir ${dataDir} is removed`);
    await orAbort(done, abort); // every byte of exec's output read
    return { code, stderr, members, health: existsSync(healthFile) ? readFileSync(healthFile, 'utf8').trim().split('\n') : [] };
  } finally {
    exec.kill('SIGKILL');
    // Whatever a failed assertion left: nothing outlives the test (never this process or exec).
    for (const pid of tree().map(([p]) => Number(p))) if (![process.pid, process.ppid, exec.pid].includes(pid) && running(pid)) process.kill(pid, 'SIGKILL');
    // exec removes its data dir itself (asserted above); not when it was killed here.
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const workersOf = (members: string[][]) => members.filter(([, kind]) => kind === 'worker').map(([pid]) => pid);

test('success: exec exits 0; workers left running get SIGTERM (one ignoring it gets SIGKILL) before the emulator stops', { skip: !linux && 'reads /proc' }, async (t) => {
  const r = await execTree('success', t.signal);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /svc emulator exec: 2 processes \(pid \d+, \d+\) the command started still running after it exited: sent SIGTERM/);
  assert.match(r.stderr, /svc emulator exec: 1 process \(pid \d+\) still running 5 s after SIGTERM: sent SIGKILL/);
  // The well-behaved worker asked the emulator for its health on SIGTERM: it still answered.
  assert.deepEqual(r.health, workersOf(r.members).map((pid) => `${pid} 200`));
});

test('failure: exec exits with the command\'s 3 and nothing of the tree is left', { skip: !linux && 'reads /proc' }, async (t) => {
  const r = await execTree('failure', t.signal);
  assert.equal(r.code, 3, r.stderr);
  assert.deepEqual(r.health.sort(), workersOf(r.members).map((pid) => `${pid} 200`).sort());
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} to exec reaches the whole group: npm, the runner and its workers all exit, then the emulator stops`, { skip: !linux && 'reads /proc' }, async (t) => {
    // SIGTERM: each worker takes 1.5 s more to exit, within the --stop-timeout (SVC_STOP_TIMEOUT)
    // that processes exec told to stop get; treated as leftovers, they would get a second SIGTERM.
    const r = await execTree(signal, t.signal, signal === 'SIGTERM' ? { LINGER_MS: '1500', SVC_STOP_TIMEOUT: '60s' } : {});
    assert.notEqual(r.code, 0, r.stderr);
    // No leftovers to reap: the signal itself ended every member.
    assert.doesNotMatch(r.stderr, /still running/);
    if (signal === 'SIGTERM') assert.deepEqual(r.health.sort(), workersOf(r.members).map((pid) => `${pid} 200`).sort(), 'each worker reached the emulator while exiting');
  });
}

test('a second SIGTERM to exec, while the command ignores the first, SIGKILLs the whole group at once', { skip: !linux && 'reads /proc' }, async (t) => {
  const r = await execTree('SIGTERM twice', t.signal);
  assert.notEqual(r.code, 0, r.stderr); // npm's own code for SIGTERM, or 137 if SIGKILL reached it first
  assert.match(r.stderr, /svc emulator exec: SIGTERM again: sent SIGKILL to the command's processes/);
  assert.doesNotMatch(r.stderr, /still running/, 'nothing was left for the reaper');
});
