import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession, familySmokeTest, target } from './cli.js';

// `svc trigger <event>` (in-process): the event comes from ordinary calls (a simulated link payment, an
// approved payroll run), so it is the real one; test keys only.

const cli = cliSession();
const { svc } = cli;

test('trigger payment.completed / payment.failed: a link and a simulated payment, with its event', async () => {
  const ok = await svc(['trigger', 'payment.completed', '--amount', '2500', '--method', 'wallet', '--json'], undefined, familySmokeTest);
  assert.equal(ok.code, 0, ok.stderr);
  const payment = ok.json();
  assert.deepEqual([payment.status, payment.amount, payment.payment_method], ['completed', 2500, 'wallet']);
  const failed = await svc(['trigger', 'payment.failed']);
  assert.equal(failed.code, 0, 'a failed payment is data');
  assert.match(failed.stdout, /^\[TEST\] Triggered payment\.failed\n/);
  const events = (await cli.emu.request('GET', '/_emulator/events?merchant_id=mer_acme&environment=test', { key: null })).json.data.events;
  const completed = events.find((e: { type: string; body: string }) => e.type === 'payment.completed' && JSON.parse(e.body).data.payment.id === payment.id);
  assert.ok(completed, 'payment.completed was emitted for it');
  assert.deepEqual(JSON.parse(completed.body).data.link.metadata, { source: 'svc trigger' });
});

test('trigger refuses a live key and an unknown event (exit 2)', async () => {
  const live = await cli.run(['trigger', 'payment.completed', ...target(cli.emu.baseUrl, KEYS.acmeLive)]);
  assert.equal(live.code, 2);
  assert.match(live.stderr, /test keys only/);
  const unknown = await svc(['trigger', 'payment.refunded']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /expected one of payment\.completed, payment\.failed, payroll_run\.completed/);
});

test('trigger payroll_run.partial and payroll_run.failed: a run is created and approved, and its event is emitted', async () => {
  const partial = await svc(['trigger', 'payroll_run.partial', '--pin', '1357', '--json']);
  assert.equal(partial.code, 0, partial.stderr);
  assert.equal(partial.json().run.status, 'partial');
  const failed = await svc(['trigger', 'payroll_run.failed', '--pin', '1357', '--json']);
  assert.equal(failed.json().run.status, 'failed');
  const events = (await cli.emu.request('GET', '/_emulator/events?merchant_id=mer_acme&environment=test', { key: null })).json.data.events;
  const types = events.map((e: { type: string }) => e.type);
  assert.ok(types.includes('payroll_run.partial') && types.includes('payroll_run.failed'));
  const noPin = await svc(['trigger', 'payroll_run.completed']);
  assert.equal(noPin.code, 2);
  assert.match(noPin.stderr, /missing --pin/);
});

test('trigger catalog.published / inventory.low_stock: the emulator emits them for the key\'s merchant; a real receiver gets signed deliveries', async () => {
  const { startReceiver } = await import('../webhooks/receiver.js');
  const { verifySignature } = await import('../../contract/signature.js');
  const rx = await startReceiver();
  try {
    const ep = await cli.emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: rx.url, events: ['catalog.published', 'inventory.low_stock'] } });
    const secret = ep.json.data.secret as string;
    const catalog = await svc(['trigger', 'catalog.published', '--json']);
    assert.equal(catalog.code, 0, catalog.stderr);
    assert.equal(catalog.json().type, 'catalog.published');
    assert.equal(catalog.json().deliveries.length, 1);
    const stock = await svc(['trigger', 'inventory.low_stock']);
    assert.equal(stock.code, 0, stock.stderr);
    assert.match(stock.stdout, /^\[TEST\] Triggered inventory\.low_stock\n/);
    assert.match(stock.stdout, /"low_stock_threshold":5/);
    const moved = await cli.ctl(['clock', 'advance', '--to-next-delivery', '--json']);
    assert.equal(moved.code, 0, moved.stderr);
    const got = await rx.waitFor(2);
    assert.deepEqual(got.map((r) => r.headers['svc-event']).sort(), ['catalog.published', 'inventory.low_stock']);
    for (const r of got) assert.ok(verifySignature({ secret, header: String(r.headers['svc-signature']), body: r.body }).ok);
    assert.deepEqual(JSON.parse(got.find((r) => r.headers['svc-event'] === 'catalog.published')!.body).data, JSON.parse(catalog.json().body).data);
    await cli.emu.request('DELETE', `/v1/api/webhook-endpoints/${ep.json.data.endpoint.id}`);
    const live = await cli.run(['trigger', 'inventory.low_stock', ...target(cli.emu.baseUrl, KEYS.acmeLive)]);
    assert.equal(live.code, 2, 'test keys only');
  } finally {
    await rx.close();
  }
});
