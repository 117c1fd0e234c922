import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHome, target } from './cli.js';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { startSvc } from '../helpers/svc-process.js';

// `svc emulator reset | snapshot | stop | exec | fixtures validate` against a real `svc
// emulator start` process. The commands run in-process, except exec and start: they own the
// process they run in, so they run as the built binary.

const home = cliHome();

async function emulatorProcess() {
  const dataDir = tempDir('svc-world-');
  const proc = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
  const base = proc.ready.base_url;
  const svc = (args: string[]) => home.run([...args, ...target(base, KEYS.acmeTest)]);
  return { proc, base, dataDir, svc };
}

async function createLink(svc: (a: string[]) => Promise<{ code: number | null; json(): any; stderr: string }>) {
  const r = await svc(['links', 'create', '--amount', '500', '--currency', 'USD', '--title', 'Beans', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return r.json().id as string;
}

test('reset, snapshot save/list/restore, then stop: waits for the exit, the lock is released', async () => {
  const { proc, dataDir, svc } = await emulatorProcess();
  try {
    const first = await createLink(svc);
    const saved = await svc(['emulator', 'snapshot', 'save', 'one-link', '--json']);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(saved.json().name, 'one-link');
    assert.ok(existsSync(join(dataDir, 'snapshots', 'one-link.json')));
    const second = await createLink(svc);

    const list = await svc(['emulator', 'snapshot', 'list', '--json']);
    assert.deepEqual(list.json().snapshots.map((s: { name: string }) => s.name), ['one-link']);

    assert.equal((await svc(['emulator', 'reset'])).code, 0);
    assert.equal((await svc(['links', 'get', first, '--json'])).code, 1, 'gone after the reset');

    const restored = await svc(['emulator', 'snapshot', 'restore', 'one-link']);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /Snapshot "one-link" restored/);
    assert.equal((await svc(['links', 'get', first, '--json'])).code, 0);
    assert.equal((await svc(['links', 'get', second, '--json'])).code, 1, 'made after the snapshot');

    const stopped = await svc(['emulator', 'stop', '--json']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.equal(stopped.json().stopped, true);
    // `stop` returned only once nobody answered: the process has exited (or is closing its pipes).
    assert.equal(await proc.done, 0);
    assert.equal(existsSync(join(dataDir, 'store.lock')), false);
    assert.equal(existsSync(join(dataDir, 'emulator.json')), false);
  } finally {
    // Stopped by `svc emulator stop` above; a failed step must not leave it running.
    proc.child.kill('SIGKILL');
  }
});

test('snapshot names are checked before anything is sent; an unknown one is a 404 and changes nothing', async () => {
  const { proc, svc } = await emulatorProcess();
  try {
    const bad = await svc(['emulator', 'snapshot', 'save', '../escape']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /snapshot name "\.\.\/escape" must be 1–64 letters/);
    const kept = await createLink(svc);
    const missing = await svc(['emulator', 'snapshot', 'restore', 'never-saved']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No snapshot named "never-saved"/);
    assert.equal((await svc(['links', 'get', kept, '--json'])).code, 0);
  } finally {
    proc.child.kill('SIGTERM');
    await proc.done;
  }
});

test('exec: the command gets the emulator in its environment and exec exits with its code; nothing is left behind', async () => {
  const cwd = tempDir('svc-exec-');
  const script = join(cwd, 'probe.mjs');
  writeFileSync(
    script,
    `const r = await fetch(process.env.SVC_BASE_URL + '/v1/api/payment-links', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ title: 'x', amount: 100, currency: 'USD' }) });
     console.log(JSON.stringify({ status: r.status, live: process.env.SVC_LIVE_API_KEY.slice(0, 9), checkout: process.env.SVC_CHECKOUT_URL, dir: process.env.SVC_DATA_DIR }));
     process.exit(3);`,
  );
  // Binary: exec owns its process (the command inherits its stdio; exec exits with its code).
  const r = await home.run(['emulator', 'exec', '--', process.execPath, script], { cwd, binary: true });
  assert.equal(r.code, 3, r.stderr);
  const seen = JSON.parse(r.stdout);
  assert.equal(seen.status, 201);
  assert.equal(seen.live, 'svc_live_');
  assert.match(seen.checkout, /^http:\/\/127\.0\.0\.1:\d+\/checkout$/);
  assert.equal(existsSync(seen.dir), false, 'the temporary data dir is removed');
});

test('exec: a command that cannot run is exit 127 with its name; the emulator is stopped', async () => {
  // Binary: exec owns its process (it exits with 127 itself).
  const r = await home.run(['emulator', 'exec', '--', 'svc-no-such-command-here'], { binary: true });
  assert.equal(r.code, 127);
  assert.match(r.stderr, /cannot run "svc-no-such-command-here": no such command/);
});

test('exec --export-on-exit writes the world; start --import starts from it', async () => {
  const out = join(tempDir('svc-export-'), 'world');
  const cwd = tempDir('svc-exec-');
  const script = join(cwd, 'make.mjs');
  writeFileSync(
    script,
    `const r = await fetch(process.env.SVC_BASE_URL + '/v1/api/payment-links', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ title: 'kept', amount: 100, currency: 'USD' }) });
     console.log((await r.json()).data.id);`,
  );
  // Binary: exec owns its process (the command inherits its stdio; exec exits with its code).
  const r = await home.run(['emulator', 'exec', '--export-on-exit', out, '--', process.execPath, script], { cwd, binary: true });
  assert.equal(r.code, 0, r.stderr);
  const id = r.stdout.trim();
  assert.ok(JSON.parse(readFileSync(join(out, 'world.json'), 'utf8')).collections.payment_links.some((l: { id: string }) => l.id === id));

  const proc = await startSvc(['--port', '0', '--data-dir', tempDir('svc-import-'), '--quiet', '--import', out]);
  try {
    const got = await home.run(['links', 'get', id, '--json', ...target(proc.ready.base_url, KEYS.acmeTest)]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.json().title, 'kept');
  } finally {
    proc.child.kill('SIGTERM');
    await proc.done;
  }
});

const KEY_SHAPED = 'svc_live_abcdefghijklmnopqrstuvwx123456';

test('exec --export-on-exit that cannot write: exit 1 after the command passed, saying why, with a key-shaped name in the path masked', async () => {
  const cwd = tempDir('svc-exec-');
  writeFileSync(join(cwd, KEY_SHAPED), ''); // a file where the folder should be: mkdir fails with ENOTDIR, quoting the path
  const r = await home.run(['emulator', 'exec', '--export-on-exit', join(KEY_SHAPED, 'out'), '--', process.execPath, '-e', '0'], { cwd, binary: true });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /--export-on-exit failed: ENOTDIR/);
  assert.ok(!r.stderr.includes(KEY_SHAPED), r.stderr);
});

test('start --import of a folder without a world is exit 2 naming the file, and leaves no lock', async () => {
  const dataDir = tempDir('svc-import-');
  const missing = join(tempDir('svc-export-'), 'nothing');
  mkdirSync(missing);
  // Binary: start owns its process (signal handlers, process.exit); a refused start must leave it cleanly.
  const r = await home.run(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--import', missing], { binary: true });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--import: cannot read .*world\.json \(ENOENT\)/);
  assert.equal(existsSync(join(dataDir, 'store.lock')), false);
});

test('fixtures validate: the bundled file passes; a bad field is named by its path, exit 2', async () => {
  const ok = await home.run(['emulator', 'fixtures', 'validate', new URL('../../../fixtures/default.json', import.meta.url).pathname, '--json']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json().valid, true);
  assert.ok(ok.json().keys >= 5);

  const dir = tempDir('svc-fixtures-');
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ merchants: [{ id: 'm1', name: 'M', business: true, owner_phone: '+1', owner_pin: '12', keys: [{ name: 'k', key: 'nope', environment: 'test', scopes: 'all' }] }], users: [] }));
  const r = await home.run(['emulator', 'fixtures', 'validate', bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /merchants\[0\]\.owner_pin/);
  assert.match(r.stderr, /merchants\[0\]\.keys\[0\]\.key: must look like svc_test_/);

  const dup = join(dir, 'dup.json');
  const fixtures = JSON.parse(readFileSync(new URL('../../../fixtures/default.json', import.meta.url), 'utf8'));
  fixtures.merchants.push(fixtures.merchants[0]);
  writeFileSync(dup, JSON.stringify(fixtures));
  const d = await home.run(['emulator', 'fixtures', 'validate', dup]);
  assert.equal(d.code, 2);
  assert.match(d.stderr, /merchants\[2\]\.id: the same merchant id "mer_acme" as merchants\[0\]\.id/);
});

