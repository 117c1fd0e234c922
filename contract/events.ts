import { z } from 'zod';
import { EVENT_TYPES, IsoTimestamp, type EventType } from './common.js';
import { PaymentLink } from './resources/payment-links.js';
import { Payment } from './resources/payments.js';
import { PayrollLine, PayrollRun } from './resources/payroll.js';

// What the service POSTs to a webhook endpoint: the envelope `{type, createdAt, data}` and the
// `data` of each event type. The emulator's producers are typed by these schemas (emitEvent in
// emulator/resources/events/outbox.ts takes `EventData<T>`), and the OpenAPI document's
// `webhooks` section is generated from them, so the two cannot drift. Payload shapes beyond the
// spec's payment events are spec gaps (docs/spec-gaps.md rows 40, 98, 99).

const PaymentEventData = z
  .object({
    payment: Payment,
    link: PaymentLink.optional().meta({ description: "Present only for a link payment: the link as this payment left it (its metadata is data.link.metadata)" }),
  })
  .meta({ id: 'PaymentEventData' });

const PayrollRunEventData = z
  .object({
    run: PayrollRun,
    payments: z.array(PayrollLine).meta({ description: 'Every line, as GET /v1/api/payroll/runs/{id} shows it after execution' }),
  })
  .meta({ id: 'PayrollRunEventData' });

const CatalogPublishedData = z
  .object({
    catalog: z.object({
      id: z.string(),
      name: z.string(),
      version: z.int().min(1).meta({ description: 'One more than the last published version of this catalog, unless given' }),
      item_count: z.int().min(0),
      published_at: IsoTimestamp,
    }),
  })
  .meta({ id: 'CatalogPublishedData' });

const InventoryLowStockData = z
  .object({
    item: z.object({
      id: z.string(),
      sku: z.string(),
      name: z.string(),
      quantity: z.int().min(0).meta({ description: 'After the movement; at most low_stock_threshold' }),
      low_stock_threshold: z.int().min(0),
      location_id: z.string().nullable(),
    }),
    movement: z.object({
      quantity_change: z.int().max(-1).meta({ description: 'The movement that took the quantity to or below the threshold (negative)' }),
      occurred_at: IsoTimestamp,
    }),
  })
  .meta({ id: 'InventoryLowStockData' });

/** The `data` of each event type. */
const EVENT_DATA = {
  'payment.completed': PaymentEventData,
  'payment.failed': PaymentEventData,
  'payroll_run.completed': PayrollRunEventData,
  'payroll_run.partial': PayrollRunEventData,
  'payroll_run.failed': PayrollRunEventData,
  'catalog.published': CatalogPublishedData,
  'inventory.low_stock': InventoryLowStockData,
} as const satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.output<(typeof EVENT_DATA)[T]>;

/** When each event is sent (the spec's table). */
export const EVENT_SUMMARIES: Record<EventType, string> = {
  'payment.completed': 'A link payment or mandate charge completed',
  'payment.failed': 'A link payment or mandate charge failed',
  'payroll_run.completed': 'A payroll run ended completed (every line paid)',
  'payroll_run.partial': 'A payroll run ended partial (some lines paid)',
  'payroll_run.failed': 'A payroll run ended failed (no line paid)',
  'catalog.published': 'A catalog version was published (on the emulator: POST /_emulator/events/trigger)',
  'inventory.low_stock': "An inventory movement took an item's quantity to or below its low_stock_threshold (on the emulator: POST /_emulator/events/trigger)",
};

/** `payment.completed` → `PaymentCompletedEvent`: the name of the envelope's component. */
const eventComponentName = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

/** The whole body of one event type's deliveries. */
function eventEnvelope<T extends EventType>(type: T) {
  return z
    .object({
      type: z.literal(type).meta({ description: 'The event type (also in the Svc-Event header)' }),
      createdAt: IsoTimestamp.meta({ description: 'When the event was generated (the emulator clock), not when this attempt was sent; the same on every attempt' }),
      data: EVENT_DATA[type],
    })
    .meta({ id: eventComponentName(type) });
}

export const EVENT_ENVELOPES = Object.fromEntries(EVENT_TYPES.map((t) => [t, eventEnvelope(t)])) as { [T in EventType]: ReturnType<typeof eventEnvelope<T>> };
