import { named } from '../helpers/collections.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../emulator/store/file-store.js';
import { packageFile } from '../../emulator/assets.js';
import { idem, KEYS, request, startTestEmulator, tempDir } from '../helpers/emulator.js';

// A restart on the same data dir keeps everything; a torn last journal line is ignored, and
// damage anywhere else is refused rather than silently skipped.

test('restart keeps links, payments, endpoints, idempotency records and keys', async () => {
  const dataDir = tempDir();
  let emu = await startTestEmulator({ dataDir });
  const key = idem('restart');
  const created = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Keep me', amount: 800, metadata: { a: 'b' } }, idempotencyKey: key });
  const link = created.json.data;
  const payment = (await emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { method: 'momo' } })).json.data;
  const anyLink = (await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Jar' }, idempotencyKey: idem() })).json.data;
  const failed = (await emu.request('POST', `/v1/api/payment-links/${anyLink.id}/simulate`, { body: { amount: 5, outcome: 'failed' } })).json.data;
  const ep = (await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: 'https://localhost:9/keep', events: ['payment.completed'] } })).json.data;
  const liveEp = (await emu.request('POST', '/v1/api/webhook-endpoints', { key: KEYS.acmeLive, body: { url: 'https://localhost:9/l', events: ['payment.failed'] } })).json.data;
  const gone = (await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: 'https://localhost:9/gone', events: ['payment.failed'] } })).json.data;
  await emu.request('DELETE', `/v1/api/webhook-endpoints/${gone.endpoint.id}`);
  const listBefore = (await emu.request('GET', '/v1/api/payments')).text;
  const summaryBefore = (await emu.request('GET', '/v1/api/payments/summary')).text;
  const endpointsBefore = (await emu.request('GET', '/v1/api/webhook-endpoints')).text;
  const keysBefore = emu.readyInfo().keys;
  const outbox = async () => (await request(emu.baseUrl, 'GET', '/_emulator/events?merchant_id=mer_acme&environment=test', { key: null })).text;
  const eventsBefore = await outbox();
  assert.equal(JSON.parse(eventsBefore).data.events.length, 2);
  await emu.stop({ keepData: true });

  emu = await startTestEmulator({ dataDir });
  try {
    assert.deepEqual(emu.readyInfo().keys, keysBefore);
    assert.equal(await outbox(), eventsBefore, 'the outbox survives too');
    assert.equal((await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeRevoked })).status, 401, 'a revoked key stays revoked');
    assert.equal((await emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeReadOnly, body: { title: 'x' } })).status, 403);

    const readLink = (await emu.request('GET', `/v1/api/payment-links/${link.id}`)).json.data;
    assert.equal(readLink.total_collected, 800);
    assert.equal(readLink.payment_count, 1);
    assert.equal(readLink.status, 'completed');
    assert.deepEqual(readLink.metadata, { a: 'b' });
    assert.equal((await emu.request('GET', `/v1/api/payment-links/by-code/${link.link_code}`)).json.data.id, link.id);
    assert.deepEqual((await emu.request('GET', `/v1/api/payments/${payment.id}`)).json.data, payment);
    assert.deepEqual((await emu.request('GET', `/v1/api/payments/${failed.id}`)).json.data, failed);
    assert.equal((await emu.request('GET', '/v1/api/payments')).text, listBefore);
    assert.equal((await emu.request('GET', '/v1/api/payments/summary')).text, summaryBefore);
    assert.equal((await emu.request('GET', '/v1/api/webhook-endpoints')).text, endpointsBefore);
    const live = (await emu.request('GET', '/v1/api/webhook-endpoints', { key: KEYS.acmeLive })).json.data.endpoints;
    assert.deepEqual(live, [liveEp.endpoint]);
    assert.ok(!endpointsBefore.includes(gone.endpoint.id));
    assert.ok(endpointsBefore.includes(ep.endpoint.id));

    // The idempotency record: a replay, and still a conflict for another body.
    const replay = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Keep me', amount: 800, metadata: { a: 'b' } }, idempotencyKey: key });
    assert.equal(replay.text, created.text);
    assert.equal(replay.status, 201);
    const conflict = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Other' }, idempotencyKey: key });
    assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');

    // New payments sort after the old ones, even though the manual clock restarted.
    const next = (await emu.request('POST', `/v1/api/payment-links/${anyLink.id}/simulate`, { body: { amount: 7 } })).json.data;
    const newest = (await emu.request('GET', '/v1/api/payments?limit=1')).json.data.payments[0];
    assert.equal(newest.id, next.id);
    assert.ok(next.created_at > failed.created_at);
  } finally {
    await emu.stop();
  }
});

