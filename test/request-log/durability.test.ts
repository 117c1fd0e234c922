import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idem, request, startTestEmulator, tempDir } from '../helpers/emulator.js';
import { svcProcesses, type SvcProcess, type SvcProcesses } from '../helpers/svc-process.js';

// The request log on disk (emulator/request-log/log.ts, docs/spec-gaps.md row 190): its
// entries are diagnostics written in batches beside the store. A kill -9 may lose the newest
// ones, never a store write; a disk that refuses the log's files costs no answer and is
// reported; a torn or damaged file still loads; a reset's log never comes back.

const LOG_DIR = 'request-log';
const post = (base: string, trace: string) => request(base, 'POST', '/v1/api/payment-links', { body: { title: `log ${trace}`, amount: 500 }, idempotencyKey: idem(), headers: { 'x-trace-id': trace } });

async function control(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}/_emulator${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json: any = await res.json();
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

/** Every entry of the log, newest first, through the control API's paging. */
async function allEntries(base: string): Promise<any[]> {
  const out: any[] = [];
  let before: string | null = null;
  for (;;) {
    const page: any = await control(base, 'GET', `/requests?limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    out.push(...page.requests);
    if (page.requests.length < 100) return out;
    before = page.next_before;
  }
}

/** A fresh data dir and the test's emulator processes, both cleaned up however the test ends. */
async function inDataDir(t: TestContext, prefix: string, body: (dataDir: string, procs: SvcProcesses) => Promise<void>): Promise<void> {
  const dataDir = tempDir(prefix);
  const procs = svcProcesses(t.signal);
  try {
    await body(dataDir, procs);
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}-faults`, { force: true });
  }
}

async function stopCleanly(svc: SvcProcess): Promise<void> {
  svc.child.kill('SIGTERM');
  assert.equal(await svc.done, 0);
}

const logStatus = async (base: string) => (await control(base, 'GET', '/metrics')).request_log as { entries: number; unwritten: number; write_error: string | null };
const count = (text: string, needle: string) => text.split(needle).length - 1;

test('kill -9 under load: every acknowledged write is kept; the log loads and lost only its newest entries', (t) =>
  inDataDir(t, 'svc-log-kill-', async (dataDir, procs) => {
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    const base = svc.ready.base_url;
    const acked = new Map<string, { id: string; created_at: string }>();
    for (let i = 0; i < 30; i++) {
      const res = await post(base, `trc-before-${i}`);
      assert.equal(res.status, 201, res.text);
      acked.set(`trc-before-${i}`, res.json.data);
    }
    // Everything to disk now (the compaction writes the log's waiting entries too).
    await control(base, 'POST', '/store/compact');
    assert.equal((await logStatus(base)).unwritten, 0);

    // Eight clients post until 300 answers are in, and the process is killed with requests in flight.
    let answered = 0;
    let killed = false;
    const client = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const trace = `trc-load-${w}-${i}`;
        try {
          const res = await post(base, trace);
          if (res.status === 201) acked.set(trace, res.json.data);
        } catch {
          return; // the connection died with the process
        }
        if (++answered === 300) {
          killed = true;
          svc.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => client(w)));
    assert.equal(await svc.done, 'SIGKILL');

    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    const base2 = again.ready.base_url;
    // The log (read first: the checks below are requests too): readable, everything written
    // before the compaction, and a prefix of what came after: every request answered before the
    // newest logged one is logged (answer order is the order of the links' created_at, taken
    // from the same clock stamps as the entries').
    const entries = await allEntries(base2);
    // The store: every acknowledged link.
    for (const [trace, link] of acked) assert.equal((await request(base2, 'GET', `/v1/api/payment-links/${link.id}`)).status, 200, `acknowledged ${trace} is missing`);
    const logged = new Set(entries.map((e) => e.trace_id));
    for (let i = 0; i < 30; i++) assert.ok(logged.has(`trc-before-${i}`), `trc-before-${i} was written before the kill and is missing`);
    for (const e of entries) assert.equal(e.status, 201, JSON.stringify(e));
    const newest = entries.filter((e) => e.trace_id.startsWith('trc-load-')).reduce((a, e) => (a === null || e.at > a.at ? e : a), null as any);
    if (newest !== null) {
      const cutoff = acked.get(newest.trace_id)!.created_at;
      for (const [trace, link] of acked) if (link.created_at <= cutoff) assert.ok(logged.has(trace), `${trace} was answered before ${newest.trace_id}, which is logged, but is missing: a hole, not a lost tail`);
    }
    // Bounded: at most one batch waiting to be written (256) and one waiting to be made (128).
    const lost = [...acked.keys()].filter((trace) => !logged.has(trace)).length;
    assert.ok(lost <= 384, `${lost} entries lost`);
    assert.doesNotMatch(again.stderr(), /damaged/);
    await stopCleanly(again);
  }),
);

