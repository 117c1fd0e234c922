import type { Transaction } from '../../store/store.js';
import { DELIVERIES } from '../../webhooks/records.js';
import type { Services } from '../../services.js';
import type { TriggerEventBody } from '../../../contract/control/webhooks.js';
import type { EventData } from '../../../contract/events.js';
import { invalid } from '../../errors.js';
import { isoMicros, newId } from '../../ids.js';
import { merchantOr404 } from '../merchants/records.js';
import { EVENTS, emitEvent } from './outbox.js';

// The two spec events nothing in the merchant API causes: `catalog.published` ("a catalog
// version is published") and `inventory.low_stock` ("an inventory movement takes an item's
// quantity at or below its low_stock_threshold"). Catalogs and inventory live on the business
// dashboard, outside this API, so the emulator lets the dashboard side happen on request
// (POST /_emulator/events/trigger, `svc trigger …`) and emits the event through the ordinary
// outbox: same envelope, same signed deliveries, same retry schedule, same live stream.
// Payloads are a spec gap ("not shown"); docs/spec-gaps.md shows the chosen shapes. The request
// (contract/control/webhooks.ts TriggerEventBody) fills in what it leaves out.

/** The last version of `catalogId` published for this merchant and environment (0 when none). */
function lastVersion(services: Pick<Services, 'store'>, merchantId: string, environment: string, catalogId: string): number {
  let last = 0;
  for (const e of services.store.byIndex(EVENTS, 'by_scope', `${merchantId}:${environment}`)) {
    if (e.type !== 'catalog.published') continue;
    const c = (JSON.parse(e.body) as { data: { catalog?: { id?: string; version?: number } } }).data.catalog;
    if (c?.id === catalogId && typeof c.version === 'number') last = Math.max(last, c.version);
  }
  return last;
}

/** The event's data, typed by its published schema (contract/events.ts). */
function eventData(services: Pick<Services, 'store' | 'stamps'>, body: TriggerEventBody, at: string): EventData<'catalog.published'> | EventData<'inventory.low_stock'> {
  if (body.type === 'catalog.published') {
    const id = body.catalog?.id ?? 'cat_main';
    return {
      catalog: {
        id,
        name: body.catalog?.name ?? 'Main catalog',
        version: body.catalog?.version ?? lastVersion(services, body.merchant_id, body.environment, id) + 1,
        item_count: body.catalog?.item_count ?? 12,
        published_at: at,
      },
    };
  }
  const item = body.item ?? {};
  const quantity = item.quantity ?? 2;
  const threshold = item.low_stock_threshold ?? 5;
  // The spec's condition: the event exists only when the movement ends at or below the threshold.
  if (quantity > threshold) throw invalid('item.quantity', `${quantity} is above low_stock_threshold ${threshold}; inventory.low_stock is sent only at or below it`);
  return {
    item: {
      id: item.id ?? newId('itm'),
      sku: item.sku ?? 'SKU-0001',
      name: item.name ?? 'Sample item',
      quantity,
      low_stock_threshold: threshold,
      location_id: item.location_id ?? null,
    },
    movement: { quantity_change: item.quantity_change ?? -1, occurred_at: at },
  };
}

/** Emits one catalog.published or inventory.low_stock event through the outbox; returns it with its deliveries. */
export function triggerEvent(services: Services, tx: Transaction, body: TriggerEventBody) {
  merchantOr404(services, body.merchant_id);
  const at = isoMicros(services.clock.now());
  const event = emitEvent(services, tx, { merchantId: body.merchant_id, environment: body.environment }, body.type, eventData(services, body, at));
  const deliveries = services.store.byIndex(DELIVERIES, 'by_event', event.id).map((d) => d.id);
  return { id: event.id, type: event.type, environment: event.environment, merchant_id: event.merchant_id, created_at: event.created_at, body: event.body, deliveries };
}
