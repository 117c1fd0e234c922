import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { PAGE_SIZE } from '../../emulator/dashboard/format.js';

// The records tables over HTTP: newest first, PAGE_SIZE rows a page with links that keep the
// filters, the environment filter, the search by id, a detail view that never shows
// secret-shaped fields, and 404 for every id no record has (malformed ones included).
// What the pages show of each record is tested in a browser (records-browser.test.ts).

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const ids = (html: string) => [...html.matchAll(/href="\/dashboard\/records\/payment-links\/(pl_[A-Za-z0-9]+)"/g)].map((m) => m[1]);

test('payment links page by page, newest first, filtered by environment', async () => {
  const created: string[] = [];
  for (let i = 0; i < PAGE_SIZE + 2; i++) {
    const r = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('page'), body: { title: `Paged ${i}`, amount: 100 + i } });
    assert.equal(r.status, 201, r.text);
    created.push(r.json.data.id);
  }
  const live = await emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeLive, idempotencyKey: idem('page-live'), body: { title: 'Live one', amount: 5 } });
  assert.equal(live.status, 201, live.text);

  const first = await rawRequest(emu.baseUrl, 'GET', '/dashboard/records?kind=payment-links&environment=test');
  assert.equal(first.status, 200);
  assert.match(first.text, /Page 1 of 2/);
  assert.deepEqual(ids(first.text), [...created].reverse().slice(0, PAGE_SIZE));
  const next = /href="([^"]+)" rel="next"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(next, 'a link to the next page');
  assert.match(next, /environment=test/, 'the filter is kept');
  const second = await rawRequest(emu.baseUrl, 'GET', next);
  assert.deepEqual(ids(second.text), [...created].reverse().slice(PAGE_SIZE));
  assert.match(second.text, /rel="prev"/);

  const liveOnly = await rawRequest(emu.baseUrl, 'GET', '/dashboard/records?kind=payment-links&environment=live');
  assert.ok(ids(liveOnly.text).includes(live.json.data.id));
  assert.ok(!ids(liveOnly.text).some((id) => created.includes(id)));
  // A page past the end shows the last page, not an empty one.
  const far = await rawRequest(emu.baseUrl, 'GET', '/dashboard/records?kind=payment-links&environment=test&page=99');
  assert.match(far.text, /Page 2 of 2/);
});

test('a sub-merchant has a detail view; no page shows a PIN hash; a merchant is not a sub-merchant record', async () => {
  const phone = '+231770000201';
  const start = await emu.request('POST', '/v1/api/sub-merchants/start', { idempotencyKey: idem('sm-start'), body: { manager_phone: phone } });
  assert.ok(start.status < 300, start.text);
  const otp = (await emu.request('GET', `/_emulator/otp/${phone}`, { key: null })).json.data.messages[0].code as string;
  const done = await emu.request('POST', '/v1/api/sub-merchants/complete', { idempotencyKey: idem('sm-done'), body: { merchant_name: 'Dash Kiosk', manager_phone: phone, otp } });
  assert.equal(done.status, 201, done.text);
  const detail = await rawRequest(emu.baseUrl, 'GET', `/dashboard/records/sub-merchants/${done.json.data.id}`);
  assert.equal(detail.status, 200);
  assert.match(detail.text, /Dash Kiosk/);
  // The merchant it belongs to, beside the view the API gives (which leaves the parent and manager out).
  assert.match(detail.text, /Merchant <code>mer_acme<\/code>/);
  assert.doesNotMatch(detail.text, /manager_user_id|parent_id/);
  for (const path of ['/dashboard/approvals', '/dashboard/wallets', `/dashboard/records/sub-merchants/${done.json.data.id}`, '/dashboard/records?kind=sub-merchants']) {
    assert.doesNotMatch((await rawRequest(emu.baseUrl, 'GET', path)).text, /pin_hash|scrypt/i, path);
  }
  assert.equal((await rawRequest(emu.baseUrl, 'GET', '/dashboard/records/sub-merchants/mer_acme')).status, 404);
});

const KIND_IDS = ['payment-links', 'payments', 'mandates', 'charges', 'payroll-runs', 'payouts', 'sub-merchants', 'gift-card-wallets', 'fleet-cards'];

test('a malformed or unknown id is a 404 page on every records route, never a 500', async () => {
  for (const kind of [...KIND_IDS, 'no-such-kind']) {
    for (const id of ['%ZZ', '%E0%A4%A', 'pl_nope', 'mer_acme%', 'nope%2Fnope']) {
      const res = await rawRequest(emu.baseUrl, 'GET', `/dashboard/records/${kind}/${id}`);
      assert.equal(res.status, 404, `${kind}/${id}: ${res.text.slice(0, 200)}`);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.match(res.text, /No such record\./);
    }
  }
  // A real id under another kind is not that kind's record either.
  const link = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('wrong-kind'), body: { title: 'Wrong kind', amount: 100 } });
  assert.equal((await rawRequest(emu.baseUrl, 'GET', `/dashboard/records/payments/${link.json.data.id}`)).status, 404);
  assert.equal((await rawRequest(emu.baseUrl, 'GET', '/dashboard/deliveries/%ZZ')).status, 404);
});

test('?q= with a whole id opens that record whatever the kind; part of an id filters; no match says so', async () => {
  const a = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('q-a'), body: { title: 'Search A', amount: 100 } });
  const b = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('q-b'), body: { title: 'Search B', amount: 200 } });
  const id = a.json.data.id as string;
  const jump = await rawRequest(emu.baseUrl, 'GET', `/dashboard/records?kind=payouts&q=${id}`);
  assert.equal(jump.status, 303);
  assert.equal(jump.headers.location, `/dashboard/records/payment-links/${id}`);

  const part = id.slice(3, 15);
  const filtered = await rawRequest(emu.baseUrl, 'GET', `/dashboard/records?kind=payment-links&q=${part}`);
  assert.equal(filtered.status, 200);
  assert.deepEqual(ids(filtered.text), [id]);
  assert.ok(!ids(filtered.text).includes(b.json.data.id));
  // Searched from another kind, the page points to where the ids are.
  const elsewhere = await rawRequest(emu.baseUrl, 'GET', `/dashboard/records?kind=payouts&q=${part}`);
  assert.match(elsewhere.text, /No payouts with an id containing/);
  assert.match(elsewhere.text, new RegExp(`href="/dashboard/records\\?kind=payment-links&amp;q=${part}">Payment links \\(1\\)`));

  const none = await rawRequest(emu.baseUrl, 'GET', '/dashboard/records?kind=payment-links&q=zz_nothing_here');
  assert.equal(none.status, 200);
  assert.deepEqual(ids(none.text), []);
  assert.match(none.text, /No payment links with an id containing “zz_nothing_here”/);
});
