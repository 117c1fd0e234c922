import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator } from '../helpers/emulator.js';
import { verifySignature } from '../../contract/signature.js';
import { control, createEndpoint, startReceiver, toNextDelivery } from './receiver.js';

// catalog.published and inventory.low_stock: nothing in the merchant API causes them, so the
// control route POST /_emulator/events/trigger emits them — through the ordinary outbox, so a
// real receiver gets signed deliveries on the usual schedule.

test('POST /_emulator/events/trigger emits both events; a subscribed receiver gets a signed delivery of each', async () => {
  const emu = await startTestEmulator({ clockStart: Date.parse('2026-05-01T09:00:00Z') });
  const rx = await startReceiver();
  const other = await startReceiver();
  try {
    const ep = await createEndpoint(emu, rx.url, ['catalog.published', 'inventory.low_stock']);
    await createEndpoint(emu, other.url, ['payment.completed']); // not subscribed: gets nothing
    await createEndpoint(emu, other.url, ['catalog.published'], KEYS.acmeLive); // other environment: nothing

    const published = await control(emu, 'POST', '/events/trigger', { type: 'catalog.published', merchant_id: 'mer_acme', environment: 'test' });
    assert.equal(published.status, 201, JSON.stringify(published.error));
    assert.match(published.data.id, /^evt_/);
    assert.equal(published.data.deliveries.length, 1);
    const low = await control(emu, 'POST', '/events/trigger', {
      type: 'inventory.low_stock',
      merchant_id: 'mer_acme',
      item: { sku: 'OIL-5L', name: 'Engine oil 5 L', quantity: 3, low_stock_threshold: 3, quantity_change: -2, location_id: 'loc_station_7' },
    });
    assert.equal(low.status, 201, JSON.stringify(low.error));
    assert.equal(low.data.environment, 'test', 'environment defaults to test');

    assert.equal(rx.received.length, 0, 'due 1 s after the event, like every delivery');
    await toNextDelivery(emu);
    const got = await rx.waitFor(2);
    const byType = Object.fromEntries(got.map((r) => [String(r.headers['svc-event']), r]));
    for (const [type, r] of Object.entries(byType)) {
      assert.ok(verifySignature({ secret: ep.secret, header: String(r.headers['svc-signature']), body: r.body }).ok, `${type} is signed`);
      assert.match(String(r.headers['svc-delivery']), /^dlv_/);
    }
    const catalog = JSON.parse(byType['catalog.published'].body);
    assert.equal(byType['catalog.published'].body, published.data.body, 'the body is the stored event, byte for byte');
    assert.deepEqual(Object.keys(catalog), ['type', 'createdAt', 'data']);
    assert.deepEqual(catalog.data, { catalog: { id: 'cat_main', name: 'Main catalog', version: 1, item_count: 12, published_at: '2026-05-01T09:00:00.000000Z' } });
    const stock = JSON.parse(byType['inventory.low_stock'].body);
    assert.equal(stock.type, 'inventory.low_stock');
    assert.match(stock.data.item.id, /^itm_/);
    assert.deepEqual({ ...stock.data.item, id: undefined }, { id: undefined, sku: 'OIL-5L', name: 'Engine oil 5 L', quantity: 3, low_stock_threshold: 3, location_id: 'loc_station_7' });
    assert.deepEqual(stock.data.movement, { quantity_change: -2, occurred_at: '2026-05-01T09:00:00.000000Z' });

    // Publishing the same catalog again is its next version.
    const again = await control(emu, 'POST', '/events/trigger', { type: 'catalog.published', merchant_id: 'mer_acme' });
    assert.equal(JSON.parse(again.data.body).data.catalog.version, 2);
    assert.equal(other.received.length, 0);
  } finally {
    await rx.close();
    await other.close();
    await emu.stop();
  }
});

test('POST /_emulator/events/trigger refuses what would not happen: stock above its threshold, unknown merchants, other types', async () => {
  const emu = await startTestEmulator();
  try {
    const above = await control(emu, 'POST', '/events/trigger', { type: 'inventory.low_stock', merchant_id: 'mer_acme', item: { quantity: 6, low_stock_threshold: 5 } });
    assert.equal(above.status, 422);
    assert.match(above.error.message, /^item\.quantity: 6 is above low_stock_threshold 5/);
    const nobody = await control(emu, 'POST', '/events/trigger', { type: 'catalog.published', merchant_id: 'mer_nobody' });
    assert.equal(nobody.status, 404);
    const payment = await control(emu, 'POST', '/events/trigger', { type: 'payment.completed', merchant_id: 'mer_acme' });
    assert.equal(payment.status, 422, 'payment events come from payments, not from this route');
    const extra = await control(emu, 'POST', '/events/trigger', { type: 'catalog.published', merchant_id: 'mer_acme', catalog: { colour: 'red' } });
    assert.equal(extra.status, 422);
    assert.equal((await control(emu, 'GET', '/events?type=catalog.published')).data.events.length, 0, 'nothing was emitted');
  } finally {
    await emu.stop();
  }
});
