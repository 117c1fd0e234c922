import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { idem, KEYS, request, tempDir } from '../helpers/emulator.js';
import { startSvc, svcProcesses, type SvcProcess } from '../helpers/svc-process.js';
import { COMPACTION_STEPS } from '../../emulator/store/file-store.js';

// The store over a real `svc emulator start`: a write the disk refuses is a 503 and is not
// kept; the emulator works again once the disk does; nothing acknowledged is lost to kill -9,
// including a kill at each step of a compaction.

const link = (base: string, title: string) => request(base, 'POST', '/v1/api/payment-links', { body: { title, amount: 500 }, idempotencyKey: idem() });

async function assertLinks(base: string, ids: Iterable<string>): Promise<void> {
  for (const id of ids) {
    const res = await request(base, 'GET', `/v1/api/payment-links/${id}`);
    assert.equal(res.status, 200, `acknowledged link ${id} is missing`);
  }
}

const waitFor = async (svc: SvcProcess, marker: string) => {
  while (!svc.stderr().includes(marker)) {
    if (svc.child.exitCode !== null) throw new Error(`svc exited before ${marker}: ${svc.stderr()}`);
    await new Promise((r) => svc.child.stderr!.once('data', r));
  }
};

test('a journal append that fails (ENOSPC, then EIO on fsync) is a 503 that keeps nothing; later writes are kept through kill -9', async (t) => {
  const dataDir = tempDir('svc-enospc-');
  const faults = join(dataDir, '..', `${dataDir.split('/').pop()}-faults`);
  const procs = svcProcesses(t.signal);
  try {
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off', '--fsync'], { SVC_TEST_STORE_FAULTS: faults });
    const base = svc.ready.base_url;
    const acked = new Set<string>();
    const before = await link(base, 'before the disk filled');
    assert.equal(before.status, 201);
    acked.add(before.json.data.id);

    for (const [rule, why] of [
      ['write ENOSPC', /disk is full/],
      ['fsync EIO', /I\/O error/],
      ['write EROFS', /read-only/],
    ] as const) {
      writeFileSync(faults, `${rule}\n`);
      const refused = await link(base, `refused ${rule}`);
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.json.error.code, 'SERVICE_UNAVAILABLE');
      assert.match(refused.json.error.message, why);
      // As a rate limit's 429 does: when to try again (a full or read-only disk is not mended in a second).
      assert.equal(refused.headers.get('retry-after'), '5', rule);
      rmSync(faults);
      // Nothing of the refused request stands in memory either.
      const list = await request(base, 'GET', '/v1/api/payment-links?limit=100');
      assert.ok(!list.text.includes(`refused ${rule}`), 'a refused write is listed');
      // The store works again at once: the next writes commit and are kept.
      for (let i = 0; i < 5; i++) {
        const ok = await link(base, `after ${rule} ${i}`);
        assert.equal(ok.status, 201, ok.text);
        acked.add(ok.json.data.id);
      }
    }
    svc.child.kill('SIGKILL');
    assert.equal(await svc.done, 'SIGKILL');

    // The half-written lines were cut off: the journal loads (a torn middle line would be refused).
    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    try {
      await assertLinks(again.ready.base_url, acked);
      const list = await request(again.ready.base_url, 'GET', '/v1/api/payment-links?limit=100');
      assert.ok(!list.text.includes('refused'), 'a refused write came back after restart');
    } finally {
      again.child.kill('SIGTERM');
      assert.equal(await again.done, 0);
    }
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(faults, { force: true });
  }
});

/** A hosted page's form posted as a browser posts it (no redirect followed). */
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const tokenOf = (page: string) => /name="token" value="([^"]+)"/.exec(page)?.[1] ?? assert.fail(`no form token in ${page.slice(0, 300)}`);

/** A refused write on a hosted page: 503 with Retry-After (as the JSON APIs answer, row 223), an HTML page that says to try again. */
async function assertTryAgain(res: Response, why: string): Promise<void> {
  const page = await res.text();
  assert.equal(res.status, 503, `${why}: ${page.slice(0, 300)}`);
  assert.equal(res.headers.get('retry-after'), '5', why);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/, why);
  assert.match(page, /<h1>Try again shortly<\/h1>/, why);
  assert.match(page, /the disk is full \(ENOSPC\).*Nothing was charged or approved; try again in a few seconds/s, why);
}

