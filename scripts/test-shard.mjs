// What every shared test process (a shard written by scripts/run-tests.mjs) runs its files
// through. Several test files share one process, so one file must not be able to hurt another:
// - a test or hook that hangs fails alone after TEST_TIMEOUT_MS, and the files after it still run
//   (node --test's --test-timeout only times the whole process out: node 20 does not pass it
//   on to the tests inside a file, so one hang cancelled every file of the shard);
// - a file that leaves process.env, the cwd or listeners on `process` changed fails, by name;
// - a shard whose tests are all done but that cannot exit (a server, socket, timer or child
//   left open) fails after a few seconds instead of waiting for the whole run's timeout.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const nodeTest = require('node:test');
const { after, before, describe } = nodeTest;

// The runner (run-tests.mjs) gives the limit in SVC_TEST_TIMEOUT_MS: a shard holds only files whose
// whole recorded work is short, so one test of theirs may take that many times longer on a busy
// machine before it is called hung. A test that needs longer says so itself (test(name, { timeout }, fn)).
export const TEST_TIMEOUT_MS = Number(process.env.SVC_TEST_TIMEOUT_MS) || 64_000;

/** test(name?, options?, fn?) with { timeout } added unless the options give one. */
function withTimeout(args) {
  const i = args.findIndex((a) => typeof a === 'object' && a !== null);
  if (i !== -1) return args[i].timeout === undefined ? [...args.slice(0, i), { ...args[i], timeout: TEST_TIMEOUT_MS }, ...args.slice(i + 1)] : args;
  const fn = args.findIndex((a) => typeof a === 'function');
  const at = fn === -1 ? args.length : fn;
  return [...args.slice(0, at), { timeout: TEST_TIMEOUT_MS }, ...args.slice(at)];
}

// node:test has no default timeout for the tests of a process it did not start as the runner,
// so the files' own imports are given functions that add one: `import { test } from
// 'node:test'` reads these bindings once syncBuiltinESMExports() has copied them over. A
// describe() is left alone (its timeout would time the whole suite); its tests get the default.
const timed = (fn) => new Proxy(fn, { apply: (target, self, args) => Reflect.apply(target, self, withTimeout(args)) });
const timedHook = (hook) => new Proxy(hook, { apply: (target, self, [fn, options]) => Reflect.apply(target, self, [fn, { timeout: TEST_TIMEOUT_MS, ...options }]) });
nodeTest.test = timed(nodeTest.test);
nodeTest.it = timed(nodeTest.it);
for (const name of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[name] = timedHook(nodeTest[name]);
syncBuiltinESMExports();

/** What one file may change for the others in its process. */
function processState() {
  return {
    env: { ...process.env },
    cwd: process.cwd(),
    listeners: new Map(process.eventNames().map((e) => [String(e), process.listenerCount(e)])),
  };
}

/** What differs, named (values are left out: an env var may hold a key). */
function changes(a, b) {
  const out = [];
  for (const k of new Set([...Object.keys(a.env), ...Object.keys(b.env)])) if (a.env[k] !== b.env[k]) out.push(`process.env.${k} ${!(k in a.env) ? 'added' : !(k in b.env) ? 'removed' : 'changed'}`);
  if (a.cwd !== b.cwd) out.push(`cwd changed from ${a.cwd} to ${b.cwd}`);
  for (const e of new Set([...a.listeners.keys(), ...b.listeners.keys()])) {
    const [was, is] = [a.listeners.get(e) ?? 0, b.listeners.get(e) ?? 0];
    if (was !== is) out.push(`process '${e}' listeners ${was} → ${is}`);
  }
  return out;
}

/**
 * Runs one test file inside a describe() named after it: its top-level tests and hooks belong
 * to that suite, so its before/after hooks run around its own tests only. The state is taken
 * before its first hook and compared after its last (the file's own after hooks restore first).
 */
export function runFile(name, load) {
  describe(name, async () => {
    let start;
    before(() => {
      start = processState();
    });
    await load();
    after(() => {
      if (start === undefined) return; // nothing of the file ran
      const changed = changes(start, processState());
      if (changed.length > 0) throw new Error(`${name} leaves process-wide state changed for the files after it: ${changed.join('; ')}. Restore it in the file's after hooks.`);
    });
  });
}

// SVC_TEST_EXIT_GRACE_MS may shorten the wait for the process to exit by itself (the runner's own tests).
const EXIT_GRACE_MS = Math.min(Number(process.env.SVC_TEST_EXIT_GRACE_MS) || 10_000, 10_000);

/** After the shard's last test: a process that does not exit by itself soon is ended, failed. */
export function exitGuard(files, graceMs = EXIT_GRACE_MS) {
  after(() => {
    setTimeout(() => {
      const open = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'TTYWrap');
      console.error(`every test of this shard finished, but something keeps the process alive ${graceMs / 1000} s later (${open.join(', ') || 'timers'}): a server, socket, child process or timer one of ${files.join(', ')} left open. Ending it.`);
      process.exit(1);
    }, graceMs).unref();
  });
}
