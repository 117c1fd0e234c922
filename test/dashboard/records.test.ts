import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { PAGE_SIZE } from '../../emulator/dashboard/format.js';

// The records tables over HTTP: newest first, PAGE_SIZE rows a page with links that keep the
// filters, the environment filter, and a detail view that never shows secret-shaped fields.

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
  assert.match(detail.text, /<dt>parent_id<\/dt><dd>mer_acme<\/dd>/);
  for (const path of ['/dashboard/approvals', '/dashboard/wallets', `/dashboard/records/sub-merchants/${done.json.data.id}`, '/dashboard/records?kind=sub-merchants']) {
    assert.doesNotMatch((await rawRequest(emu.baseUrl, 'GET', path)).text, /pin_hash|scrypt/i, path);
  }
  assert.equal((await rawRequest(emu.baseUrl, 'GET', '/dashboard/records/sub-merchants/mer_acme')).status, 404);
});
