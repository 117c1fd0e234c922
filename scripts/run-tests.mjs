// Runs every compiled test file (dist/test/**/*.test.js) with node:test, in processes this script
// starts, times and cleans up itself. Node 20's --test takes no glob, and its --test-timeout is
// one number for every process: a 70 s browser file and a shard of 1 s files got the same 120 s,
// and on a busy machine all of them were killed at exactly that mark, one leaving an emulator
// behind. Here every process gets a limit that scales with what it holds, runs in a process group
// of its own, and whatever it started is gone when it ends, however it ends.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleBuild } from './lib/build-stamp.mjs';

// The shard harness is this script's neighbour, also when SVC_TEST_PROJECT points elsewhere.
const scriptDir = fileURLToPath(new URL('.', import.meta.url));

// SVC_TEST_PROJECT: another project dir (its dist/test and test), for the runner's own test.
const project = process.env.SVC_TEST_PROJECT ?? new URL('..', import.meta.url).pathname;
// The tests run the build the package ships, made from the sources as they are now: never a
// partial one (npm start's CLI bundle) nor one older than an edit (scripts/lib/build-stamp.mjs).
const stale = process.env.SVC_TEST_PROJECT ? undefined : staleBuild();
if (stale) {
  console.error(`run-tests: ${stale}: run \`npm test\` (it builds first), or \`npm run build\` and then this again`);
  process.exit(1);
}
const root = join(project, 'dist/test');
const sources = join(project, 'test');
// tsc never deletes outputs: a compiled test whose source was removed or renamed is stale.
const hasSource = (compiled) => existsSync(sources + compiled.slice(root.length).replace(/\.js$/, '.ts'));
// Filters match the path under dist/test (`cli/`, `http/request`), never the folders above it:
// matched against the absolute path, "dist" or the project's own folder name selected everything.
const filter = process.argv.slice(2);
const selected = (path) => filter.length === 0 || filter.some((f) => relative(root, path).includes(f));
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === '.shards') continue;
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.js') && hasSource(path) && selected(path)) files.push(relative(root, path));
  }
})(root);
if (files.length === 0) {
  console.error(`no test files found under dist/test${filter.length ? ` matching ${filter.join(' or ')}` : ''}`);
  process.exit(1);
}

// test/durations.json: each file's duration (ms) as recorded by `SVC_TEST_RECORD=1 npm test` (the
// file in the repository was recorded on a 2-CPU machine that was itself busy, so it overstates,
// which only makes the limits below more generous). A file it does not list yet (a new one) is
// taken as an average short file.
const DURATIONS = join(sources, 'durations.json');
const recorded = existsSync(DURATIONS) ? JSON.parse(readFileSync(DURATIONS, 'utf8')) : {};
const UNKNOWN_MS = 3_000;
const expected = (file) => recorded[file] ?? UNKNOWN_MS;

// Long files (browsers, the packed tarball, crash tests, the example suites) run in processes of
// their own and start first, longest first: started last, they would run on alone at the end
// while the other CPU sits idle. The rest share processes of about SHARD_MS of recorded work each
// (a process costs ~0.8 s of CPU before its first test: node, ~400 modules, the validators).
const SOLO_MS = 8_000;
const SHARD_MS = 25_000;
const MIN_SHARDS = 6;
// A process may take LIMIT_FACTOR times its recorded work before it is killed (two CPU-bound
// processes beside the suite slow it ~2-3x on 2 CPUs), and never less than MIN_LIMIT_MS.
// A test inside a shard times out alone after TEST_LIMIT_MS: it belongs to a file whose whole
// recorded work is under SOLO_MS, so that is the same factor over the longest such file.
const LIMIT_FACTOR = 8;
const MIN_LIMIT_MS = Number(process.env.SVC_TEST_MIN_LIMIT_MS) || 60_000;
const TEST_LIMIT_MS = Number(process.env.SVC_TEST_TIMEOUT_MS) || SOLO_MS * LIMIT_FACTOR;
const CONCURRENCY = Number(process.env.SVC_TEST_CONCURRENCY) || 2;

