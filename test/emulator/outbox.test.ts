import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, request, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// The durable outbox: each settled payment appends one event, and one delivery per endpoint
// of the same merchant and environment subscribed to that event type — read through the
// control API (/_emulator/events). Delivery itself is the webhook engine's job, so nothing
// here assumes a delivery stays pending.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const control = (path: string) => request(emu.baseUrl, 'GET', `/_emulator${path}`, { key: null });

// Receivers point at a closed loopback port: the delivery engine may try them, and tests
// never send traffic off this machine.
async function endpoint(events: string[], key: string = KEYS.acmeTest, url = 'https://localhost:9/hook') {
  const res = await emu.request('POST', '/v1/api/webhook-endpoints', { key, body: { url, events } });
  assert.equal(res.status, 201, res.text);
  return res.json.data.endpoint.id as string;
}

async function eventsOf(merchant: string, environment: string, type?: string) {
  const res = await control(`/events?merchant_id=${merchant}&environment=${environment}${type ? `&type=${type}` : ''}`);
  assert.equal(res.status, 200, res.text);
  return res.json.data.events as any[];
}

test('a simulate appends one event with the spec envelope and fans out to subscribed endpoints only', async () => {
  const both = await endpoint(['payment.completed', 'payment.failed']);
  const completedOnly = await endpoint(['payment.completed']);
  const failedOnly = await endpoint(['payment.failed']);
  const payrollOnly = await endpoint(['payroll_run.completed']);
  const liveEp = await endpoint(['payment.completed', 'payment.failed'], KEYS.acmeLive);
  const globexEp = await endpoint(['payment.completed', 'payment.failed'], KEYS.globexTest);
  const deleted = await endpoint(['payment.completed', 'payment.failed']);
  assert.equal((await emu.request('DELETE', `/v1/api/webhook-endpoints/${deleted}`)).status, 200);

  const before = (await eventsOf('mer_acme', 'test')).length;
  const link = (
    await emu.request('POST', '/v1/api/payment-links', {
      body: { title: 'Outbox', amount: 4321, currency: 'USD', metadata: { order_id: 'ord_77', lines: [1, 2] } },
      idempotencyKey: idem('ob'),
    })
  ).json.data;
  const sim = await emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { method: 'card' }, idempotencyKey: idem('obsim') });
  assert.equal(sim.status, 201);
  const payment = sim.json.data;

  const events = await eventsOf('mer_acme', 'test');
  assert.equal(events.length, before + 1, 'exactly one event per settled payment');
  const event = events[events.length - 1];
  assert.equal(event.type, 'payment.completed');
  assert.equal(event.merchant_id, 'mer_acme');
  assert.equal(event.environment, 'test');
  const body = JSON.parse(event.body);
  assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'data', 'type']);
  assert.equal(body.type, 'payment.completed');
  assert.ok(!Number.isNaN(Date.parse(body.createdAt)));
  assert.match(body.createdAt, /Z$/);
  assert.deepEqual(body.data.payment, payment, 'data.payment has the payment shape');
  assert.equal(body.data.payment.environment, 'test');
  assert.equal(body.data.link.id, link.id);
  assert.equal(body.data.link.link_code, link.link_code);
  assert.deepEqual(body.data.link.metadata, { order_id: 'ord_77', lines: [1, 2] });
  assert.equal(body.data.link.total_collected, 4321, 'the link snapshot is taken after settlement');
  assert.ok(!('livemode' in body));

  const deliveries = (await control(`/events/${event.id}/deliveries`)).json.data.deliveries as any[];
  assert.deepEqual(deliveries.map((d) => d.endpoint_id).sort(), [both, completedOnly].sort());
  for (const d of deliveries) {
    assert.match(d.id, /^dlv_/);
    assert.ok(['pending', 'succeeded', 'failed', 'dead_letter'].includes(d.status), d.status);
  }
  for (const absent of [failedOnly, payrollOnly, liveEp, globexEp, deleted]) assert.ok(!deliveries.some((d) => d.endpoint_id === absent));
});

test('a failed simulate appends payment.failed; type filter works', async () => {
  const ep = await endpoint(['payment.failed']);
  const link = (await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Fail', amount: 10 }, idempotencyKey: idem('obf') })).json.data;
  const sim = await emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { outcome: 'failed' } });
  assert.equal(sim.json.data.status, 'failed');
  const failed = await eventsOf('mer_acme', 'test', 'payment.failed');
  const event = failed[failed.length - 1];
  for (const e of failed) assert.equal(e.type, 'payment.failed');
  const body = JSON.parse(event.body);
  assert.equal(body.type, 'payment.failed');
  assert.equal(body.data.payment.id, sim.json.data.id);
  assert.equal(body.data.payment.status, 'failed');
  assert.equal(body.data.link.total_collected, 0);
  const deliveries = (await control(`/events/${event.id}/deliveries`)).json.data.deliveries as any[];
  assert.ok(deliveries.some((d) => d.endpoint_id === ep));
});

test('an endpoint created after an event does not receive it; one deleted before does not either', async () => {
  const link = (await emu.request('POST', '/v1/api/payment-links', { body: { title: 'Order', amount: 10 }, idempotencyKey: idem('obo') })).json.data;
  await emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: {} });
  const events = await eventsOf('mer_acme', 'test');
  const event = events[events.length - 1];
  const countBefore = (await control(`/events/${event.id}/deliveries`)).json.data.deliveries.length;
  const late = await endpoint(['payment.completed']);
  const deliveries = (await control(`/events/${event.id}/deliveries`)).json.data.deliveries as any[];
  assert.equal(deliveries.length, countBefore);
  assert.ok(!deliveries.some((d) => d.endpoint_id === late));
});

test('events of other merchants and environments stay apart; no endpoints means an event with no deliveries', async () => {
  const gl = (await emu.request('POST', '/v1/api/payment-links', { key: KEYS.globexLive, body: { title: 'G', amount: 1 }, idempotencyKey: idem() })).json.data;
  assert.equal(gl.environment, 'live');
  const before = await eventsOf('mer_globex', 'test');
  const link = (await emu.request('POST', '/v1/api/payment-links', { key: KEYS.globexTest, body: { title: 'G', amount: 1 }, idempotencyKey: idem() })).json.data;
  await emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { key: KEYS.globexTest, body: {} });
  const afterEvents = await eventsOf('mer_globex', 'test');
  assert.equal(afterEvents.length, before.length + 1);
  assert.deepEqual(await eventsOf('mer_globex', 'live'), []);
  for (const e of await eventsOf('mer_acme', 'test')) assert.equal(e.merchant_id, 'mer_acme');
});

test('the control API validates its query and 404s an unknown event', async () => {
  const bad = await control('/events?environment=staging');
  assert.equal(bad.status, 422);
  assert.match(bad.json.error.message, /environment/);
  const missing = await control('/events/evt_nope/deliveries');
  assert.equal(missing.status, 404);
  // A merchant key cannot reach the control API.
  const withKey = await request(emu.baseUrl, 'GET', '/_emulator/events', { key: KEYS.acmeTest });
  assert.equal(withKey.status, 403);
});
