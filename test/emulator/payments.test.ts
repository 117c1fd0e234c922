import { named } from '../helpers/collections.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { createPayment } from '../../emulator/resources/payments/domain.js';

// Payments: read, the newest-first list with its cursor, and the per-currency summary.
// The clock is manual and never advanced while the 250 payments are made, so they all share
// one millisecond: paging must still return each exactly once.

const START = Date.parse('2026-03-01T10:00:00.000Z');
let emu: TestEmulator;
const testPayments: any[] = []; // oldest first
let liveId: string;

async function link(body: Record<string, unknown>, key: string = KEYS.acmeTest) {
  const res = await emu.request('POST', '/v1/api/payment-links', { key, body, idempotencyKey: idem('pay') });
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}

before(async () => {
  emu = await startTestEmulator({ clockStart: START });
  const jar = await link({ title: 'Jar', currency: 'USD' });
  for (let i = 0; i < 250; i++) {
    const outcome = i % 5 === 0 ? 'failed' : 'completed';
    const res = await emu.request('POST', `/v1/api/payment-links/${jar.id}/simulate`, { body: { amount: 100 + i, outcome } });
    assert.equal(res.status, 201, res.text);
    testPayments.push(res.json.data);
  }
  // Another merchant's and a live payment must never show in Acme's test list. Live payments
  // come from checkout and charges (other modules); seed one through the domain function.
  const globexLink = await link({ title: 'Globex', amount: 5 }, KEYS.globexTest);
  await emu.request('POST', `/v1/api/payment-links/${globexLink.id}/simulate`, { key: KEYS.globexTest, body: {} });
  const liveLink = await link({ title: 'Live', amount: 9 }, KEYS.acmeLive);
  emu.services.store.transaction((tx) => {
    const linkRecord = emu.services.store.get<any>(named('payment_links'), liveLink.id);
    liveId = createPayment(emu.services, tx, {
      merchantId: 'mer_acme',
      environment: 'live',
      amount: 9,
      currency: 'USD',
      method: 'card',
      status: 'completed',
      link: linkRecord,
    }).id;
  });
});
after(() => emu.stop());

const list = (qs = '', key: string = KEYS.acmeTest) => emu.request('GET', `/v1/api/payments${qs}`, { key });

