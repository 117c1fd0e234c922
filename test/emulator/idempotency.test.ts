import { named } from '../helpers/collections.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';

// The spec's eight idempotency rules, over HTTP.

const HOUR = 3_600_000;
const links = '/v1/api/payment-links';

/** Links stored with this title: the HTTP surface has no list of links, so count in the store. */
function linksTitled(emu: TestEmulator, title: string): number {
  let n = 0;
  for (const l of emu.services.store.all<{ id: string; title: string }>(named('payment_links'))) if (l.title === title) n++;
  return n;
}

describe('idempotency rules', () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startTestEmulator();
  });
  after(() => emu.stop());

  test('rule 4: a required key that is missing → 422 IDEMPOTENCY_KEY_REQUIRED, nothing created', async () => {
    const title = `no-key-${Math.random()}`;
    const res = await emu.request('POST', links, { body: { title } });
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.match(res.json.error.message, /X-Idempotency-Key/);
    assert.equal(linksTitled(emu, title), 0);
  });

  test('rule 4: the plain Idempotency-Key header does not satisfy X-Idempotency-Key', async () => {
    const res = await emu.request('POST', links, { body: { title: 'plain' }, headers: { 'idempotency-key': idem() } });
    assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
  });

  // Rule 2: a header key is whatever HTTP carried, 1 to 255 bytes (node reads header bytes as
  // latin1, one character per byte). Was: 1–255 printable ASCII characters, so tabs and bytes
  // beyond ASCII were refused (issue 27); idempotency-key-charset.test.ts covers the new rule further.
  test('rule 2/4: 256 bytes → IDEMPOTENCY_KEY_INVALID; 255 accepted', async () => {
    const long = await emu.request('POST', links, { body: { title: 'long' }, idempotencyKey: 'k'.repeat(256) });
    assert.equal(long.status, 422);
    assert.equal(long.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
    assert.match(long.json.error.message, /^X-Idempotency-Key is 256 bytes long, 1 over the 255-byte limit of a header key; it must be 1 to 255 characters as HTTP carries them/);
    const max = await emu.request('POST', links, { body: { title: 'max' }, idempotencyKey: `${'m'.repeat(240)}${Date.now()}`.slice(0, 255).padEnd(255, 'z') });
    assert.equal(max.status, 201, max.text);
  });

  test('rule 2/4: a blank key arrives empty → IDEMPOTENCY_KEY_INVALID; tabs and bytes beyond ASCII are keys', async () => {
    for (const value of ['', '   ']) { // HTTP trims the spaces around a header value
      const res = await rawRequest(emu.baseUrl, 'POST', links, {
        headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'x-idempotency-key': value },
        body: '{"title":"blank"}',
      });
      assert.equal(res.status, 422, `key ${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_INVALID', `key ${JSON.stringify(value)}`);
      assert.match(res.json.error.message, /^X-Idempotency-Key is empty; it must be 1 to 255 characters as HTTP carries them \(a header counts bytes\); a UUID works\.$/);
    }
    const accepted = [
      `tab\there ${Math.random()}`,
      `cl\u00e9-${Math.random()}`, // one byte 0xE9 on the wire (node's client writes header strings as latin1)
      Buffer.from(`ключ-${Math.random()}`, 'utf8').toString('latin1'), // UTF-8 bytes, as curl would send them
    ];
    for (const value of accepted) {
      // A Buffer body: with a string body node's client sends the headers in the same UTF-8 write.
      const send = () => rawRequest(emu.baseUrl, 'POST', links, { headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'x-idempotency-key': value }, body: Buffer.from('{"title":"bytes"}') });
      const first = await send();
      assert.equal(first.status, 201, `key ${JSON.stringify(value)}: ${first.text}`);
      const again = await send();
      assert.equal(again.headers['idempotent-replayed'], 'true', `key ${JSON.stringify(value)} replays`);
      assert.equal(again.text, first.text);
    }
  });

  test('rule 2: any string is a key — inner spaces and punctuation included — and is replayed', async () => {
    const key = `order 42 / retry #1 (${Math.random()}) ~!`;
    const first = await emu.request('POST', links, { body: { title: 'spaced key' }, idempotencyKey: key });
    assert.equal(first.status, 201, first.text);
    const again = await emu.request('POST', links, { body: { title: 'spaced key' }, idempotencyKey: key });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
  });

  test('a UUID key is accepted', async () => {
    const res = await emu.request('POST', links, { body: { title: 'uuid' }, idempotencyKey: crypto.randomUUID() });
    assert.equal(res.status, 201);
  });

  test('rule 6: same key + same body → the original bytes and status; one link exists', async () => {
    const title = `replay-${Math.random()}`;
    const key = idem('replay');
    const body = { title, amount: 1500, currency: 'USD', metadata: { order: 'A-1', nested: { x: [1, 2] } } };
    const first = await emu.request('POST', links, { body, idempotencyKey: key });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    await emu.services.scheduler.advance(60_000); // a minute later, the replay must not recompute anything
    for (let i = 0; i < 3; i++) {
      const again = await emu.request('POST', links, { body, idempotencyKey: key });
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
    }
    // Object key order does not make a different body.
    const reordered = await emu.request('POST', links, {
      rawBody: JSON.stringify({ metadata: { nested: { x: [1, 2] }, order: 'A-1' }, currency: 'USD', amount: 1500, title }),
      idempotencyKey: key,
    });
    assert.equal(reordered.status, 201);
    assert.equal(reordered.text, first.text);
    assert.equal(linksTitled(emu, title), 1);
  });

  test('rule 5: same key + different body → 409 IDEMPOTENCY_CONFLICT, nothing created', async () => {
    const key = idem('conflict');
    const title = `conflict-${Math.random()}`;
    assert.equal((await emu.request('POST', links, { body: { title, amount: 100 }, idempotencyKey: key })).status, 201);
    const other = await emu.request('POST', links, { body: { title, amount: 101 }, idempotencyKey: key });
    assert.equal(other.status, 409);
    assert.equal(other.json.error.code, 'IDEMPOTENCY_CONFLICT');
    // Array order is part of the body.
    const k2 = idem('conflict-arr');
    await emu.request('POST', links, { body: { title, accepted_methods: ['card', 'momo'] }, idempotencyKey: k2 });
    const swapped = await emu.request('POST', links, { body: { title, accepted_methods: ['momo', 'card'] }, idempotencyKey: k2 });
    assert.equal(swapped.json.error.code, 'IDEMPOTENCY_CONFLICT');
    assert.equal(linksTitled(emu, title), 2);
  });

  test('a key reused on another route, or by the live key of the same merchant, is a conflict', async () => {
    const key = idem('cross');
    const link = await emu.request('POST', links, { body: { title: 'cross' }, idempotencyKey: key });
    assert.equal(link.status, 201);
    const onEndpoints = await emu.request('POST', '/v1/api/webhook-endpoints', {
      body: { title: 'cross' },
      idempotencyKey: key,
    });
    assert.equal(onEndpoints.json.error.code, 'IDEMPOTENCY_CONFLICT');
    const live = await emu.request('POST', links, { key: KEYS.acmeLive, body: { title: 'cross' }, idempotencyKey: key });
    assert.equal(live.status, 409);
    assert.equal(live.json.error.code, 'IDEMPOTENCY_CONFLICT');
  });

  test('rule 6: a stored 422 replays as the same 422, even once the body would now be valid', async () => {
    const key = idem('422');
    const bad = { title: 'past', expires_at: new Date(emu.services.clock.now() + HOUR).toISOString() };
    // Valid now; after the clock passes expires_at, the same body is a 422.
    await emu.services.scheduler.advance(2 * HOUR);
    const first = await emu.request('POST', links, { body: bad, idempotencyKey: key });
    assert.equal(first.status, 422);
    assert.equal(first.json.error.code, 'VALIDATION_ERROR');
    const again = await emu.request('POST', links, { body: bad, idempotencyKey: key });
    assert.equal(again.status, 422);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    // A zod failure is stored too.
    const k2 = idem('422z');
    const z1 = await emu.request('POST', links, { body: { title: 'z', amount: -5 }, idempotencyKey: k2 });
    const z2 = await emu.request('POST', links, { body: { title: 'z', amount: -5 }, idempotencyKey: k2 });
    assert.equal(z1.status, 422);
    assert.equal(z2.status, 422);
    assert.equal(z2.text, z1.text);
  });

  test('rule 6: a stored 404 (simulate on an absent link) replays as 404', async () => {
    const key = idem('404');
    const a = await emu.request('POST', `${links}/pl_absent/simulate`, { body: {}, idempotencyKey: key });
    const b = await emu.request('POST', `${links}/pl_absent/simulate`, { body: {}, idempotencyKey: key });
    assert.equal(a.status, 404);
    assert.equal(b.text, a.text);
    assert.equal(b.headers.get('idempotent-replayed'), 'true');
  });

  test('a replayed 409 conflict is a 409 again', async () => {
    const key = idem('409');
    await emu.request('POST', links, { body: { title: 'one' }, idempotencyKey: key });
    const c1 = await emu.request('POST', links, { body: { title: 'two' }, idempotencyKey: key });
    const c2 = await emu.request('POST', links, { body: { title: 'two' }, idempotencyKey: key });
    assert.equal(c1.status, 409);
    assert.equal(c2.status, 409);
    assert.equal(c2.json.error.code, 'IDEMPOTENCY_CONFLICT');
  });

  test('rule 3: the key lives 24 h by the emulator clock, then creates a new resource', async () => {
    const key = idem('24h');
    const title = `expiry-${Math.random()}`;
    const first = await emu.request('POST', links, { body: { title }, idempotencyKey: key });
    assert.equal(first.status, 201);
    await emu.services.scheduler.advance(24 * HOUR - 1);
    const within = await emu.request('POST', links, { body: { title }, idempotencyKey: key });
    assert.equal(within.text, first.text);
    assert.equal((await emu.request('POST', links, { body: { title, amount: 9 }, idempotencyKey: key })).status, 409);
    await emu.services.scheduler.advance(1);
    const after24 = await emu.request('POST', links, { body: { title }, idempotencyKey: key });
    assert.equal(after24.status, 201);
    assert.equal(after24.headers.get('idempotent-replayed'), null);
    assert.notEqual(after24.json.data.id, first.json.data.id);
    assert.equal(linksTitled(emu, title), 2);
    // The new use starts a new 24 h: it replays now.
    const replay = await emu.request('POST', links, { body: { title }, idempotencyKey: key });
    assert.equal(replay.text, after24.text);
    // After another 24 h the key can even carry a different body.
    await emu.services.scheduler.advance(24 * HOUR);
    const different = await emu.request('POST', links, { body: { title, amount: 777 }, idempotencyKey: key });
    assert.equal(different.status, 201);
    assert.equal(different.json.data.amount, 777);
  });

  test('rule 3: keys are scoped per merchant', async () => {
    const key = idem('scoped');
    const body = { title: `scoped-${Math.random()}`, amount: 300 };
    const acme = await emu.request('POST', links, { key: KEYS.acmeTest, body, idempotencyKey: key });
    const globex = await emu.request('POST', links, { key: KEYS.globexTest, body, idempotencyKey: key });
    assert.equal(acme.status, 201);
    assert.equal(globex.status, 201);
    assert.equal(globex.headers.get('idempotent-replayed'), null);
    assert.notEqual(globex.json.data.id, acme.json.data.id);
    // And a different body under the same key at the other merchant is no conflict.
    const globex2 = await emu.request('POST', links, { key: KEYS.globexTest, body, idempotencyKey: key });
    assert.equal(globex2.text, globex.text);
    assert.equal(linksTitled(emu, body.title), 2);
  });

  test('rule 8: GET takes no key — a key header is ignored and nothing is replayed', async () => {
    const key = 'k'.repeat(300); // would be invalid on a POST
    const before = await emu.request('GET', '/v1/api/payments', { idempotencyKey: key });
    assert.equal(before.status, 200);
    const link = await emu.request('POST', links, { body: { title: 'get-rule', amount: 50 }, idempotencyKey: idem() });
    await emu.request('POST', `${links}/${link.json.data.id}/simulate`, { body: {} });
    const afterPay = await emu.request('GET', '/v1/api/payments', { idempotencyKey: key });
    assert.equal(afterPay.status, 200);
    assert.equal(afterPay.headers.get('idempotent-replayed'), null);
    assert.equal(afterPay.json.data.payments.length, before.json.data.payments.length + 1);
  });

  test('simulate honours an optional key and stamps it on the payment', async () => {
    const link = await emu.request('POST', links, { body: { title: 'sim-key' }, idempotencyKey: idem() });
    const key = idem('sim');
    const p1 = await emu.request('POST', `${links}/${link.json.data.id}/simulate`, { body: { amount: 700 }, idempotencyKey: key });
    const p2 = await emu.request('POST', `${links}/${link.json.data.id}/simulate`, { body: { amount: 700 }, idempotencyKey: key });
    assert.equal(p1.status, 201);
    assert.equal(p1.json.data.idempotency_key, key);
    assert.equal(p2.text, p1.text);
    const read = await emu.request('GET', `${links}/${link.json.data.id}`);
    assert.equal(read.json.data.payment_count, 1);
  });
});

