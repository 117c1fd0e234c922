import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, silentLogger, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { startEmulator } from '../../src/testing/index.js';

// What the coverage count counts: answers by route template (never by id), kept across a reset,
// a snapshot restore and a restart on the same data dir, started again only by
// POST /_emulator/coverage/reset; and nothing it does changes an answer.

const running: TestEmulator[] = [];
after(async () => {
  for (const e of running) await e.stop();
});

const coverage = async (emu: TestEmulator, query = '') => (await emu.request('GET', `/_emulator/coverage${query}`, { key: null })).json.data;
const countOf = (report: { items: Array<{ name: string; count: number }> }, name: string) => report.items.find((i) => i.name === name)?.count;

test('answers count by route template: two ids are one item; the summary route is its own; test and live keys alike', async () => {
  const emu = await startTestEmulator({ store: 'memory' });
  running.push(emu);
  for (const id of ['pay_one', 'pay_two', 'pay_%ZZ']) assert.equal((await emu.request('GET', `/v1/api/payments/${id}`)).status, 404);
  assert.equal((await emu.request('GET', '/v1/api/payments/summary')).status, 200);
  assert.equal((await emu.request('GET', '/v1/api/payments/summary', { key: KEYS.acmeLive })).status, 200);
  assert.equal((await emu.request('HEAD', '/v1/api/payments')).status, 200);
  const report = await coverage(emu);
  assert.equal(countOf(report, 'GET /v1/api/payments/:id 404 NOT_FOUND'), 2, 'the malformed id is the router\'s 404, before any route');
  assert.equal(countOf(report, 'GET /v1/api/payments/summary 200'), 2, 'test and live keys alike');
  assert.equal(countOf(report, 'GET /v1/api/payments 200'), 1, 'HEAD is answered by the GET route');
  assert.equal(countOf(report, 'GET /v1/api/payments/:id 200'), 0);
  assert.equal(report.covered, 3);
  // Control routes, pages and unknown paths are not the merchant API: nothing more is counted.
  await emu.request('GET', '/v1/api/nothing-here');
  await emu.request('GET', '/_emulator/keys', { key: null });
  assert.equal((await coverage(emu)).covered, 3);
});

test('the count is kept across a reset, a snapshot restore and a restart; POST /_emulator/coverage/reset starts a new one', async () => {
  const dataDir = tempDir('svc-coverage-restart-');
  const first = await startTestEmulator({ dataDir });
  const list = (emu: TestEmulator) => emu.request('GET', '/v1/api/payments');
  await list(first);
  const snapshot = (await first.request('GET', '/_emulator/snapshot', { key: null })).json.data;
  assert.equal((await first.request('POST', '/_emulator/reset', { key: null })).status, 200);
  await list(first);
  assert.equal((await first.request('POST', '/_emulator/snapshot/restore', { key: null, body: snapshot })).status, 200);
  await list(first);
  const since = (await coverage(first)).since;
  await first.stop({ keepData: true });

  const second = await startTestEmulator({ dataDir });
  running.push(second);
  await list(second);
  const kept = await coverage(second);
  assert.equal(countOf(kept, 'GET /v1/api/payments 200'), 4);
  assert.equal(kept.since, since, 'the same count');
  const fresh = (await second.request('POST', '/_emulator/coverage/reset', { key: null })).json.data;
  assert.deepEqual([fresh.covered, countOf(fresh, 'GET /v1/api/payments 200')], [0, 0]);
  assert.ok(fresh.since >= since);
});

test('coverage never changes an answer: the same requests with counting on and off answer alike', async () => {
  const on = await startTestEmulator({ store: 'memory' });
  const off = await startTestEmulator({ store: 'memory', config: { coverage: false } });
  running.push(on, off);
  const requests: Array<[string, string, { key?: string | null; body?: unknown; idempotencyKey?: string }]> = [
    ['GET', '/v1/api/payments?limit=2', {}],
    ['GET', '/v1/api/payments?before=2020-01-01T00:00:00Z', {}],
    ['GET', '/v1/api/payments/pay_nothing', {}],
    ['GET', '/v1/api/payments', { key: null }],
    ['GET', '/v1/api/payments', { key: KEYS.acmeStation }],
    ['POST', '/v1/api/payment-links', { body: { title: 'Same' }, idempotencyKey: 'same-key' }],
    ['POST', '/v1/api/payment-links', { body: { title: 'Same' }, idempotencyKey: 'same-key' }],
    ['POST', '/v1/api/payment-links', { body: { title: 'Other' }, idempotencyKey: 'same-key' }],
    ['POST', '/v1/api/payouts', { body: { payee_id: 'payee_ada', amount_cents: 50_001, currency: 'USD' } }],
  ];
  // Ids and times differ between two emulators; everything else of an answer must not.
  const shape = (text: string) => text.replace(/"(id|link_code|created_at|trace_id)":"[^"]*"/g, '"$1":"…"');
  for (const [method, path, opts] of requests) {
    const [a, b] = [await on.request(method, path, opts), await off.request(method, path, opts)];
    assert.equal(a.status, b.status, `${method} ${path}`);
    assert.equal(shape(a.text), shape(b.text), `${method} ${path}`);
    assert.deepEqual([...a.headers.keys()].sort(), [...b.headers.keys()].sort(), `${method} ${path}: the same headers`);
  }
  assert.ok((await coverage(on)).covered >= 6);
  assert.equal((await coverage(off)).covered, 0, 'off counts nothing');
});

test('a coverage file that cannot be read or written is said, and answers go on', async () => {
  const dataDir = tempDir('svc-coverage-broken-');
  mkdirSync(join(dataDir, 'coverage.json')); // a directory where the file goes: EISDIR both ways
  const warnings: string[] = [];
  const emu = await startTestEmulator({ dataDir, logger: { ...silentLogger, warn: (m) => warnings.push(m) } });
  running.push(emu);
  assert.equal((await emu.request('GET', '/v1/api/payments')).status, 200);
  assert.equal(countOf(await coverage(emu), 'GET /v1/api/payments 200'), 1, 'counted in memory');
  await emu.close();
  // Read once at start; each save (a second after a change, and at the stop) says it failed.
  const said = warnings.filter((w) => w.startsWith('coverage:')).map((w) => w.replace(/\(.*\)/, '(…)'));
  assert.equal(said[0], `coverage: ${join(dataDir, 'coverage.json')} cannot be read (…); the count starts again`);
  assert.ok(said.length >= 2);
  for (const w of said.slice(1)) assert.equal(w, `coverage: could not save ${join(dataDir, 'coverage.json')} (…); the counts stay in memory`);
});

test('emu.coverage() in the testing API: the same report, with ignore patterns counted apart', async () => {
  const emu = await startEmulator();
  try {
    await fetch(`${emu.baseUrl}/v1/api/payments`, { headers: { authorization: `Bearer ${emu.key('acme-test')}` } });
    await emu.reset();
    const report = emu.coverage({ ignore: ['payroll', 'no-such-item'] });
    assert.equal(countOf(report, 'GET /v1/api/payments 200'), 1);
    assert.ok(report.ignored > 0 && report.items.filter((i) => i.ignored).every((i) => /payroll/i.test(i.name)));
    assert.deepEqual(report.unmatched_ignore, ['no-such-item']);
    assert.equal(report.total + report.ignored, report.items.length);
    assert.equal(report.uncovered_top.length, 10);
    assert.ok(report.uncovered_top.every((i) => !i.covered && !i.ignored && i.how.length > 0));
  } finally {
    await emu.close();
  }
});