test("the disk refuses the log's files: answers and store writes go on, the failure is reported once, the entries are written when it takes them again; a kill -9 meanwhile loses only them", (t) =>
  inDataDir(t, 'svc-log-enospc-', async (dataDir, procs) => {
    const faults = `${dataDir}-faults`;
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off'], { SVC_TEST_STORE_FAULTS: faults });
    const base = svc.ready.base_url;
    const links = new Map<string, string>();
    const keep = async (trace: string) => {
      const res = await post(base, trace);
      assert.equal(res.status, 201, res.text);
      links.set(trace, res.json.data.id);
    };
    for (let i = 0; i < 5; i++) await keep(`trc-ok-${i}`);
    await control(base, 'POST', '/store/compact');

    // Only the request log's files refuse (the rule names their folder): the store still takes writes.
    writeFileSync(faults, `write ENOSPC ${LOG_DIR}/\n`);
    for (let i = 0; i < 5; i++) await keep(`trc-full-${i}`);
    for (let i = 0; i < 10; i++) assert.equal((await request(base, 'GET', '/v1/api/payments', { headers: { 'x-trace-id': `trc-full-get-${i}` } })).status, 200);
    await control(base, 'POST', '/store/compact'); // the log's write is tried now, and refused
    await control(base, 'POST', '/store/compact'); // and again: reported once, not per try
    const failing = await logStatus(base);
    assert.match(failing.write_error ?? '', /disk is full/);
    assert.ok(failing.unwritten >= 15, JSON.stringify(failing));
    assert.equal(count(svc.stderr(), 'request log: entries could not be written'), 1, svc.stderr());
    assert.match(svc.stderr(), /disk is full \(ENOSPC\).*the store is not affected/);
    // The log itself still answers: the entries are in memory.
    assert.equal((await control(base, 'GET', '/requests?trace_id=trc-full-4')).requests.length, 1);

    rmSync(faults);
    await control(base, 'POST', '/store/compact');
    assert.deepEqual(await logStatus(base), { entries: 20, unwritten: 0, write_error: null });
    assert.match(svc.stderr(), /request log: written to .* again/);

    // Refused again, then killed before the disk takes them: those entries are lost, nothing else.
    writeFileSync(faults, `write ENOSPC ${LOG_DIR}/\n`);
    for (let i = 0; i < 5; i++) await keep(`trc-lost-${i}`);
    await control(base, 'POST', '/store/compact');
    assert.ok((await logStatus(base)).write_error);
    svc.child.kill('SIGKILL');
    assert.equal(await svc.done, 'SIGKILL');
    rmSync(faults);

    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    const base2 = again.ready.base_url;
    const logged = (await allEntries(base2)).map((e) => e.trace_id).sort();
    for (const [trace, id] of links) assert.equal((await request(base2, 'GET', `/v1/api/payment-links/${id}`)).status, 200, `acknowledged ${trace} is missing`);
    const expected = [...Array.from({ length: 5 }, (_, i) => `trc-ok-${i}`), ...Array.from({ length: 5 }, (_, i) => `trc-full-${i}`), ...Array.from({ length: 10 }, (_, i) => `trc-full-get-${i}`)].sort();
    assert.deepEqual(logged, expected);
    // The refused appends left no torn piece behind (the files load whole).
    assert.doesNotMatch(again.stderr(), /damaged/);
    await stopCleanly(again);
  }),
);

