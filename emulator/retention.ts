import { DELIVERIES } from './webhooks/records.js';
import { LIFETIME_MS } from '../contract/idempotency.js';
import type { Services } from './services.js';
import { IDEMPOTENCY, type IdempotencyRecord } from './gateway/idempotency.js';
import { EVENTS } from './resources/events/outbox.js';
import { OTP_INBOX } from './resources/sub-merchants/otp.js';
import { parseMicros } from './ids.js';

// What the store forgets, and when (emulator clock time, so `svc emulator clock advance`
// ages data exactly as days of real use would):
//
//   idempotency records   24 h after they were made: the spec's key lifetime; a replay of an
//                         older key already runs anew (gateway/idempotency.ts), so the record
//                         (with its full response body) is dead weight
//   events + deliveries   `retainDays` (default 7) after the event, once none of its
//                         deliveries is still pending or due for a retry — a retry schedule is never cut short
//   OTP inbox             `retainDays` after the code was sent
//
// Pruning is one ordinary transaction: journaled like any write, so a restart never brings
// pruned records back, and a disk that refuses it costs a log line, not data.

export const DEFAULT_RETAIN_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneResult {
  idempotency: number;
  events: number;
  deliveries: number;
  otp: number;
}

export function pruneExpired(services: Pick<Services, 'store' | 'clock' | 'config'>): PruneResult {
  const now = services.clock.now();
  const keepFrom = now - (services.config.retainDays ?? DEFAULT_RETAIN_DAYS) * DAY_MS;
  const { store } = services;
  const result: PruneResult = { idempotency: 0, events: 0, deliveries: 0, otp: 0 };
  // Ids first, deletes after: the collections must not change under their iterators.
  const idem: string[] = [];
  // Each collection iterates oldest first (insertion order, which snapshots and the journal
  // keep), so a sweep stops at the first record still young: the timer's sweep of a store with
  // 100k live records reads only what expired instead of every record. (An emulator clock that
  // moved back leaves an older record behind a younger one until that one expires too.)
  for (const r of store.all<IdempotencyRecord & { created_at_ms: number }>(IDEMPOTENCY)) {
    if (now - r.created_at_ms < LIFETIME_MS) break;
    idem.push(r.id);
  }
  const events: Array<{ id: string; deliveries: string[] }> = [];
  for (const e of store.all(EVENTS)) {
    if (parseMicros(e.created_at) / 1000 >= keepFrom) break;
    const deliveries = store.byIndex(DELIVERIES, 'by_event', e.id);
    // `failed` with a next attempt due is still on its retry schedule, like `pending`.
    if (deliveries.some((d) => d.status === 'pending' || d.next_attempt_at !== null)) continue;
    events.push({ id: e.id, deliveries: deliveries.map((d) => d.id) });
  }
  const otp: string[] = [];
  for (const o of store.all(OTP_INBOX)) {
    if (Date.parse(o.sent_at) >= keepFrom) break;
    otp.push(o.id);
  }
  if (idem.length + events.length + otp.length === 0) return result;
  store.transaction((tx) => {
    for (const id of idem) tx.delete(IDEMPOTENCY, id);
    for (const e of events) {
      for (const d of e.deliveries) tx.delete(DELIVERIES, d);
      tx.delete(EVENTS, e.id);
      result.deliveries += e.deliveries.length;
    }
    for (const id of otp) tx.delete(OTP_INBOX, id);
  });
  result.idempotency = idem.length;
  result.events = events.length;
  result.otp = otp.length;
  return result;
}
