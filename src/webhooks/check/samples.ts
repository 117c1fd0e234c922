import { randomBytes, randomUUID } from 'node:crypto';
import type { EventType } from '../../../contract/common.js';
import type { EventData } from '../../../contract/events.js';

// Event bodies for `svc webhooks check`: the envelope the emulator's outbox writes
// (`{type, createdAt, data}`, serialized once with JSON.stringify), with `data` of each type's
// published schema (typed by contract/events.ts, so a sample that drifts from the payload the
// emulator sends does not compile). Every call makes fresh ids: each crafted delivery is its
// own event, as in production, so a receiver that keys on a payment id does not see the same
// one twice unless the check means it to (the duplicate check).

/** An id shaped like the emulator's: prefix, underscore, 20 letters and digits. */
const freshId = (prefix: string) => `${prefix}_${randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')}`;

/** The emulator's timestamp format: ISO-8601 with six fraction digits. */
export const isoNow = () => new Date().toISOString().replace('Z', '000Z');

function paymentData(status: 'completed' | 'failed', at: string): EventData<'payment.completed'> {
  const linkId = freshId('pl');
  const paid = status === 'completed';
  return {
    payment: { id: freshId('pay'), amount: 1200, currency: 'USD', status, payment_method: 'card', environment: 'test', mandate_id: null, payment_link_id: linkId, idempotency_key: randomUUID(), created_at: at },
    link: {
      id: linkId,
      link_code: `PL-${randomBytes(6).toString('hex').slice(0, 8).toUpperCase()}`,
      // Text beyond ASCII and a slash: the re-laid-out body escapes both (deliveries.ts).
      title: 'Café crème',
      description: null,
      amount: 1200,
      currency: 'USD',
      accepted_methods: ['card', 'momo'],
      status: paid ? 'completed' : 'pending',
      total_collected: paid ? 1200 : 0,
      payment_count: paid ? 1 : 0,
      expires_at: null,
      redirect_url: 'https://shop.example/thanks',
      metadata: { order_id: 'ord_1042' },
      sub_merchant_id: null,
      environment: 'test',
      created_at: at,
    },
  };
}

function payrollData(status: 'completed' | 'partial' | 'failed', at: string): EventData<'payroll_run.completed'> {
  const paid = status === 'completed' ? 2 : status === 'partial' ? 1 : 0;
  const line = (n: number, phone: string, label: string) => ({
    id: freshId('pln'),
    external_ref: `emp-00${n}`,
    payee_phone: phone,
    label,
    amount_cents: 2500,
    status: n <= paid ? ('paid' as const) : ('failed' as const),
    failure_reason: n <= paid ? null : ('no_matching_user' as const),
    paid_at: n <= paid ? at : null,
  });
  const payments = [line(1, '+231770000201', 'Mary — caisse'), line(2, '+231770000299', 'Joseph — cuisine')];
  return {
    run: {
      id: freshId('prun'),
      status,
      currency: 'USD',
      note: 'Paie de novembre',
      line_count: 2,
      total_amount_cents: 5000,
      paid_count: paid,
      paid_amount_cents: paid * 2500,
      environment: 'test',
      created_at: at,
      approved_at: at,
      completed_at: at,
    },
    payments,
  };
}

const DATA: { [T in EventType]: (at: string) => EventData<T> } = {
  'payment.completed': (at) => paymentData('completed', at),
  'payment.failed': (at) => paymentData('failed', at),
  'payroll_run.completed': (at) => payrollData('completed', at),
  'payroll_run.partial': (at) => payrollData('partial', at),
  'payroll_run.failed': (at) => payrollData('failed', at),
  'catalog.published': (at) => ({ catalog: { id: 'cat_main', name: 'Menu du café', version: 3, item_count: 12, published_at: at } }),
  'inventory.low_stock': (at) => ({
    item: { id: freshId('itm'), sku: 'SKU-0001', name: 'Crème brûlée', quantity: 2, low_stock_threshold: 5, location_id: null },
    movement: { quantity_change: -1, occurred_at: at },
  }),
};

/** A fresh event of `type` as the outbox would write it (the object; JSON.stringify gives its body). */
export function sampleEvent(type: EventType): { type: string; createdAt: string; data: Record<string, unknown> } {
  const at = isoNow();
  return { type, createdAt: at, data: DATA[type](at) };
}

/** An event of a type this version does not know, shaped like the others. */
export function unknownEvent(type: string): { type: string; createdAt: string; data: Record<string, unknown> } {
  const at = isoNow();
  return { type, createdAt: at, data: { object: { id: freshId('obj'), status: 'created', created_at: at } } };
}