test('a fresh data dir is seeded from fixtures; an existing one is never re-seeded', async () => {
  const dataDir = tempDir();
  let emu = await startTestEmulator({ dataDir });
  assert.ok(emu.readyInfo().keys.length >= 7);
  await emu.stop({ keepData: true });
  // A different fixtures file (valid: one merchant with a key of its own) is ignored for an existing store.
  const other = join(dataDir, 'other-fixtures.json');
  const bundled = JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8'));
  const otherKey = 'svc_test_other0fixtures00000000001';
  writeFileSync(other, JSON.stringify({ ...bundled, merchants: [{ ...bundled.merchants[0], id: 'mer_other', keys: [{ ...bundled.merchants[0].keys[0], name: 'other-test', key: otherKey }] }] }));
  emu = await startTestEmulator({ dataDir, fixtures: other });
  try {
    assert.equal((await emu.request('GET', '/v1/api/payments')).status, 200);
    assert.equal((await emu.request('GET', '/v1/api/payments', { key: otherKey })).status, 401, 'the other file seeded nothing');
  } finally {
    await emu.stop();
  }
});

test('a torn last journal line is ignored; the store loads with every whole line', async () => {
  const dir = tempDir('svc-torn-');
  try {
    const store = await FileStore.open(dir);
    for (let i = 0; i < 20; i++) store.transaction((tx) => tx.put(named('items'), { id: `i${i}`, n: i }));
    // A kill mid-append leaves part of a line and no newline (the process never answered).
    const journal = store.journalPath();
    const whole = JSON.stringify([{ c: 'items', id: 'torn', v: { id: 'torn', n: -1 } }]);
    appendFileSync(journal, whole.slice(0, Math.floor(whole.length / 2)));

    const reopened = await FileStore.open(dir);
    assert.equal(reopened.count(named('items')), 20);
    assert.equal(reopened.get(named('items'), 'torn'), undefined);
    for (let i = 0; i < 20; i++) assert.deepEqual(reopened.get(named('items'), `i${i}`), { id: `i${i}`, n: i });
    // Loading cut the torn bytes off: the journal is 20 whole lines, and new writes are clean lines.
    const text = readFileSync(journal, 'utf8');
    assert.ok(text.endsWith('\n'));
    assert.equal(text.split('\n').filter(Boolean).length, 20);
    reopened.transaction((tx) => tx.put(named('items'), { id: 'after', n: 99 }));
    const third = await FileStore.open(dir);
    assert.equal(third.count(named('items')), 21);
    await third.close();
    await reopened.close();
    await store.close().catch(() => {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged line in the middle of the journal is refused, not skipped', async () => {
  const dir = tempDir('svc-damaged-');
  try {
    const line = (id: string) => JSON.stringify([{ c: 'items', id, v: { id } }]);
    writeFileSync(join(dir, 'journal-0.ndjson'), `${line('a')}\n{"broken\n${line('b')}\n`);
    await assert.rejects(FileStore.open(dir), /journal-0\.ndjson is damaged at line 2/);
    // The same damage as the last line is a torn append: ignored.
    writeFileSync(join(dir, 'journal-0.ndjson'), `${line('a')}\n${line('b')}\n{"broken`);
    const store = await FileStore.open(dir);
    assert.deepEqual([...store.all(named('items'))].map((r) => r.id), ['a', 'b']);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a transaction that throws leaves nothing behind, in memory or on disk', async () => {
  const dir = tempDir('svc-rollback-');
  try {
    const store = await FileStore.open(dir);
    store.transaction((tx) => tx.put(named('items'), { id: 'kept', n: 1 }));
    assert.throws(() =>
      store.transaction((tx) => {
        tx.put(named('items'), { id: 'kept', n: 2 });
        tx.put(named('items'), { id: 'new', n: 3 });
        throw new Error('domain refused');
      }),
    );
    assert.deepEqual(store.get(named('items'), 'kept'), { id: 'kept', n: 1 });
    assert.equal(store.get(named('items'), 'new'), undefined);
    const reopened = await FileStore.open(dir);
    assert.deepEqual(reopened.get(named('items'), 'kept'), { id: 'kept', n: 1 });
    assert.equal(reopened.get(named('items'), 'new'), undefined);
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
