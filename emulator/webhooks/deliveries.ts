import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';
import { ApiError, notFound } from '../errors.js';
import { DELIVERIES } from './records.js';
import { WEBHOOK_ENDPOINTS } from '../resources/webhook-endpoints/domain.js';
import { isScheduled, SCHEDULED_KEY, toPublicDelivery, type DeliveryRecord } from './records.js';
import { isoMicros } from '../ids.js';

// The dashboard's view of deliveries: read one, list an endpoint's, redeliver one, and the
// cancellation that follows an endpoint's deletion. Every change is one store transaction;
// the engine notices it through the store's commit feed and (re)schedules accordingly.

export function getDelivery(services: Pick<Services, 'store'>, id: string): DeliveryRecord {
  const d = services.store.get(DELIVERIES, id);
  if (!d) throw notFound('delivery');
  return d;
}

export function listEndpointDeliveries(services: Pick<Services, 'store'>, endpointId: string, limit: number) {
  // Deleted endpoints keep their history: the log is what a user looks at after a revoke.
  if (!services.store.get(WEBHOOK_ENDPOINTS, endpointId)) throw notFound('webhook endpoint');
  const all = services.store.byIndex(DELIVERIES, 'by_endpoint', endpointId);
  const rows: DeliveryRecord[] = [];
  for (let i = all.length - 1; i >= 0 && rows.length < limit; i--) rows.push(all[i]); // index order is creation order
  return { deliveries: rows.map((d) => toPublicDelivery(d, false)), total: all.length };
}

/**
 * Puts one `failed` or `dead_letter` delivery back to `pending`, same id (same Svc-Delivery),
 * due now, with a fresh round of 7 attempts. Its log keeps the earlier attempts.
 */
export function redeliver(services: Pick<Services, 'store' | 'clock' | 'stamps'>, tx: Transaction, id: string) {
  const d = getDelivery(services, id);
  if (d.status !== 'failed' && d.status !== 'dead_letter') {
    throw new ApiError('INVALID_STATE', `Delivery ${id} is ${d.status}; only failed or dead_letter deliveries can be redelivered.`);
  }
  const endpoint = services.store.get(WEBHOOK_ENDPOINTS, d.endpoint_id);
  if (!endpoint || endpoint.deleted_at) throw new ApiError('INVALID_STATE', `Delivery ${id} belongs to a deleted endpoint; it cannot be redelivered.`);
  const next = tx.put(DELIVERIES, {
    ...d,
    status: 'pending',
    next_attempt_at: services.clock.now(),
    round_start: d.attempts.length,
    updated_at: services.stamps.next(),
  });
  return toPublicDelivery(next, true);
}

/** Cancels every delivery of a deleted endpoint that still waits for an attempt. */
export function cancelEndpointDeliveries(services: Pick<Services, 'store' | 'stamps'>, tx: Transaction, endpointId: string): number {
  let n = 0;
  for (const d of services.store.byIndex(DELIVERIES, 'by_endpoint', endpointId)) {
    if (!isScheduled(d)) continue;
    tx.put(DELIVERIES, { ...d, status: 'cancelled', next_attempt_at: null, updated_at: services.stamps.next() });
    n++;
  }
  return n;
}

/** The earliest time any delivery is due for an attempt, and the deliveries due then; null when none waits. */
export function nextDueAttempt(services: Pick<Services, 'store'>): { at: number; ids: string[] } | null {
  let at = Infinity;
  let ids: string[] = [];
  for (const d of services.store.byIndex(DELIVERIES, 'scheduled', SCHEDULED_KEY)) {
    const due = d.next_attempt_at!;
    if (due < at) (at = due), (ids = [d.id]);
    else if (due === at) ids.push(d.id);
  }
  return ids.length ? { at, ids } : null;
}

/**
 * Moves the emulator clock to the next due attempt (not backwards: one already due stays due
 * now) so tests and users need not know the retry delays. Like any advance, it answers once the
 * attempts due then have been made and recorded.
 */
export async function advanceToNextDelivery(services: Pick<Services, 'store' | 'clock' | 'scheduler'>) {
  const next = nextDueAttempt(services);
  const advanced = next ? Math.max(0, next.at - services.clock.now()) : 0;
  await services.scheduler.advance(advanced);
  return { advanced_ms: advanced, due_at: next ? isoMicros(next.at) : null, deliveries: next?.ids ?? [] };
}