describe('read', () => {
  test('get a payment', async () => {
    const p = testPayments[7];
    const res = await emu.request('GET', `/v1/api/payments/${p.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.data, p);
    assert.deepEqual(Object.keys(res.json.data).sort(), [
      'amount', 'created_at', 'currency', 'environment', 'id', 'idempotency_key', 'mandate_id', 'payment_link_id', 'payment_method', 'status',
    ]);
  });

  test('the live key reads its live payment; the test key cannot', async () => {
    assert.equal((await emu.request('GET', `/v1/api/payments/${liveId}`, { key: KEYS.acmeLive })).json.data.environment, 'live');
    assert.equal((await emu.request('GET', `/v1/api/payments/${liveId}`)).status, 404);
  });
});

describe('list', () => {
  test('all 250 share one millisecond but have distinct, increasing created_at', () => {
    const ms = new Set(testPayments.map((p) => Date.parse(p.created_at)));
    assert.equal(ms.size, 1);
    const stamps = testPayments.map((p) => p.created_at);
    assert.equal(new Set(stamps).size, 250);
    for (let i = 1; i < stamps.length; i++) assert.ok(stamps[i - 1] < stamps[i]);
  });

  test('default limit is 50, newest first, this environment and merchant only', async () => {
    const res = await list();
    assert.equal(res.status, 200);
    const rows = res.json.data.payments;
    assert.equal(rows.length, 50);
    assert.deepEqual(
      rows.map((p: any) => p.id),
      testPayments.slice(-50).reverse().map((p) => p.id),
    );
    assert.equal(res.json.data.next_before, rows[49].created_at);
  });

  test('limit 100 is the maximum page', async () => {
    assert.equal((await list('?limit=100')).json.data.payments.length, 100);
  });

  test('paging with before=next_before returns every row exactly once', async () => {
    for (const limit of [100, 7, 1]) {
      const seen: string[] = [];
      let before: string | null = null;
      let pages = 0;
      do {
        const qs: string = `?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
        const res = await list(qs);
        assert.equal(res.status, 200, res.text);
        seen.push(...res.json.data.payments.map((p: any) => p.id));
        before = res.json.data.next_before;
        pages++;
      } while (before !== null && pages < 300);
      assert.equal(seen.length, 250, `limit ${limit}`);
      assert.equal(new Set(seen).size, 250);
      assert.deepEqual(seen, testPayments.map((p) => p.id).reverse());
    }
  });

  test('status filter, also across pages', async () => {
    const failed = testPayments.filter((p) => p.status === 'failed');
    assert.equal(failed.length, 50);
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const res = await list(`?status=failed&limit=20${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      for (const p of res.json.data.payments) assert.equal(p.status, 'failed');
      seen.push(...res.json.data.payments.map((p: any) => p.id));
      before = res.json.data.next_before;
    } while (before !== null);
    assert.deepEqual(seen, failed.map((p) => p.id).reverse());
    const pending = await list('?status=pending');
    assert.deepEqual(pending.json.data, { payments: [], next_before: null });
  });

  test("the last non-empty page still carries next_before (its last row's created_at); the empty page after it ends paging", async () => {
    const res = await list(`?limit=100&before=${encodeURIComponent(testPayments[100].created_at)}`);
    assert.equal(res.json.data.payments.length, 100);
    assert.equal(res.json.data.next_before, testPayments[0].created_at);
    assert.equal(res.json.data.next_before, res.json.data.payments[99].created_at);
    const end = await list(`?limit=100&before=${encodeURIComponent(res.json.data.next_before)}`);
    assert.deepEqual(end.json.data, { payments: [], next_before: null });
    // A short page (fewer rows than asked) carries it too.
    const short = await list(`?limit=100&before=${encodeURIComponent(testPayments[3].created_at)}`);
    assert.equal(short.json.data.payments.length, 3);
    assert.equal(short.json.data.next_before, testPayments[0].created_at);
  });

  test('before accepts any ISO-8601 offset; a cursor before everything gives an empty page', async () => {
    const early = await list('?before=2026-03-01T09:00:00Z');
    assert.deepEqual(early.json.data, { payments: [], next_before: null });
    const later = await list(`?limit=3&before=${encodeURIComponent('2026-03-01T12:00:00+01:00')}`);
    assert.equal(later.json.data.payments.length, 3);
    assert.equal(later.json.data.payments[0].id, testPayments[249].id);
  });

  test('the live key lists only live payments; globex only its own', async () => {
    const live = await list('', KEYS.acmeLive);
    assert.deepEqual(live.json.data.payments.map((p: any) => p.id), [liveId]);
    const globex = await list('', KEYS.globexTest);
    assert.equal(globex.json.data.payments.length, 1);
    assert.ok(!testPayments.some((p) => p.id === globex.json.data.payments[0].id));
  });
});

describe('summary', () => {
  test('per currency, counts and completed amount, without since', async () => {
    const res = await emu.request('GET', '/v1/api/payments/summary');
    assert.equal(res.status, 200);
    const completed = testPayments.filter((p) => p.status === 'completed');
    assert.deepEqual(res.json.data, {
      summary: [
        {
          currency: 'USD',
          completed_count: 200,
          completed_amount: completed.reduce((s, p) => s + p.amount, 0),
          failed_count: 50,
          pending_count: 0,
          total_count: 250,
        },
      ],
      since: null,
    });
  });

  test('since as a timestamp and as a date; several currencies', async () => {
    await emu.services.scheduler.advance(2 * 86_400_000); // 2026-03-03T10:00Z
    const lrd = await link({ title: 'LRD', amount: 5000, currency: 'LRD' });
    await emu.request('POST', `/v1/api/payment-links/${lrd.id}/simulate`, { body: {} });
    const usd = await link({ title: 'USD', amount: 70, currency: 'USD' });
    await emu.request('POST', `/v1/api/payment-links/${usd.id}/simulate`, { body: { outcome: 'failed' } });

    const expectLater = [
      { currency: 'LRD', completed_count: 1, completed_amount: 5000, failed_count: 0, pending_count: 0, total_count: 1 },
      { currency: 'USD', completed_count: 0, completed_amount: 0, failed_count: 1, pending_count: 0, total_count: 1 },
    ];
    const byDate = await emu.request('GET', '/v1/api/payments/summary?since=2026-03-02');
    assert.equal(byDate.status, 200, byDate.text);
    assert.deepEqual(byDate.json.data.summary, expectLater);
    assert.equal(Date.parse(byDate.json.data.since), Date.parse('2026-03-02T00:00:00Z'));

    const byStamp = await emu.request('GET', `/v1/api/payments/summary?since=${encodeURIComponent('2026-03-03T09:59:59.999Z')}`);
    assert.deepEqual(byStamp.json.data.summary, expectLater);
    const offset = await emu.request('GET', `/v1/api/payments/summary?since=${encodeURIComponent('2026-03-03T11:00:00+01:00')}`);
    assert.deepEqual(offset.json.data.summary, expectLater);

    const all = await emu.request('GET', '/v1/api/payments/summary?since=2026-03-01');
    assert.deepEqual(
      all.json.data.summary.map((r: any) => [r.currency, r.total_count]),
      [
        ['LRD', 1],
        ['USD', 251],
      ],
    );
    const none = await emu.request('GET', '/v1/api/payments/summary?since=2026-03-04');
    assert.deepEqual(none.json.data.summary, []);
  });

  test('the live summary counts live payments only', async () => {
    const res = await emu.request('GET', '/v1/api/payments/summary', { key: KEYS.acmeLive });
    assert.deepEqual(res.json.data.summary, [
      { currency: 'USD', completed_count: 1, completed_amount: 9, failed_count: 0, pending_count: 0, total_count: 1 },
    ]);
  });
});