test('a torn last entry is cut off at the next start; a damaged entry in between is skipped with a warning', (t) =>
  inDataDir(t, 'svc-log-torn-', async (dataDir, procs) => {
    const first = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    for (let i = 0; i < 3; i++) assert.equal((await request(first.ready.base_url, 'GET', '/v1/api/payments', { headers: { 'x-trace-id': `trc-torn-${i}` } })).status, 200);
    await stopCleanly(first);

    const files = readdirSync(join(dataDir, LOG_DIR));
    assert.equal(files.length, 1, files.join());
    const file = join(dataDir, LOG_DIR, files[0]);
    const whole = readFileSync(file);
    // Between the first and the second entry, a line that is no entry; at the end, half an entry.
    const firstEnd = whole.indexOf(10) + 1;
    writeFileSync(file, Buffer.concat([whole.subarray(0, firstEnd), Buffer.from('not an entry\n'), whole.subarray(firstEnd)]));
    appendFileSync(file, whole.subarray(0, firstEnd - 20));
    const damagedSize = statSync(file).size;

    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    assert.deepEqual(
      (await allEntries(again.ready.base_url)).map((e) => e.trace_id),
      ['trc-torn-2', 'trc-torn-1', 'trc-torn-0'],
    );
    assert.match(again.stderr(), /request log: 1 damaged entry in .* skipped/);
    assert.equal(statSync(file).size, damagedSize - (firstEnd - 20), 'the torn tail was cut off');
    await stopCleanly(again);
  }),
);

test("a reset's log does not come back after a kill -9; a restored world's log does", (t) =>
  inDataDir(t, 'svc-log-reset-', async (dataDir, procs) => {
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    const base = svc.ready.base_url;
    for (let i = 0; i < 3; i++) assert.equal((await request(base, 'GET', '/v1/api/payments', { headers: { 'x-trace-id': `trc-world-${i}` } })).status, 200);
    const snapshot = await control(base, 'GET', '/snapshot');
    assert.equal(snapshot.collections.request_log.length, 3);
    await control(base, 'POST', '/reset');
    svc.child.kill('SIGKILL');
    await svc.done;

    const afterReset = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    assert.deepEqual(await allEntries(afterReset.ready.base_url), []);
    await control(afterReset.ready.base_url, 'POST', '/snapshot/restore', snapshot);
    afterReset.child.kill('SIGKILL');
    await afterReset.done;

    const afterRestore = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    assert.deepEqual(
      (await allEntries(afterRestore.ready.base_url)).map((e) => e.trace_id),
      ['trc-world-2', 'trc-world-1', 'trc-world-0'],
    );
    assert.equal(readdirSync(join(dataDir, LOG_DIR)).length, 1, "only the restored world's file is left");
    await stopCleanly(afterRestore);
  }),
);

test('a request log left without its store (the store files deleted) is not the new world\'s log', async () => {
  const dataDir = tempDir('svc-log-orphan-');
  const emu = await startTestEmulator({ dataDir });
  assert.equal((await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-orphan' } })).status, 200);
  await emu.stop({ keepData: true });
  for (const name of readdirSync(dataDir)) if (/^(snapshot|journal)/.test(name)) rmSync(join(dataDir, name));
  const fresh = await startTestEmulator({ dataDir });
  try {
    assert.deepEqual(await allEntries(fresh.baseUrl), []);
  } finally {
    await fresh.stop();
  }
});

test("the log's files stay bounded: segments whose entries all left the log are deleted", async () => {
  const dataDir = tempDir('svc-log-bound-');
  const emu = await startTestEmulator({ dataDir, config: { requestLog: 3 } });
  try {
    // ~1.1 KB an entry (the path is kept, and the 422 answer names the parameter): ~3 MB in all.
    const long = 'x'.repeat(1000);
    for (let i = 0; i < 2600; i++) assert.equal((await emu.request('GET', `/v1/api/payments?${long}${i}=1`)).status, 422);
    await fetch(`${emu.baseUrl}/_emulator/store/compact`, { method: 'POST' });
    const dir = join(dataDir, LOG_DIR);
    const files = readdirSync(dir);
    const bytes = files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    assert.ok(files.length <= 2, files.join());
    assert.ok(bytes < 2.2 * 1024 * 1024, `${bytes} bytes on disk for a log of 3 entries`);
    await emu.stop({ keepData: true });
    const again = await startTestEmulator({ dataDir, config: { requestLog: 3 } });
    try {
      assert.deepEqual(
        (await allEntries(again.baseUrl)).map((e) => e.path.slice(-8)),
        [`${long}2599=1`, `${long}2598=1`, `${long}2597=1`].map((p) => p.slice(-8)),
      );
    } finally {
      await again.stop();
    }
  } catch (err) {
    await emu.stop().catch(() => {});
    throw err;
  }
});
