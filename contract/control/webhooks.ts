import { z } from 'zod';
import { Environment, EventType } from '../common.js';

// The outbox and the delivery log as the control API shows them, and the dashboard-side events
// it can emit (emulator/webhooks/control.ts, emulator/resources/events/control.ts).

const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'dead_letter', 'cancelled']);

const Iso = z.string().meta({ description: 'ISO-8601, microseconds, UTC' });

const DeliveryAttempt = z
  .object({
    attempt: z.int().min(1).meta({ description: "1-based position in the delivery's log (across redeliveries)" }),
    at: Iso,
    status_code: z.int().nullable().meta({ description: "The receiver's status; null when no answer came" }),
    latency_ms: z.number().min(0),
    error: z.string().nullable(),
    response_excerpt: z.string().meta({ description: 'The first 1 KB of the response body' }),
    request_headers: z.record(z.string(), z.string()).optional().meta({ description: 'The headers sent (the signature, never the secret); one delivery only' }),
  })
  .meta({ id: 'DeliveryAttempt' });

const deliveryFields = {
  id: z.string(),
  event_id: z.string(),
  endpoint_id: z.string(),
  merchant_id: z.string(),
  environment: Environment,
  event_type: z.string(),
  status: DeliveryStatus,
  attempt_count: z.int().min(0),
  attempts_left: z.int().min(0).meta({ description: 'Attempts left in the current round of 7 (0 unless pending or failed)' }),
  next_attempt_at: Iso.nullable(),
  last_attempt: DeliveryAttempt.nullable(),
  created_at: Iso,
  updated_at: Iso,
};

/** A delivery in a list: its last attempt only. */
export const DeliveryRow = z.object(deliveryFields).meta({ id: 'DeliveryRow' });
/** One delivery with every attempt. */
export const Delivery = z.object({ ...deliveryFields, attempts: z.array(DeliveryAttempt) }).meta({ id: 'Delivery' });

export const DeliveryListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50).meta({ description: 'Newest N deliveries (default 50, max 500)' }),
});

export const DeliveryList = z.object({ deliveries: z.array(DeliveryRow), total: z.int().min(0).meta({ description: "The endpoint's deliveries in all" }) });

export const EndpointSecret = z
  .object({
    id: z.string(),
    secret: z.string().meta({ description: "The endpoint's signing secret (43 base64url characters): the key of every delivery's Svc-Signature" }),
    events: z.array(z.string()).meta({ description: 'The event types the endpoint subscribes to: `svc webhooks check --endpoint` sends only these' }),
    allowed_hosts: z.array(z.string()).meta({ description: "The emulator's --allow-host names: plain http:// to them is a test host, as for loopback" }),
  })
  .meta({ id: 'EndpointSecret' });

/** An empty JSON object: the route takes no fields. */
export const NoFields = z.strictObject({});

export const NextDeliveryAdvance = z.object({
  advanced_ms: z.int().min(0).meta({ description: '0 when nothing waits or something is already due' }),
  due_at: Iso.nullable(),
  deliveries: z.array(z.string()).meta({ description: 'The deliveries due at due_at' }),
});

export const EventsQuery = z.strictObject({
  merchant_id: z.string().min(1).optional(),
  environment: Environment.optional(),
  type: EventType.optional(),
});

const eventFields = {
  id: z.string(),
  type: z.string().meta({ description: 'An event type, such as payment.completed' }),
  environment: Environment,
  merchant_id: z.string(),
  created_at: Iso,
  body: z.string().meta({ description: 'The exact JSON text every delivery of the event sends' }),
};

const ControlEvent = z.object(eventFields).meta({ id: 'ControlEvent' });
export const EventList = z.object({ events: z.array(ControlEvent).meta({ description: 'Oldest first' }) });

/** An attempt as the event's delivery records keep it (the delivery log's own view adds request headers). */
const StoredAttempt = z.object({
  attempt: z.int().min(1),
  at: Iso,
  status_code: z.int().nullable(),
  latency_ms: z.number().min(0),
  error: z.string().nullable(),
  response_excerpt: z.string(),
  signature: z.string().optional().meta({ description: 'The Svc-Signature header sent' }),
  cursor: z.string().meta({ description: "The live stream's cursor for this attempt" }),
  delivery_status: DeliveryStatus.meta({ description: "The delivery's status right after this attempt" }),
});

export const EventDeliveries = z.object({
  deliveries: z.array(
    z.object({
      id: z.string(),
      event_id: z.string(),
      endpoint_id: z.string(),
      event_type: z.string(),
      status: DeliveryStatus,
      attempts: z.array(StoredAttempt),
      next_attempt_at: Iso.nullable(),
      created_at: Iso,
    }),
  ),
});

// The two spec events nothing in the merchant API causes (catalogs and inventory live on the
// business dashboard); payloads are a spec gap, docs/spec-gaps.md shows the chosen shapes.

const Catalog = z.strictObject({
  id: z.string().min(1).max(100).optional().meta({ description: 'Default cat_main' }),
  name: z.string().min(1).max(200).optional().meta({ description: 'Default "Main catalog"' }),
  version: z.int().min(1).optional().meta({ description: 'Default: one more than the last published version of this catalog' }),
  item_count: z.int().min(0).optional().meta({ description: 'Default 12' }),
});

const ITEM_QUANTITY_DEFAULT = 2;
const ITEM_THRESHOLD_DEFAULT = 5;

const Item = z
  .strictObject({
    id: z.string().min(1).max(100).optional().meta({ description: 'Default: a new itm_… id' }),
    sku: z.string().min(1).max(100).optional().meta({ description: 'Default SKU-0001' }),
    name: z.string().min(1).max(200).optional().meta({ description: 'Default "Sample item"' }),
    quantity: z
      .int()
      .min(0)
      .optional()
      .meta({
        description: `After the movement; at most low_stock_threshold (the event is sent only at or below it: \`x-at-most-field\`); default ${ITEM_QUANTITY_DEFAULT}`,
        default: ITEM_QUANTITY_DEFAULT,
        'x-at-most-field': 'low_stock_threshold',
      }),
    low_stock_threshold: z.int().min(0).optional().meta({ description: `Default ${ITEM_THRESHOLD_DEFAULT}`, default: ITEM_THRESHOLD_DEFAULT }),
    quantity_change: z.int().max(-1).optional().meta({ description: 'The movement that crossed the threshold (negative); default -1' }),
    location_id: z.string().min(1).max(100).nullable().optional(),
  })
  // The spec's condition, checked on the body alone (the defaults count when a field is absent).
  .superRefine((item, ctx) => {
    const quantity = item.quantity ?? ITEM_QUANTITY_DEFAULT;
    const threshold = item.low_stock_threshold ?? ITEM_THRESHOLD_DEFAULT;
    if (quantity > threshold) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: `${quantity} is above low_stock_threshold ${threshold}; inventory.low_stock is sent only at or below it` });
    }
  });

export const TriggerEventBody = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('catalog.published'), merchant_id: z.string().min(1), environment: Environment.default('test'), catalog: Catalog.optional() }),
  z.strictObject({ type: z.literal('inventory.low_stock'), merchant_id: z.string().min(1), environment: Environment.default('test'), item: Item.optional() }),
]);
export type TriggerEventBody = z.infer<typeof TriggerEventBody>;

export const TriggeredEvent = z.object({ ...eventFields, deliveries: z.array(z.string()).meta({ description: 'One delivery per subscribed endpoint' }) });
