import { named } from '../helpers/collections.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore, SNAPSHOT } from '../../emulator/store/file-store.js';
import { realFs, type StoreFs } from '../../emulator/store/store-fs.js';
import { StoreWriteError } from '../../emulator/store/store-write-error.js';
import { tempDir } from '../helpers/emulator.js';

// The FileStore through its filesystem seam: every step that can fail is made to fail, and
// what was acknowledged (a transaction that returned) is checked against a reopened store.

/** A seam whose next `n` calls of `step` fail with `code` (a failing write writes half first). */
function failing() {
  const plan = new Map<string, { code: string; n: number }>();
  const fault = (step: string) => {
    const p = plan.get(step);
    if (!p || p.n <= 0) return undefined;
    p.n--;
    return Object.assign(new Error(`${p.code}: injected`), { code: p.code });
  };
  const fs: StoreFs = {
    ...realFs,
    openSync: (path, flags) => {
      const e = fault('open');
      if (e) throw e;
      return realFs.openSync(path, flags);
    },
    writeSync: (fd, data, offset) => {
      const e = fault('write');
      if (e) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data.subarray(offset ?? 0);
        realFs.writeSync(fd, bytes.subarray(0, bytes.length >> 1), 0);
        throw e;
      }
      return realFs.writeSync(fd, data, offset);
    },
    fsyncSync: (fd) => {
      const e = fault('fsync');
      if (e) throw e;
      realFs.fsyncSync(fd);
    },
    fsync: async (fd) => {
      const e = fault('fsync');
      if (e) throw e;
      await realFs.fsync(fd);
    },
    ftruncateSync: (fd, len) => {
      const e = fault('ftruncate');
      if (e) throw e;
      realFs.ftruncateSync(fd, len);
    },
  };
  return { fs, failNext: (step: string, code: string, n = 1) => plan.set(step, { code, n }) };
}

const put = (store: FileStore, id: string, n = 0) => store.transaction((tx) => tx.put(named('items'), { id, n }));

test('a refused append rolls memory back, keeps no torn bytes, and the next transaction commits (also when the truncate fails once)', async () => {
  const dir = tempDir('svc-seam-');
  try {
    const { fs, failNext } = failing();
    const store = await FileStore.open(dir, { fs, fsync: true });
    put(store, 'a');
    for (const [step, code] of [['write', 'ENOSPC'], ['fsync', 'EIO']] as const) {
      failNext(step, code);
      assert.throws(() => put(store, `lost-${step}`), (e: unknown) => e instanceof StoreWriteError && e.code === code);
      assert.equal(store.get(named('items'), `lost-${step}`), undefined);
    }
    // A nested transaction that fails at commit leaves the depth right: later ones still commit.
    failNext('write', 'ENOSPC');
    assert.throws(() => store.transaction(() => store.transaction((tx) => tx.put(named('items'), { id: 'nested' }))), StoreWriteError);
    // The cut-off of the torn tail fails too: it is retried before the next append.
    failNext('write', 'ENOSPC');
    failNext('ftruncate', 'EIO');
    assert.throws(() => put(store, 'lost-twice'), StoreWriteError);
    put(store, 'b');
    put(store, 'c');
    const reopened = await FileStore.open(dir);
    assert.deepEqual([...reopened.all(named('items'))].map((r) => r.id).sort(), ['a', 'b', 'c']);
    await reopened.close();
    await store.close().catch(() => {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a commit listener that throws is isolated: the write stands, later commits reach every listener, and its error is said redacted', async () => {
  const dir = tempDir('svc-listener-');
  try {
    const store = await FileStore.open(dir);
    const heard: string[] = [];
    // An error that quotes what it was handed: a key and a card (issue 46: every line the emulator writes is redacted).
    const [key, card] = ['svc_live_Q4bN8xW2pL7vK9mR3tY6', '4242 4242 4242 4242'];
    store.onCommit(() => {
      throw new Error(`listener bug on ${key} paying with ${card}`);
    });
    store.onCommit((ops) => heard.push(ops[0].id));
    const said: string[] = [];
    const original = process.stderr.write;
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      put(store, 'x');
      put(store, 'y');
    } finally {
      process.stderr.write = original;
    }
    assert.deepEqual(heard, ['x', 'y']);
    assert.equal(said.length, 2);
    assert.match(said[0], /^\[emulator\] a commit listener failed \(the write itself is kept\): Error: listener bug on svc_live_\S+ paying with /);
    for (const secret of [key, card, '4242424242424242']) assert.ok(!said.join('').includes(secret), secret);
    await store.close();
    const reopened = await FileStore.open(dir);
    assert.equal(reopened.count(named('items')), 2);
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a compaction that fails (new segment, snapshot write, snapshot fsync) keeps every write and succeeds once the disk does', async () => {
  const dir = tempDir('svc-compact-fail-');
  try {
    const { fs, failNext } = failing();
    const store = await FileStore.open(dir, { fs });
    for (let i = 0; i < 500; i++) put(store, `i${i}`, i);
    for (const [step, code] of [['open', 'ENOSPC'], ['write', 'ENOSPC'], ['fsync', 'EIO']] as const) {
      failNext(step, code);
      await assert.rejects(store.compact(), StoreWriteError);
      assert.ok(!readdirSync(dir).includes(`${SNAPSHOT}.tmp`), 'a failed snapshot leaves no temp file');
      put(store, `after-${step}`);
    }
    const crashed = await FileStore.open(dir); // as after a kill -9 now
    assert.equal(crashed.count(named('items')), 503);
    await store.compact();
    const compacted = await FileStore.open(dir);
    assert.equal(compacted.count(named('items')), 503);
    await compacted.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('thousands of overwrites stay bounded: past the size threshold the store compacts itself while it is written to', async () => {
  const dir = tempDir('svc-bounded-');
  try {
    const store = await FileStore.open(dir, { compactAtBytes: 64 * 1024, chunkRecords: 50 });
    const bytes = () => readdirSync(dir).filter((f) => f.includes('ndjson')).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    let largest = 0;
    for (let i = 0; i < 5000; i++) {
      put(store, `k${i % 200}`, i); // 200 live records, each rewritten 25 times
      if (i % 100 === 0) await store.compactionSettled(); // a compaction the size started runs to its end
      largest = Math.max(largest, bytes());
    }
    await store.flush();
    const snapshot = statSync(join(dir, SNAPSHOT)).size;
    // Without compaction the journal alone would pass 5000 lines (~200 KB); with it, the dir
    // never holds much more than a snapshot plus one threshold of journal.
    assert.ok(largest <= 2 * snapshot + 2 * 64 * 1024, `data dir reached ${largest} bytes (snapshot ${snapshot})`);
    assert.ok(readdirSync(dir).filter((f) => /^journal-\d+/.test(f)).length === 1);
    const reopened = await FileStore.open(dir);
    for (let k = 0; k < 200; k++) assert.equal(reopened.get<{ id: string; n: number }>(named('items'), `k${k}`)?.n, 4800 + k);
    await reopened.close();
    await store.close().catch(() => {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