const solo = files.filter((f) => expected(f) >= SOLO_MS).map((f) => ({ name: f, files: [f], path: join(root, f), work: expected(f) }));
const shared = files.filter((f) => expected(f) < SOLO_MS);

// Shards: longest file first onto the least loaded shard (ties to the first), so each shard holds
// about the same recorded work; with no durations recorded this is round-robin over the sorted list.
const shardDir = join(root, '.shards');
rmSync(shardDir, { recursive: true, force: true });
const count = Math.min(shared.length, Math.max(MIN_SHARDS, Math.ceil(shared.reduce((s, f) => s + expected(f), 0) / SHARD_MS)));
const groups = Array.from({ length: count }, () => ({ files: [], work: 0 }));
for (const f of [...shared].sort((a, b) => expected(b) - expected(a))) {
  const g = groups.reduce((least, g) => (g.work < least.work ? g : least));
  g.files.push(f);
  g.work += expected(f);
}
if (count > 0) mkdirSync(shardDir, { recursive: true });
const harness = pathToFileURL(join(scriptDir, 'test-shard.mjs')).href;
const shards = groups.map((g, i) => {
  const path = join(shardDir, `shard-${i + 1}.test.mjs`);
  const names = [...g.files].sort();
  const lines = names.map((n) => `runFile(${JSON.stringify(n)}, () => import(${JSON.stringify('../' + n)}));`);
  writeFileSync(path, `// Generated by scripts/run-tests.mjs: these test files share one process.\nimport { exitGuard, runFile } from ${JSON.stringify(harness)};\nexitGuard(${JSON.stringify(names)});\n${lines.join('\n')}\n`);
  return { name: `shard ${i + 1} (${names.length} files)`, files: names, path, work: g.work, shard: true };
});
const processes = [...solo.sort((a, b) => b.work - a.work), ...shards];

// SVC_TEST_ARGS: more `node --test` flags (another reporter), after ours so they win.
const extra = process.env.SVC_TEST_ARGS ? process.env.SVC_TEST_ARGS.split(' ').filter(Boolean) : [];
// Every temporary file and folder the tests make lands in one folder per run (os.tmpdir() reads
// TMPDIR), removed at the end, pass or fail. SVC_TEST_KEEP_TMP=1 keeps it and says where.
const runTmp = mkdtempSync(join(tmpdir(), 'svc-tests-'));
const runTag = `${process.pid}-${Date.now()}`;
const removeRunTmp = () => {
  if (process.env.SVC_TEST_KEEP_TMP) console.error(`run-tests: temporary files kept in ${runTmp}`);
  else rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
};

function signalGroup(group, signal) {
  try { process.kill(-group, signal); } catch { /* ESRCH: the group is already empty. */ }
}