test('the hosted pages answer a refused write with a 503 page and Retry-After; nothing is charged or approved, and the same form works once the disk does', async (t) => {
  const dataDir = tempDir('svc-pages-enospc-');
  const faults = `${dataDir}-faults`;
  const procs = svcProcesses(t.signal);
  try {
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off'], { SVC_TEST_STORE_FAULTS: faults });
    const { base_url: base, checkout_url: checkout } = svc.ready;
    const made = await link(base, 'paid on its page');
    assert.equal(made.status, 201, made.text);
    const page = `${checkout}/${made.json.data.link_code}`;

    // The first page of a fresh store writes the secret its form tokens are signed with.
    writeFileSync(faults, 'write ENOSPC\n');
    await assertTryAgain(await fetch(page), 'GET of the first form');
    rmSync(faults);
    const token = tokenOf(await (await fetch(page)).text());
    const card = { token, method: 'card', number: '4242424242424242', expiry: '12/34', cvc: '123' };
    writeFileSync(faults, 'write ENOSPC\n');
    await assertTryAgain(await postForm(page, card), 'the card payment');
    rmSync(faults);
    const unpaid = await request(base, 'GET', `/v1/api/payment-links/${made.json.data.id}`);
    assert.equal(unpaid.json.data.payment_count, 0, 'nothing was charged');
    // The payer presses Pay again: the same form (its token was not spent) pays once.
    const paid = await postForm(page, card);
    assert.equal(paid.status, 303, await paid.text());
    assert.match(paid.headers.get('location') ?? '', /\/payments\/pay_\w+$/);
    assert.equal((await request(base, 'GET', `/v1/api/payment-links/${made.json.data.id}`)).json.data.payment_count, 1);

    // An approval page (a live card mandate) the same way.
    const live = KEYS.acmeLive;
    const mandate = await request(base, 'POST', '/v1/api/mandates', { key: live, body: { rail: 'card', customer_ref: 'cus_disk', currency: 'USD', max_amount_cents: 5000 }, idempotencyKey: idem() });
    assert.equal(mandate.status, 201, mandate.text);
    const approval: string = mandate.json.data.approval_url;
    const save = { token: tokenOf(await (await fetch(approval)).text()), number: '4242424242424242', expiry: '11/33', cvc: '123' };
    writeFileSync(faults, 'write ENOSPC\n');
    await assertTryAgain(await postForm(approval, save), 'the mandate approval');
    rmSync(faults);
    const mandateNow = () => request(base, 'GET', `/v1/api/mandates/${mandate.json.data.mandate.id}`, { key: live });
    assert.equal((await mandateNow()).json.data.status, 'pending', 'nothing was approved');
    const saved = await postForm(approval, save);
    assert.equal(saved.status, 303, await saved.text());
    assert.equal((await mandateNow()).json.data.status, 'active');
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(faults, { force: true });
  }
});

test('SIGTERM on a full disk exits non-zero with a clear message and releases store.lock; the next start has every write', async (t) => {
  const dataDir = tempDir('svc-full-stop-');
  const faults = `${dataDir}-faults`;
  const procs = svcProcesses(t.signal);
  try {
    const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet'], { SVC_TEST_STORE_FAULTS: faults });
    const created = await link(svc.ready.base_url, 'kept in the journal');
    assert.equal(created.status, 201);
    writeFileSync(faults, 'open ENOSPC\nwrite ENOSPC\n');
    svc.child.kill('SIGTERM');
    assert.notEqual(await svc.done, 0);
    assert.match(svc.stderr(), /shutdown failed: .*disk is full/);
    assert.equal(existsSync(join(dataDir, 'store.lock')), false, 'store.lock was left behind');
    rmSync(faults);
    const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
    try {
      await assertLinks(again.ready.base_url, [created.json.data.id]);
    } finally {
      again.child.kill('SIGTERM');
      assert.equal(await again.done, 0);
    }
  } finally {
    await procs.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(faults, { force: true });
  }
});

// The same promise on a real filesystem that fills up, as a user's disk does: a 3 MB tmpfs
// (mounting one needs root or CAP_SYS_ADMIN; CI runs as root, elsewhere the test says why it
// skips). The disk is filled by a file beside the data dir, so the emulator meets a real ENOSPC
// from the kernel, not one injected at the seam.
const mountTmpfs = (dir: string, size: string) => spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });

