import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../emulator/store/file-store.js';
import { MemoryStore } from '../../emulator/store/memory-store.js';
import { collection } from '../../emulator/store/collection.js';
import { tempDir } from '../helpers/emulator.js';

// The store's secondary indexes and its snapshot policy, through the store API (the same
// API the emulator's domain code uses; HTTP tests cover the routes built on it).

type Row = { id: string; status: string; [k: string]: unknown };
const JOBS = collection<Row>()('jobs', { by_status: (r) => r.status });

function queueStore() {
  const store = new MemoryStore();
  store.define(JOBS);
  return store;
}

const ids = (rows: Row[]) => rows.map((r) => r.id);

test('an index lists records in first-write order; a record that changes key moves to the end of its new key', () => {
  const store = queueStore();
  store.transaction((tx) => {
    for (const id of ['a', 'b', 'c', 'd']) tx.put(JOBS, { id, status: 'pending' });
  });
  store.transaction((tx) => tx.put(JOBS, { id: 'b', status: 'done' }));
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'pending')), ['a', 'c', 'd']);
  store.transaction((tx) => tx.put(JOBS, { id: 'b', status: 'pending' }));
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'pending')), ['a', 'c', 'd', 'b']);
  store.transaction((tx) => tx.delete(JOBS, 'c'));
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'pending')), ['a', 'd', 'b']);
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'done')), []);
});

// (A rollback re-files a record that changed key at the end of its old key, as the store has
// always done; membership is what a rollback guarantees, so that is what is checked.)
test('a rolled-back transaction leaves every index with the records it had', () => {
  const store = queueStore();
  store.transaction((tx) => {
    for (const id of ['a', 'b']) tx.put(JOBS, { id, status: 'pending' });
  });
  assert.throws(() =>
    store.transaction((tx) => {
      tx.put(JOBS, { id: 'c', status: 'pending' });
      tx.put(JOBS, { id: 'a', status: 'done' });
      throw new Error('no');
    }),
  );
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'pending')).sort(), ['a', 'b']);
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'done')), []);
  assert.equal(store.get<Row>(JOBS, 'c'), undefined);
});

test('draining a big queue-like index keeps the order of what remains, and viewIndex agrees with byIndex', () => {
  const store = queueStore();
  const n = 5000;
  store.transaction((tx) => {
    for (let i = 0; i < n; i++) tx.put(JOBS, { id: `j${i}`, status: 'pending' });
  });
  // Take jobs from the front, the middle and the back, one transaction each, as an engine would.
  const model = Array.from({ length: n }, (_, i) => `j${i}`);
  for (let k = 0; k < 4000; k++) {
    const at = k % 3 === 0 ? 0 : k % 3 === 1 ? Math.floor(model.length / 2) : model.length - 1;
    const [id] = model.splice(at, 1);
    store.transaction((tx) => tx.put(JOBS, { id, status: 'done' }));
    if (k % 500 === 0) assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'pending')), model);
  }
  assert.deepEqual(ids(store.byIndex(JOBS, 'by_status', 'pending')), model);
  const view = store.viewIndex(JOBS, 'by_status', 'pending');
  assert.equal(view.length, model.length);
  assert.deepEqual(Array.from({ length: view.length }, (_, i) => view.at(i).id), model);
  assert.equal(store.byIndex(JOBS, 'by_status', 'done').length, 4000);
});

test('a store closed with no write since it opened is not rewritten; one with writes is, and keeps them', async () => {
  const dir = tempDir();
  let store = await FileStore.open(dir);
  store.transaction((tx) => tx.put(JOBS, { id: 'a', status: 'pending' }));
  await store.close();
  const snapshot = join(dir, 'snapshot.ndjson');
  const first = statSync(snapshot);

  // Reopen and close without writing: the snapshot file is the same file, untouched.
  store = await FileStore.open(dir);
  assert.equal(store.get<Row>(JOBS, 'a')?.status, 'pending');
  await store.close();
  const second = statSync(snapshot);
  assert.equal(second.ino, first.ino, 'no new snapshot file was renamed into place');
  assert.equal(second.mtimeMs, first.mtimeMs);
  assert.equal(readFileSync(store.journalPath(), 'utf8'), '');

  // A write makes the next close write a new snapshot that holds it.
  store = await FileStore.open(dir);
  store.transaction((tx) => tx.put(JOBS, { id: 'b', status: 'done' }));
  await store.close();
  assert.notEqual(statSync(snapshot).ino, first.ino);
  const saved = readFileSync(snapshot, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual(saved.filter((r) => r.c === 'jobs').map((r) => r.v.id).sort(), ['a', 'b']);
  store = await FileStore.open(dir);
  assert.equal(store.get<Row>(JOBS, 'b')?.status, 'done');
  await store.close();
});