/** Whether a process still runs (a zombie, dead but not yet reaped by its parent, does not). */
function runs(pid) {
  try { return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
}

/**
 * Kills every process a test process left: its process group, and any process anywhere that
 * carries its SVC_TEST_PROCESS mark (a test's own detached child sits in a group of its own).
 * Returns once they are gone (a kill is delivered when its target next runs: on a busy machine,
 * not at once), giving up after 10 s.
 */
function sweep(group, mark) {
  signalGroup(group, 'SIGKILL');
  if (process.platform !== 'linux') return;
  const needle = Buffer.from(`\0SVC_TEST_PROCESS=${mark}\0`);
  const killed = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${pid}/environ`)]).includes(needle)) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (const giveUp = Date.now() + 10_000; killed.some(runs) && Date.now() < giveUp; ) Atomics.wait(tick, 0, 0, 20);
}

// The test processes lead groups of their own, so a Ctrl-C (or CI cancelling the job) reaches only
// this script: it ends them, and what they started, before it goes.
const running = new Map();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const [pid, mark] of running) sweep(pid, mark);
    removeRunTmp();
    process.exit(130);
  });
}

/** Runs one process to its end (or its limit); resolves with what the summary needs. */
function runProcess(p, index) {
  const limit = Math.max(MIN_LIMIT_MS, p.work * LIMIT_FACTOR);
  const mark = `${runTag}-${index}`;
  const started = Date.now();
  const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...extra, p.path], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: runTmp, SVC_TEST_PROCESS: mark, SVC_TEST_TIMEOUT_MS: String(TEST_LIMIT_MS) },
  });
  running.set(child.pid, mark);
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => out.push(c));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    signalGroup(child.pid, 'SIGTERM');
    setTimeout(() => sweep(child.pid, mark), 5_000).unref();
  }, limit);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid);
      sweep(child.pid, mark);
      const ms = Date.now() - started;
      const text = Buffer.concat(out).toString('utf8');
      // Node 22 reports a suite's failed after hook (`failureType: 'hookFailed'`) yet exits 0
      // when every test passed (20 and 24 exit 1), so a failed hook fails the process here.
      const hookFailed = code === 0 && /^\s*failureType: 'hookFailed'$/m.test(text);
      let verdict = code === 0 && !hookFailed ? 'ok' : `failed (${hookFailed ? 'a hook failed, exit 0' : `exit ${code ?? signal}`})`;
      if (killed) verdict = `KILLED after ${(limit / 1000).toFixed(0)} s, its limit (${LIMIT_FACTOR} x its recorded ${(p.work / 1000).toFixed(1)} s, at least ${MIN_LIMIT_MS / 1000} s); anything it started was killed with it`;
      process.stdout.write(`\n# ── ${p.name}: ${verdict}, ${(ms / 1000).toFixed(1)} s ──\n${text}`);
      resolve({ p, ok: code === 0 && !hookFailed && !killed, ms, text, verdict });
    });
  });
}

/** Each file's outcome and duration: a shard reports its files as top-level tests (one cut off by its limit reports nothing); a solo file is its process. */
function filesOf({ p, ok, ms, text }) {
  if (!p.shard) return [{ file: p.files[0], ok, ms }];
  return [...text.matchAll(/^(not )?ok \d+ - (\S+\.test\.js)\n {2}---\n {2}duration_ms: ([\d.]+)/gm)].map((m) => ({ file: m[2], ok: !m[1], ms: Math.round(Number(m[3])) }));
}

const totals = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
const results = [];
try {
  const queue = processes.map((p, i) => () => runProcess(p, i));
  const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) results.push(await next());
  });
  await Promise.all(workers);
} finally {
  removeRunTmp();
}
for (const r of results) for (const key of Object.keys(totals)) totals[key] += Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(r.text)?.[1] ?? 0);
const reports = results.flatMap(filesOf);
if (process.env.SVC_TEST_RECORD) {
  const all = Object.fromEntries(Object.entries({ ...recorded, ...Object.fromEntries(reports.map((f) => [f.file, f.ms])) }).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS, JSON.stringify(all, null, 2) + '\n');
  console.log(`run-tests: durations of ${Object.keys(all).length} files written to ${relative(project, DURATIONS)}`);
}
// A failed process's files that did not pass, named and counted (a process killed at its limit
// prints no totals); a shard that failed once all its files passed (it could not exit) names them all.
const passed = new Set(reports.filter((f) => f.ok).map((f) => f.file));
const failed = results.filter((r) => !r.ok).map((r) => ({ ...r, names: r.p.files.filter((f) => !passed.has(f)) }));
for (const r of failed) if (r.names.length === 0) r.names = r.p.files;
console.log(`\n# ${Object.entries(totals).map(([k, v]) => `${k} ${v}`).join(', ')}; ${processes.length} processes; ${failed.flatMap((r) => r.names).length} of ${files.length} files failed`);
for (const r of failed) console.log(`# FAILED ${r.names.join(', ')}: ${r.verdict}${r.p.shard ? ` [${r.p.name}]` : ''}`);
process.exit(failed.length === 0 ? 0 : 1);