/** Writes zeros to `path` until the filesystem refuses with ENOSPC. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

test('on a real 3 MB tmpfs: a full disk is a 503 that keeps nothing; once space is freed writes are kept, through kill -9', async (t) => {
  const mnt = tempDir('svc-tmpfs-');
  const mounted = mountTmpfs(mnt, '3m');
  if (mounted.status !== 0) {
    rmSync(mnt, { recursive: true, force: true });
    t.skip(`cannot mount a tmpfs here (needs root): ${mounted.stderr.trim() || mounted.error?.message}`);
    return;
  }
  const dataDir = join(mnt, 'data');
  const filler = join(mnt, 'filler');
  const running: SvcProcess[] = [];
  try {
    const svc = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    running.push(svc);
    const base = svc.ready.base_url;
    const acked = new Set<string>();
    const first = await link(base, 'before the disk filled');
    assert.equal(first.status, 201, first.text);
    acked.add(first.json.data.id);

    fillDisk(filler);
    // The journal's last page may still have room for a line or two: writes that fit are kept
    // (and must survive), the first that does not is refused.
    let refused;
    let refusedTitle = '';
    for (let i = 0; i < 50 && !refused; i++) {
      refusedTitle = `while full ${i}`;
      const res = await link(base, refusedTitle);
      if (res.status === 201) acked.add(res.json.data.id);
      else refused = res;
    }
    assert.ok(refused, 'no write was refused on a full disk');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.json.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(refused.json.error.message, /disk is full/);
    assert.equal(refused.headers.get('retry-after'), '5');
    // Still full: still refused, and nothing of a refused request stands in memory.
    assert.equal((await link(base, 'refused again')).status, 503);
    const listed = await request(base, 'GET', '/v1/api/payment-links?limit=100');
    for (const title of [refusedTitle, 'refused again']) assert.ok(!listed.text.includes(`"${title}"`), `refused "${title}" is listed`);

    rmSync(filler);
    for (let i = 0; i < 5; i++) {
      const res = await link(base, `after the disk was freed ${i}`);
      assert.equal(res.status, 201, res.text);
      acked.add(res.json.data.id);
    }
    svc.child.kill('SIGKILL');
    assert.equal(await svc.done, 'SIGKILL');

    // The refused lines were cut off (a torn middle line would stop the load), and every
    // acknowledged write is there.
    const again = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet']);
    running.push(again);
    await assertLinks(again.ready.base_url, acked);
    const after = await request(again.ready.base_url, 'GET', '/v1/api/payment-links?limit=100');
    for (const title of [refusedTitle, 'refused again']) assert.ok(!after.text.includes(`"${title}"`), `refused "${title}" came back after restart`);
    again.child.kill('SIGTERM');
    assert.equal(await again.done, 0);
  } finally {
    for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.done));
    spawnSync('umount', [mnt]);
    rmSync(mnt, { recursive: true, force: true });
  }
});

// A data dir after one clean run (snapshot written, journal empty), made once and copied for
// each step instead of starting and stopping an emulator per step.
let seeded: Promise<string> | undefined;
const seededStore = () =>
  (seeded ??= (async () => {
    const dir = tempDir('svc-compact-seed-');
    const first = await startSvc(['--port', '0', '--data-dir', dir, '--quiet']);
    first.child.kill('SIGTERM');
    assert.equal(await first.done, 0);
    assert.ok(existsSync(join(dir, 'snapshot.ndjson')));
    return dir;
  })());
after(async () => {
  if (seeded) rmSync(await seeded, { recursive: true, force: true });
});

for (const step of COMPACTION_STEPS) {
  test(`kill -9 while a compaction is at "${step}" keeps every acknowledged write, including those made during it`, async (t) => {
    const dataDir = tempDir(`svc-compact-${step}-`);
    const procs = svcProcesses(t.signal);
    try {
      // Start from a store that already has its snapshot, so the paused run's compaction is the one we ask for.
      cpSync(await seededStore(), dataDir, { recursive: true });

      const svc = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off'], { SVC_TEST_COMPACTION_PAUSE: step });
      const base = svc.ready.base_url;
      const acked = new Set<string>();
      for (let i = 0; i < 30; i++) acked.add((await link(base, `before ${i}`)).json.data.id);
      void request(base, 'POST', '/_emulator/store/compact', { key: null }).catch(() => {}); // never answers: paused, then killed
      await waitFor(svc, `store-compaction-paused:${step}`);
      for (let i = 0; i < 10; i++) {
        const res = await link(base, `during ${i}`);
        assert.equal(res.status, 201, res.text);
        acked.add(res.json.data.id);
      }
      svc.child.kill('SIGKILL');
      assert.equal(await svc.done, 'SIGKILL');

      const again = await procs.start(['--port', '0', '--data-dir', dataDir, '--quiet']);
      try {
        await assertLinks(again.ready.base_url, acked);
        assert.equal(acked.size, 40);
      } finally {
        again.child.kill('SIGTERM');
        assert.equal(await again.done, 0);
      }
      // The clean stop compacted: one snapshot, one (empty) segment, no temp file.
      assert.deepEqual(readdirSync(dataDir).filter((f) => f.includes('ndjson')).sort().length, 2);
      assert.equal(existsSync(join(dataDir, 'snapshot.ndjson.tmp')), false);
    } finally {
      await procs.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

test('retention on the manual clock: 25 h later the idempotency record is gone from the store, and the key creates anew', async () => {
  const dataDir = tempDir('svc-retention-');
  try {
    const svc = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual']);
    const base = svc.ready.base_url;
    try {
      const key = 'retention-key-1';
      const first = await request(base, 'POST', '/v1/api/payment-links', { body: { title: 'old', amount: 1 }, idempotencyKey: key });
      assert.equal(first.status, 201);
      const replay = await request(base, 'POST', '/v1/api/payment-links', { body: { title: 'old', amount: 1 }, idempotencyKey: key });
      assert.equal(replay.text, first.text);
      const snapshotHasKey = async (k = key) => {
        assert.equal((await request(base, 'POST', '/_emulator/store/compact', { key: null })).status, 200);
        return readFileSync(join(dataDir, 'snapshot.ndjson'), 'utf8').includes(`"key":"${k}"`);
      };
      const advance = async (by: string) => assert.equal((await request(base, 'POST', '/_emulator/clock/advance', { key: null, body: { by } })).status, 200);
      assert.equal(await snapshotHasKey(), true);
      // A younger record made 20 h later: the sweep (oldest first) drops the old one, keeps it.
      await advance('20h');
      assert.equal((await request(base, 'POST', '/v1/api/payment-links', { body: { title: 'young', amount: 3 }, idempotencyKey: 'retention-key-2' })).status, 201);
      await advance('5h');
      assert.equal(await snapshotHasKey(), false, 'the expired idempotency record is still stored');
      assert.equal(await snapshotHasKey('retention-key-2'), true, 'a record 5 h old was dropped');
      await advance('20h');
      assert.equal(await snapshotHasKey('retention-key-2'), false, 'the second record outlived its 24 h');
      const anew = await request(base, 'POST', '/v1/api/payment-links', { body: { title: 'new', amount: 2 }, idempotencyKey: key });
      assert.equal(anew.status, 201);
      assert.notEqual(anew.json.data.id, first.json.data.id);
    } finally {
      svc.child.kill('SIGTERM');
      assert.equal(await svc.done, 0);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('retention: events (with finished deliveries) go after --retain-days of emulator time, not before', async () => {
  const dataDir = tempDir('svc-retain-days-');
  try {
    const svc = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual', '--retain-days', '3']);
    const base = svc.ready.base_url;
    try {
      const created = await link(base, 'evented');
      const paid = await request(base, 'POST', `/v1/api/payment-links/${created.json.data.id}/simulate`, { body: {} });
      assert.equal(paid.status, 201, paid.text);
      const events = async () => (await request(base, 'GET', '/_emulator/events?merchant_id=mer_acme&environment=test', { key: null })).json.data.events.length;
      const before = await events();
      assert.ok(before > 0);
      const advance = (hours: number) => request(base, 'POST', '/_emulator/clock/advance', { key: null, body: { ms: hours * 3600_000 } });
      assert.equal((await advance(2 * 24)).status, 200);
      assert.equal(await events(), before, 'events went before --retain-days');
      assert.equal((await advance(24 + 1)).status, 200);
      assert.equal(await events(), 0, 'events outlived --retain-days');
      // The payment itself is kept for good.
      assert.equal((await request(base, 'GET', `/v1/api/payments/${paid.json.data.id}`)).status, 200);
    } finally {
      svc.child.kill('SIGTERM');
      assert.equal(await svc.done, 0);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