describe('concurrent duplicates', () => {
  let emu: TestEmulator;
  before(async () => {
    // Each request waits 1 s (emulator time: a system clock, so it passes by itself) before its
    // handler runs, so the 10 duplicates surely overlap.
    emu = await startTestEmulator({ clock: 'system', config: { latencyMs: 1000 } });
  });
  after(() => emu.stop());

  test('10 identical requests at once create exactly one link', async () => {
    const key = idem('burst');
    const title = `burst-${Math.random()}`;
    const body = { title, amount: 4200 };
    const results = await Promise.all(Array.from({ length: 10 }, () => emu.request('POST', links, { body, idempotencyKey: key })));
    const created = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    assert.equal(created.length, 1, results.map((r) => `${r.status} ${r.text}`).join('\n'));
    for (const r of results) {
      if (r === created[0]) continue;
      if (r.status === 409) assert.equal(r.json.error.code, 'IDEMPOTENCY_IN_FLIGHT');
      else assert.equal(r.text, created[0].text);
    }
    assert.ok(results.some((r) => r.json.error?.code === 'IDEMPOTENCY_IN_FLIGHT'), 'with 1 s latency some duplicates overlap');
    assert.equal(linksTitled(emu, title), 1);
    // Once the first has finished, a retry gets the replay.
    const retry = await emu.request('POST', links, { body, idempotencyKey: key });
    assert.equal(retry.text, created[0].text);
  });

  test('an in-flight key with a different body is still not run twice', async () => {
    const key = idem('burst2');
    const title = `burst2-${Math.random()}`;
    const results = await Promise.all([
      emu.request('POST', links, { body: { title, amount: 1 }, idempotencyKey: key }),
      emu.request('POST', links, { body: { title, amount: 2 }, idempotencyKey: key }),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409]);
    assert.equal(linksTitled(emu, title), 1);
  });
});

describe('records survive a restart', () => {
  test('replay is byte-identical after stop and start on the same data dir', async () => {
    const dataDir = tempDir();
    const key = idem('restart');
    const body = { title: 'survivor', amount: 999, metadata: { a: 1 } };
    let emu = await startTestEmulator({ dataDir });
    const first = await emu.request('POST', links, { body, idempotencyKey: key });
    const conflictKey = idem('restart-409');
    await emu.request('POST', links, { body: { title: 'x' }, idempotencyKey: conflictKey });
    await emu.stop({ keepData: true });

    emu = await startTestEmulator({ dataDir });
    try {
      const again = await emu.request('POST', links, { body, idempotencyKey: key });
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const conflict = await emu.request('POST', links, { body: { title: 'y' }, idempotencyKey: conflictKey });
      assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
      assert.equal(linksTitled(emu, 'survivor'), 1);
    } finally {
      await emu.stop();
    }
  });
});
