import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { idem, request, tempDir } from '../helpers/emulator.js';
import { svcBin, svcProcesses, type SvcProcess } from '../helpers/svc-process.js';
import { spawn } from 'node:child_process';

// The data dir holds every key, webhook secret and the control token: it is 0700 and every
// file in it 0600, whatever the umask (issue 38). Real `svc emulator start` processes under
// umask 022 and 000, after writes, a delivery, a saved snapshot, a compaction and the request
// log; a data dir an older svc left readable (by others, or by the group only) is tightened at
// start, with one line; and exec --export-on-exit makes its folders private too.

/** Every file and folder under `dir` (itself included) with its permission bits. */
function modes(dir: string): Array<[string, number, 'dir' | 'file']> {
  const out: Array<[string, number, 'dir' | 'file']> = [];
  const walk = (path: string) => {
    const st = lstatSync(path);
    out.push([path.slice(dir.length) || '/', st.mode & 0o777, st.isDirectory() ? 'dir' : 'file']);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out;
}

function assertPrivate(dir: string, what: string): void {
  const all = modes(dir);
  const loose = all.filter(([, mode, kind]) => mode !== (kind === 'dir' ? 0o700 : 0o600));
  assert.deepEqual(loose.map(([p, m, k]) => `${k} ${p} ${m.toString(8)}`), [], `${what}: every folder 0700, every file 0600`);
  const names = all.map(([p]) => p);
  for (const expected of ['/snapshot.ndjson', '/snapshots/before.json', '/.gitignore']) assert.ok(names.includes(expected), `${what}: ${expected} among ${names.join(' ')}`);
  assert.ok(names.some((p) => /^\/journal-\d+\.ndjson$/.test(p)), `${what}: a journal segment`);
  assert.ok(names.some((p) => p.startsWith('/request-log/')), `${what}: the request log`);
}

/** A webhook receiver on loopback that answers 200. */
async function hookServer() {
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => (server.closeAllConnections(), server.close()),
  };
}

/** `svc emulator start` under `umask`. */
const underUmask = (umask: string) => ({ wrap: (command: string, args: string[]): [string, string[]] => ['sh', ['-c', `umask ${umask} && exec "$0" "$@"`, command, ...args]] });

async function busyRun(svc: SvcProcess, hookUrl: string): Promise<void> {
  const base = svc.ready.base_url;
  const ep = await request(base, 'POST', '/v1/api/webhook-endpoints', { body: { url: hookUrl, events: ['payment.completed'] } });
  assert.equal(ep.status, 201, ep.text);
  const link = await request(base, 'POST', '/v1/api/payment-links', { idempotencyKey: idem('modes'), body: { title: 'Modes', amount: 100, currency: 'USD' } });
  assert.equal(link.status, 201, link.text);
  const paid = await request(base, 'POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed', method: 'card' } });
  assert.equal(paid.status, 201, paid.text);
  const delivered = await request(base, 'POST', '/_emulator/clock/advance-to-next-delivery', { key: null, body: {} });
  assert.equal(delivered.status, 200, delivered.text);
  assert.equal(delivered.json.data.deliveries.length, 1);
  const saved = await request(base, 'POST', '/_emulator/snapshots', { key: null, body: { name: 'before' } });
  assert.equal(saved.status, 201, saved.text);
  const compacted = await request(base, 'POST', '/_emulator/store/compact', { key: null });
  assert.equal(compacted.status, 200, compacted.text);
}

for (const umask of ['022', '000']) {
  test(`under umask ${umask}, every file under the data dir is 0600 and every folder 0700 after writes, a delivery, a snapshot and a compaction`, { timeout: 60_000 }, async (t) => {
    const root = tempDir('svc-modes-');
    const dataDir = join(root, 'data');
    const procs = svcProcesses(t.signal);
    const hook = await hookServer();
    try {
      const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual'], undefined, underUmask(umask));
      await busyRun(svc, hook.url);
      assertPrivate(dataDir, 'while it runs (emulator.json and store.lock included)');
      assert.ok(modes(dataDir).some(([p]) => p === '/emulator.json') && modes(dataDir).some(([p]) => p === '/store.lock'));
      svc.child.kill('SIGTERM');
      assert.equal(await svc.done, 0);
      assertPrivate(dataDir, 'after a stop');
    } finally {
      await procs.end();
      hook.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}

// Readable by everyone, or by the group only (issue 46: 0640/0750 was not tested, so a check of
// the "other" bits alone would have passed).
for (const [file, dir] of [[0o644, 0o755], [0o640, 0o750]] as const) {
  test(`a data dir an older svc left readable (${file.toString(8).padStart(4, '0')} files, ${dir.toString(8).padStart(4, '0')} folders) is made private at start, with one line saying so; a fresh empty volume silently`, { timeout: 60_000 }, async (t) => {
    const root = tempDir('svc-modes-old-');
    const dataDir = join(root, '.svc');
    const procs = svcProcesses(t.signal);
    const hook = await hookServer();
    try {
      const args = ['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual'];
      const first = await procs.start(args);
      await busyRun(first, hook.url);
      first.child.kill('SIGKILL'); // emulator.json and store.lock stay behind, as after a crash
      await first.done;
      // What an older svc left: everything readable by others.
      for (const [path, , kind] of modes(dataDir)) chmodSync(join(dataDir, path), kind === 'dir' ? dir : file);
      const loosened = modes(dataDir).length;

      const second = await procs.start(args);
      const lines = second.stderr().split('\n').filter((l) => /private/.test(l));
      assert.equal(lines.length, 1, second.stderr());
      assert.match(lines[0]!, new RegExp(`^warning: ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: made ${loosened} file\\(s\\) and folder\\(s\\) private \\(files 0600, folders 0700\\)`));
      assertPrivate(dataDir, 'after the start');
      second.child.kill('SIGTERM');
      assert.equal(await second.done, 0);

      // A dir already private: nothing to say.
      const third = await procs.start(args);
      assert.doesNotMatch(third.stderr(), /private/);
      third.child.kill('SIGTERM');
      await third.done;

      // A fresh volume: an empty folder made 0755 by someone else (Docker, from the image's /data).
      // No older svc left anything there: made private, without that line.
      const volume = join(root, 'volume');
      mkdirSync(volume, { mode: 0o755 });
      chmodSync(volume, 0o755);
      const fresh = await procs.start(['--port', '0', '--data-dir', volume, '--quiet', '--clock', 'manual']);
      assert.doesNotMatch(fresh.stderr(), /older svc|private/, fresh.stderr());
      assert.equal(lstatSync(volume).mode & 0o777, 0o700);
      fresh.child.kill('SIGTERM');
      assert.equal(await fresh.done, 0);
    } finally {
      await procs.end();
      hook.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test('exec --export-on-exit under umask 000: the folders it makes are 0700 and the world file 0600; a folder that was there keeps its modes', { timeout: 60_000 }, async () => {
  const root = tempDir('svc-modes-export-');
  try {
    chmodSync(root, 0o755);
    const out = join(root, 'made', 'for', 'it');
    const child = spawn('sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, svcBin, 'emulator', 'exec', '--export-on-exit', out, '--', process.execPath, '-e', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((ok) => child.once('close', ok));
    assert.equal(code, 0, stderr);
    const mode = (p: string) => lstatSync(p).mode & 0o777;
    for (const dir of [join(root, 'made'), join(root, 'made', 'for'), out]) assert.equal(mode(dir).toString(8), '700', dir);
    assert.equal(mode(join(out, 'world.json')).toString(8), '600');
    assert.equal(mode(root).toString(8), '755', 'the folder that was there is the user\'s');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