test('discovery walks up from a subfolder to the project’s .svc; SVC_DATA_DIR points elsewhere; a miss names both', async () => {
  const project = tempDir('svc-project-');
  const deep = join(project, 'apps', 'shop', 'src');
  mkdirSync(deep, { recursive: true });
  const proc = await startSvc(['--port', '0', '--data-dir', join(project, '.svc'), '--quiet']);
  try {
    const found = await home.run(['links', 'create', '--amount', '500', '--currency', 'USD', '--title', 'Found', '--json'], { cwd: deep });
    assert.equal(found.code, 0, found.stderr);
    assert.equal(found.json().title, 'Found');

    const elsewhere = tempDir('svc-elsewhere-');
    const viaEnv = await home.run(['emulator', 'status', '--json'], { cwd: elsewhere, env: { SVC_DATA_DIR: join(project, '.svc') } });
    assert.equal(viaEnv.code, 0, viaEnv.stderr);

    const missing = await home.run(['emulator', 'status'], { cwd: elsewhere });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No running emulator was found at \.svc\/emulator\.json in .*svc-elsewhere-\w+ or any folder above it \(or set SVC_DATA_DIR/);
    const wrongEnv = await home.run(['emulator', 'status'], { cwd: deep, env: { SVC_DATA_DIR: elsewhere } });
    assert.equal(wrongEnv.code, 2, 'SVC_DATA_DIR wins over the walk up');
    assert.match(wrongEnv.stderr, /No running emulator was found at SVC_DATA_DIR \(.*svc-elsewhere-\w+\/emulator\.json\)/);
  } finally {
    proc.child.kill('SIGTERM');
    await proc.done;
  }
});
